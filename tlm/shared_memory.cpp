// Paper 004's shared memory (§2 B) as a TLM-2.0 target with banked, clocked timing. See shared_memory.h for
// the timing, the conflict rule and the data semantics.
#include "tlm/shared_memory.h"

#include "tlm/strided_access.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace meshmp {

SharedMemory::SharedMemory(sc_core::sc_module_name name, int processors, std::uint64_t size_bytes, int banks,
                           std::uint32_t word_bytes, int ports, FabricTiming timing, sc_core::sc_time cycle)
    : sc_core::sc_module(name),
      processors("processors"),
      processor_count_(processors),
      banks_(banks),
      word_bytes_(word_bytes),
      ports_(ports),
      timing_(timing),
      cycle_(cycle) {
  if (processors < 1) throw std::invalid_argument("SharedMemory: processors must be >= 1");
  if (banks < 1) throw std::invalid_argument("SharedMemory: banks must be >= 1");
  if (ports < 1) throw std::invalid_argument("SharedMemory: ports (k*) must be >= 1");
  if (word_bytes < 1) throw std::invalid_argument("SharedMemory: word_bytes must be >= 1");
  if (timing.bytes_per_cycle < 1) throw std::invalid_argument("SharedMemory: bytes_per_cycle must be >= 1");
  if (cycle <= sc_core::SC_ZERO_TIME) throw std::invalid_argument("SharedMemory: cycle must be > 0");
  bytes_.assign(size_bytes, 0);
  pending_.resize(static_cast<std::size_t>(processors));
  busy_until_processor_.assign(static_cast<std::size_t>(processors), 0);
  last_granted_ = processors - 1;  // the first edge starts with processor 0
  this->processors.register_b_transport(this, &SharedMemory::b_transport);
  this->processors.register_get_direct_mem_ptr(this, &SharedMemory::get_direct_mem_ptr);
  this->processors.register_transport_dbg(this, &SharedMemory::transport_dbg);
  SC_HAS_PROCESS(SharedMemory);
  SC_THREAD(edge_thread);
}

void SharedMemory::end_of_elaboration() {
  const int bound = static_cast<int>(processors.size());
  if (bound != processor_count_) {
    const std::string message = std::string(name()) + ": the processors socket is bound " + std::to_string(bound) +
                                " times, expected once per processor (" + std::to_string(processor_count_) + ")";
    SC_REPORT_ERROR("meshmp/SharedMemory", message.c_str());
  }
}

tlm::tlm_response_status SharedMemory::check(const tlm::tlm_generic_payload& trans) const {
  const std::uint64_t address = trans.get_address();
  const std::uint64_t length = trans.get_data_length();
  const StridedAccess* strided = trans.get_extension<StridedAccess>();
  const bool pieces_fit = strided == nullptr || strided->fits(length);
  const std::uint64_t span = pieces_fit && strided != nullptr ? strided->end(address, length) - address : length;
  if (!trans.is_read() && !trans.is_write()) return tlm::TLM_COMMAND_ERROR_RESPONSE;
  if (address > bytes_.size() || span > bytes_.size() - address) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  if (trans.get_byte_enable_ptr() != nullptr) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  if (trans.get_streaming_width() != length || !pieces_fit) return tlm::TLM_BURST_ERROR_RESPONSE;
  if (length > 0 && trans.get_data_ptr() == nullptr) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  return tlm::TLM_OK_RESPONSE;
}

void SharedMemory::b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  trans.set_dmi_allowed(false);
  const tlm::tlm_response_status status = check(trans);
  if (status != tlm::TLM_OK_RESPONSE || id < 0 || id >= processor_count_) {
    trans.set_response_status(status != tlm::TLM_OK_RESPONSE ? status : tlm::TLM_GENERIC_ERROR_RESPONSE);
    ++stats_.errors;
    return;
  }

  Request request;
  request.processor = id;
  request.write = trans.is_write();
  request.address = trans.get_address();
  request.length = trans.get_data_length();
  request.data = trans.get_data_ptr();
  const StridedAccess* strided = trans.get_extension<StridedAccess>();
  request.piece_bytes = strided != nullptr ? strided->piece_bytes : request.length;
  request.stride_bytes = strided != nullptr ? strided->stride_bytes : request.length;
  const std::uint64_t now = sc_core::sc_time_stamp().value();
  const std::uint64_t period = cycle_.value();
  request.request_cycle = now / period;
  pending_[static_cast<std::size_t>(id)].push_back(&request);
  ++pending_count_;
  arriving_.push_back(&request);
  wake_.notify(sc_core::sc_time::from_value((request.request_cycle + 1) * period - now));
  while (!request.done) sc_core::wait(request.done_event);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool SharedMemory::get_direct_mem_ptr(int, tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  // No DMI: direct access would bypass the banks' timing. Deny the whole address space.
  dmi.set_start_address(0);
  dmi.set_end_address(bytes_.empty() ? 0 : bytes_.size() - 1);
  return false;
}

