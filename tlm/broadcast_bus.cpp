// Paper 004's broadcast bus as a TLM-2.0 interconnect. See broadcast_bus.h for the model, the
// arbitration rule and the timing.
#include "tlm/broadcast_bus.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace meshmp {

namespace {

constexpr const char* kReportId = "/meshmp/BroadcastBus";

std::string status_name(tlm::tlm_response_status status) {
  tlm::tlm_generic_payload probe;
  probe.set_response_status(status);
  return probe.get_response_string();
}

}  // namespace

BroadcastBus::BroadcastBus(sc_core::sc_module_name name, int nodes, int concurrent_transfers,
                           FabricTiming timing, sc_core::sc_time cycle)
    : sc_core::sc_module(name),
      nodes_in("nodes_in"),
      nodes_out("nodes_out"),
      nodes_(nodes),
      concurrent_transfers_(concurrent_transfers),
      timing_(timing),
      cycle_(cycle),
      cycle_ticks_(cycle.value()),
      last_granted_(nodes - 1),
      free_slots_(concurrent_transfers) {
  const std::string who = std::string("BroadcastBus ") + this->name() + ": ";
  if (nodes < 1) throw std::invalid_argument(who + "needs at least 1 node, got " + std::to_string(nodes));
  if (concurrent_transfers < 1)
    throw std::invalid_argument(who + "needs at least 1 concurrent transfer (k*), got " +
                                std::to_string(concurrent_transfers));
  if (timing.bytes_per_cycle < 1) throw std::invalid_argument(who + "needs bytes_per_cycle >= 1, got 0");
  if (cycle_ticks_ == 0) throw std::invalid_argument(who + "needs a cycle longer than zero");
  queues_.resize(static_cast<std::size_t>(nodes));
  statistics_.node_wait_cycles.assign(static_cast<std::size_t>(nodes), 0);
  nodes_in.register_b_transport(this, &BroadcastBus::b_transport);
  nodes_in.register_get_direct_mem_ptr(this, &BroadcastBus::get_direct_mem_ptr);
  nodes_in.register_transport_dbg(this, &BroadcastBus::transport_dbg);
  nodes_out.register_invalidate_direct_mem_ptr(this, &BroadcastBus::invalidate_direct_mem_ptr);
  SC_THREAD(arbiter);
}

void BroadcastBus::end_of_elaboration() {
  // (A socket with no binding at all is already an error of SystemC's: "port not bound".)
  const unsigned bound_in = nodes_in.size();
  const unsigned bound_out = nodes_out.size();
  const unsigned want = static_cast<unsigned>(nodes_);
  if (bound_in != want || bound_out != want) {
    const std::string message = std::string(name()) + ": a bus of " + std::to_string(nodes_) +
                                " nodes needs nodes_in and nodes_out each bound once per node, in node "
                                "order; nodes_in has " + std::to_string(bound_in) + " binding(s), nodes_out " +
                                std::to_string(bound_out);
    SC_REPORT_ERROR(kReportId, message.c_str());
  }
}

std::uint64_t BroadcastBus::current_cycle() const { return sc_core::sc_time_stamp().value() / cycle_ticks_; }

void BroadcastBus::refuse(tlm::tlm_generic_payload& trans, MessageTransfer* ext, tlm::tlm_response_status status,
                          const std::string& why) {
  ++statistics_.refused;
  if (ext) ext->error = why;
  trans.set_response_status(status);
}