unsigned int SharedMemory::transport_dbg(int, tlm::tlm_generic_payload& trans) {
  const std::uint64_t address = trans.get_address();
  if (address >= bytes_.size() || trans.get_data_ptr() == nullptr) return 0;
  const std::uint64_t length = std::min<std::uint64_t>(trans.get_data_length(), bytes_.size() - address);
  if (trans.is_read()) std::memcpy(trans.get_data_ptr(), bytes_.data() + address, length);
  else if (trans.is_write()) std::memcpy(bytes_.data() + address, trans.get_data_ptr(), length);
  else return 0;
  return static_cast<unsigned int>(length);
}

void SharedMemory::bank_schedule(Request& request, std::uint64_t grant_edge) const {
  request.schedule.clear();
  if (request.length == 0) return;
  const std::uint64_t stream_start = grant_edge + timing_.startup_cycles;
  request.for_each_piece([&](std::uint64_t address, std::uint64_t offset) {
    // The piece's bytes are the access's offset .. offset + piece_bytes - 1, at address .. on.
    const std::uint64_t first_word = address / word_bytes_;
    const std::uint64_t last_word = (address + request.piece_bytes - 1) / word_bytes_;
    for (std::uint64_t w = first_word; w <= last_word; ++w) {
      const std::uint64_t word_start = w * word_bytes_;
      const std::uint64_t first_byte = offset + (word_start > address ? word_start - address : 0);
      request.schedule.emplace_back(stream_start + first_byte / timing_.bytes_per_cycle,
                                    w % static_cast<std::uint64_t>(banks_));
    }
  });
}

std::uint64_t SharedMemory::in_flight_at(std::uint64_t edge) const {
  std::uint64_t count = 0;
  for (const Request* r : in_flight_)
    if (r->end_edge > edge) ++count;
  return count;
}

void SharedMemory::complete_through(std::uint64_t edge) {
  std::vector<Request*> finishing;
  std::vector<Request*> still;
  for (Request* r : in_flight_) (r->end_edge <= edge ? finishing : still).push_back(r);
  if (finishing.empty()) return;
  in_flight_.swap(still);
  // in_flight_ is in grant order, so `finishing` is too: writes land in grant order, then reads copy.
  for (Request* r : finishing)
    if (r->write)
      r->for_each_piece([&](std::uint64_t address, std::uint64_t offset) {
        std::memcpy(bytes_.data() + address, r->data + offset, r->piece_bytes);
      });
  for (Request* r : finishing)
    if (!r->write)
      r->for_each_piece([&](std::uint64_t address, std::uint64_t offset) {
        std::memcpy(r->data + offset, bytes_.data() + address, r->piece_bytes);
      });
  for (Request* r : finishing) {
    mark_ready_if_free(r->processor, edge);
    for (const auto& slot : r->schedule) reserved_.erase(slot);
    ++stats_.accesses;
    if (r->write) {
      ++stats_.writes;
      stats_.bytes_written += r->length;
    } else {
      ++stats_.reads;
      stats_.bytes_read += r->length;
    }
    r->done = true;  // the caller's b_transport returns once it sees this
    r->done_event.notify();
  }
}

void SharedMemory::mark_ready_if_free(int p, std::uint64_t edge) {
  const auto& queue = pending_[static_cast<std::size_t>(p)];
  if (queue.empty() || queue.front()->request_cycle >= edge || busy_until_processor_[static_cast<std::size_t>(p)] > edge)
    return;
  ready_.insert(p);
  if (!queue.front()->waited_port) fresh_ready_.insert(p);
}

void SharedMemory::consider_arrivals(std::uint64_t edge) {
  std::size_t kept = 0;
  for (Request* r : arriving_) {
    if (r->request_cycle >= edge) {  // made at this edge or later: considered at a later one
      arriving_[kept++] = r;
      continue;
    }
    ++considered_count_;
    const int p = r->processor;
    if (pending_[static_cast<std::size_t>(p)].front() == r && busy_until_processor_[static_cast<std::size_t>(p)] <= edge) {
      mark_ready_if_free(p, edge);
    } else {
      // Behind an earlier request of its processor, or its channel busy: it waits for its channel from its
      // first edge on, until it is its processor's first with the channel free (it is then ready, and stays
      // so until granted).
      r->waited_channel = true;
      ++stats_.channel_waits;
    }
  }
  arriving_.resize(kept);
}

bool SharedMemory::collides(const Request& r) const {
  for (const auto& slot : r.schedule)
    if (reserved_.count(slot)) return true;
  return false;
}

void SharedMemory::grant(int p, Request& r, std::uint64_t edge, std::uint64_t& in_flight) {
  r.granted = true;
  r.grant_edge = edge;
  r.end_edge = edge + timing_.transfer_cycles(r.length);
  r.grant_sequence = grant_sequence_++;
  for (const auto& slot : r.schedule) reserved_.insert(slot);
  in_flight_.push_back(&r);
  busy_until_processor_[static_cast<std::size_t>(p)] = r.end_edge;
  if (r.end_edge > edge) {
    ++in_flight;
    const std::uint64_t from = std::max(edge, busy_until_);
    if (r.end_edge > from) stats_.busy_cycles += r.end_edge - from;
    busy_until_ = std::max(busy_until_, r.end_edge);
  }
  pending_[static_cast<std::size_t>(p)].pop_front();
  --pending_count_;
  --considered_count_;
  fresh_ready_.erase(p);
}

bool SharedMemory::arbitrate(std::uint64_t edge) {
  // The edges skipped since the last visit: every request then waiting for a port or its channel waited
  // at each of them for the same reason.
  if (edge > last_visited_edge_ + 1) {
    stats_.port_wait_cycles += (edge - last_visited_edge_ - 1) * held_port_waiters_;
    stats_.channel_wait_cycles += (edge - last_visited_edge_ - 1) * held_channel_waiters_;
  }
  last_visited_edge_ = edge;
  consider_arrivals(edge);
  // Every considered request that is not a ready processor's first waits for its channel at this edge.
  held_channel_waiters_ = considered_count_ - ready_.size();
  stats_.channel_wait_cycles += held_channel_waiters_;

  // The ready processors round-robin, from the one after the last granted: each is granted unless the k*
  // ports are taken (then it and every one after it wait for a port) or its bank schedule collides.
  bool bank_wait = false;
  std::uint64_t in_flight = in_flight_at(edge);
  std::vector<int> bank_waiters;
  const std::size_t ready = ready_.size();
  std::size_t visited = 0;
  int last = -1;
  auto it = ready_.upper_bound(last_granted_);
  for (; visited < ready && in_flight < static_cast<std::uint64_t>(ports_); ++visited) {
    if (it == ready_.end()) it = ready_.begin();
    const int p = *it;
    Request& r = *pending_[static_cast<std::size_t>(p)].front();
    // With one port (k* = 1) no two accesses are ever in flight together: no bank schedule can collide,
    // and none is built (a read of N one-byte words would reserve N (cycle, bank) pairs).
    if (ports_ > 1) bank_schedule(r, edge);
    if (collides(r)) {
      if (!r.waited_bank) ++stats_.bank_conflicts;
      r.waited_bank = true;
      ++stats_.bank_conflict_cycles;
      bank_wait = true;
      bank_waiters.push_back(p);
      ++it;
      continue;
    }
    grant(p, r, edge, in_flight);
    last = p;
    it = ready_.erase(it);  // its channel is now busy: its later requests wait
  }
  // The ports are taken: the ready processors not visited wait for one (each request counted once).
  held_port_waiters_ = ready - visited;
  stats_.port_wait_cycles += held_port_waiters_;
  if (held_port_waiters_ > 0)
    for (auto f = fresh_ready_.begin(); f != fresh_ready_.end();) {
      if (std::find(bank_waiters.begin(), bank_waiters.end(), *f) != bank_waiters.end()) {
        ++f;
        continue;
      }
      pending_[static_cast<std::size_t>(*f)].front()->waited_port = true;
      ++stats_.port_waits;
      f = fresh_ready_.erase(f);
    }
  if (last >= 0) last_granted_ = last;
  stats_.peak_concurrent = std::max(stats_.peak_concurrent, in_flight);
  return bank_wait;
}

void SharedMemory::edge_thread() {
  const std::uint64_t period = cycle_.value();
  for (;;) {
    sc_core::wait(wake_);
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    sc_assert(now % period == 0);
    const std::uint64_t edge = now / period;
    complete_through(edge);
    const bool bank_wait = arbitrate(edge);
    complete_through(edge);  // accesses of zero cycles (tau = 0, no bytes) complete where granted

    // The next edge that can change anything: the first completion (it frees a port, a channel and its
    // banks), the next edge while a request waits for a bank, or a new request's (b_transport notifies).
    std::uint64_t next = 0;
    for (const Request* r : in_flight_)
      if (next == 0 || r->end_edge < next) next = r->end_edge;
    const bool pending = pending_count_ > 0;
    if (pending && (bank_wait || next == 0 || next <= edge)) next = edge + 1;
    if (!pending) held_port_waiters_ = held_channel_waiters_ = 0;
    if (next > edge) wake_.notify(sc_core::sc_time::from_value((next - edge) * period));
  }
}

}  // namespace meshmp