void BroadcastBus::b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  trans.set_dmi_allowed(false);

  MessageTransfer* ext = trans.get_extension<MessageTransfer>();
  const std::string via = "through node " + std::to_string(id) + "'s binding: ";
  const unsigned length = trans.get_data_length();
  if (!trans.is_write())
    return refuse(trans, ext, tlm::TLM_COMMAND_ERROR_RESPONSE, via + "the bus only carries TLM_WRITE_COMMAND");
  if (trans.get_byte_enable_ptr() || trans.get_byte_enable_length() != 0)
    return refuse(trans, ext, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, via + "byte enables are not supported");
  if (length > 0 && trans.get_streaming_width() < length)
    return refuse(trans, ext, tlm::TLM_BURST_ERROR_RESPONSE,
                  via + "streaming width " + std::to_string(trans.get_streaming_width()) +
                      " is less than the length " + std::to_string(length));
  if (!ext) return refuse(trans, nullptr, tlm::TLM_GENERIC_ERROR_RESPONSE, "");
  if (ext->source != id)
    return refuse(trans, ext, tlm::TLM_GENERIC_ERROR_RESPONSE,
                  via + "the extension names source " + std::to_string(ext->source));
  if (ext->destinations.empty())
    return refuse(trans, ext, tlm::TLM_GENERIC_ERROR_RESPONSE, via + "no destination");
  std::vector<int> destinations = ext->destinations;
  std::sort(destinations.begin(), destinations.end());
  if (destinations.front() < 0 || destinations.back() >= nodes_) {
    const int bad = destinations.front() < 0 ? destinations.front() : destinations.back();
    return refuse(trans, ext, tlm::TLM_ADDRESS_ERROR_RESPONSE,
                  via + "destination " + std::to_string(bad) + " is not a node (0.." + std::to_string(nodes_ - 1) +
                      ")");
  }
  if (auto twice = std::adjacent_find(destinations.begin(), destinations.end()); twice != destinations.end())
    return refuse(trans, ext, tlm::TLM_GENERIC_ERROR_RESPONSE,
                  via + "destination " + std::to_string(*twice) + " is listed twice");
  if (length > 0 && !trans.get_data_ptr())
    return refuse(trans, ext, tlm::TLM_GENERIC_ERROR_RESPONSE, via + "no data pointer");
  ext->error.clear();

  Request request;
  request.source = id;
  request.considered_edge = current_cycle() + 1;
  request.cycles = timing_.transfer_cycles(length);
  request.bytes = length;
  request.broadcast = destinations.size() > 1;
  arrivals_.push_back(&request);
  wake_.notify(sc_core::SC_ZERO_TIME);
  sc_core::wait(request.done);  // notified at the grant, for its end: (g + n) * cycle

  deliver(trans, *ext, destinations);
  released_.push_back(current_cycle() + 1);
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void BroadcastBus::deliver(tlm::tlm_generic_payload& trans, MessageTransfer& ext,
                           const std::vector<int>& destinations) {
  tlm::tlm_response_status first_error = tlm::TLM_OK_RESPONSE;
  std::string why;
  sc_core::sc_time longest = sc_core::SC_ZERO_TIME;
  for (const int d : destinations) {
    ext.error.clear();
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time receiver_delay = sc_core::SC_ZERO_TIME;
    nodes_out[d]->b_transport(trans, receiver_delay);
    longest = std::max(longest, receiver_delay);
    const tlm::tlm_response_status status = trans.get_response_status();
    if (status != tlm::TLM_OK_RESPONSE && first_error == tlm::TLM_OK_RESPONSE) {
      first_error = status == tlm::TLM_INCOMPLETE_RESPONSE ? tlm::TLM_GENERIC_ERROR_RESPONSE : status;
      why = "node " + std::to_string(d) + " answered " + status_name(status) +
            (ext.error.empty() ? std::string() : ": " + ext.error);
    }
  }
  if (longest > sc_core::SC_ZERO_TIME) sc_core::wait(longest);
  ext.error = why;
  trans.set_response_status(first_error);
  trans.set_dmi_allowed(false);
}

void BroadcastBus::arbiter() {
  for (;;) {
    if (arrivals_.empty() && ready_.empty()) {
      sc_core::wait(wake_);
      continue;
    }
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    std::uint64_t edge = std::max(last_arbitrated_edge_ + 1, (now + cycle_ticks_ - 1) / cycle_ticks_);
    if (ready_.empty()) edge = std::max(edge, arrivals_.front()->considered_edge);
    if (free_slots_ == 0) {
      if (released_.empty()) {  // all k* slots held: nothing to decide before a release
        sc_core::wait(wake_);
        continue;
      }
      edge = std::max(edge, released_.front());
    }
    const std::uint64_t at = edge * cycle_ticks_;
    if (at > now) {
      sc_core::wait(sc_core::sc_time::from_value(at - now), wake_);
      continue;  // woken early by a request or a release, or at the edge: decide again
    }
    arbitrate(edge);
  }
}

void BroadcastBus::arbitrate(std::uint64_t edge) {
  last_arbitrated_edge_ = edge;
  while (!released_.empty() && released_.front() <= edge) {
    released_.pop_front();
    ++free_slots_;
  }
  while (!arrivals_.empty() && arrivals_.front()->considered_edge <= edge) {
    Request* request = arrivals_.front();
    arrivals_.pop_front();
    queues_[static_cast<std::size_t>(request->source)].push_back(request);
    ready_.insert(request->source);
  }
  while (free_slots_ > 0 && !ready_.empty()) {
    auto next = ready_.upper_bound(last_granted_);
    if (next == ready_.end()) next = ready_.begin();
    const int node = *next;
    auto& queue = queues_[static_cast<std::size_t>(node)];
    Request* request = queue.front();
    queue.pop_front();
    if (queue.empty()) ready_.erase(next);
    last_granted_ = node;
    --free_slots_;

    const std::uint64_t waited = edge - request->considered_edge;
    statistics_.wait_cycles += waited;
    statistics_.node_wait_cycles[static_cast<std::size_t>(node)] += waited;
    ++statistics_.transfers;
    statistics_.bytes += request->bytes;
    if (request->broadcast) ++statistics_.broadcasts;
    const std::uint64_t end = edge + request->cycles;  // holds cycles edge .. end-1
    while (!holding_.empty() && holding_.top() <= edge) holding_.pop();
    if (request->cycles > 0) {
      holding_.push(end);
      statistics_.peak_concurrent_transfers =
          std::max<std::uint64_t>(statistics_.peak_concurrent_transfers, holding_.size());
      if (end > busy_until_edge_) {
        statistics_.busy_cycles += end - std::max(edge, busy_until_edge_);
        busy_until_edge_ = end;
      }
    }
    request->done.notify(sc_core::sc_time::from_value(request->cycles * cycle_ticks_));
  }
}

bool BroadcastBus::get_direct_mem_ptr(int, tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.allow_none();
  return false;
}

unsigned int BroadcastBus::transport_dbg(int, tlm::tlm_generic_payload&) { return 0; }

void BroadcastBus::invalidate_direct_mem_ptr(int, sc_dt::uint64, sc_dt::uint64) {}

}  // namespace meshmp
