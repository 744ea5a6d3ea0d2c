// A node's processor running firmware against the DMA engine. See processor.h.
#include "hw/node/processor.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "hw/router/flit.h"
#include "hw/base/progress_poll.h"
#include "hw/base/stop_request.h"
#include "tlm/dma_registers.h"
#include "tlm/transport.h"

namespace meshmp {

Processor::Processor(sc_core::sc_module_name name, int node, const Topology& topology, const Workload& workload,
                     const ProcessorParams& params, const TransferTiming& timing, sc_core::sc_time clock_period,
                     HardwareBarrier& barrier, StepStatistics& step_statistics, ProcessorActivity& activity,
                     const sc_core::sc_event& completion_irq, std::function<std::string()> dma_error_text,
                     std::function<std::string(Handle)> describe_descriptor, Firmware firmware,
                     const AlgorithmOptions& options, std::function<void()> on_finish)
    : sc_core::sc_module(name),
      dma_port("dma_port"),
      memory_port("memory_port"),
      node_(node),
      topology_(topology),
      workload_(workload),
      params_(params),
      timing_(timing),
      period_(clock_period),
      barrier_(barrier),
      step_statistics_(step_statistics),
      activity_(activity),
      completion_irq_(completion_irq),
      firmware_(std::move(firmware)),
      options_(options),
      on_finish_(std::move(on_finish)),
      dma_error_text_(std::move(dma_error_text)),
      describe_descriptor_(std::move(describe_descriptor)) {
  dma_port.register_invalidate_direct_mem_ptr(this, &Processor::invalidate_direct_registers);
  SC_THREAD(run);
}

void Processor::run() {
  try {
    firmware_(*this);
    wait_all();
    finished_ = true;
  } catch (const FirmwareError& e) {
    error_ = "node " + std::to_string(node_) + " firmware: " + e.what();
  }
  finish_cycle_ = now_cycles();
  end_step();
  blocked_ = Blocked::No;
  on_finish_();
  // The processor halts rather than ending its thread: SystemC takes an ended thread out of its process
  // table by a linear search, quadratic over the nodes of a machine (2 s of the 17 s a 32,768-node run
  // whose nodes have almost nothing to send spends simulating).
  sc_core::wait(halted_);
}

std::uint64_t Processor::now_cycles() const {
  return static_cast<std::uint64_t>(sc_core::sc_time_stamp() / period_);
}

void Processor::wait_cycles(std::uint64_t cycles) {
  if (cycles > 0) sc_core::wait(period_ * static_cast<double>(cycles));
}

void Processor::register_access(tlm::tlm_command command, std::uint64_t address, unsigned char* data,
                                unsigned length) {
  if (transport(dma_port, command, address, data, length) != tlm::TLM_OK_RESPONSE)
    throw FirmwareError(dma_error_text_());
}

namespace {
std::uint32_t read_word(const unsigned char* bytes) {
  std::uint32_t value;
  std::memcpy(&value, bytes, 4);
  return value;
}
}  // namespace

void Processor::write_register(std::uint64_t address, std::uint32_t value) {
  unsigned char bytes[4];
  std::memcpy(bytes, &value, 4);
  if (unsigned char* word = direct_register(address, true)) std::memcpy(word, bytes, 4);
  else register_access(tlm::TLM_WRITE_COMMAND, address, bytes, 4);
}

std::uint32_t Processor::read_register(std::uint64_t address) {
  unsigned char bytes[4];
  if (const unsigned char* word = direct_register(address, false)) std::memcpy(bytes, word, 4);
  else register_access(tlm::TLM_READ_COMMAND, address, bytes, 4);
  return read_word(bytes);
}

unsigned char* Processor::direct_register(std::uint64_t address, bool write) {
  DirectRegister* r = address == dma::kDescriptorId  ? &descriptor_id_register_
                      : address == dma::kCompleted   ? &completed_register_
                      : address == dma::kStepMark    ? &step_mark_register_
                      : address == dma::kIrqThreshold ? &irq_threshold_register_
                                                     : nullptr;
  if (!r) return nullptr;
  if (!r->asked) {
    r->asked = true;
    tlm::tlm_generic_payload request;
    request.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    request.set_address(address);
    tlm::tlm_dmi dmi;
    if (dma_port->get_direct_mem_ptr(request, dmi) && dmi.get_start_address() <= address &&
        dmi.get_end_address() >= address + 3 && dmi.is_read_allowed()) {
      r->word = dmi.get_dmi_ptr() + (address - dmi.get_start_address());
      r->writable = dmi.is_write_allowed();
    }
  }
  return write && !r->writable ? nullptr : r->word;
}

void Processor::invalidate_direct_registers(sc_dt::uint64, sc_dt::uint64) {
  descriptor_id_register_ = completed_register_ = step_mark_register_ = irq_threshold_register_ = DirectRegister{};
  done_table_ = DirectTable{};
}

bool Processor::descriptor_done(Handle handle) {
  if (!done_table_.asked) {
    done_table_.asked = true;
    tlm::tlm_generic_payload request;
    request.set_command(tlm::TLM_READ_COMMAND);
    request.set_address(dma::kDoneTable);
    tlm::tlm_dmi dmi;
    if (dma_port->get_direct_mem_ptr(request, dmi) && dmi.get_start_address() == dma::kDoneTable &&
        dmi.is_read_allowed() && dmi.get_end_address() > dma::kDoneTable) {
      done_table_.words = dmi.get_dmi_ptr();
      done_table_.descriptors = (dmi.get_end_address() + 1 - dma::kDoneTable) / 4 * 32;
    }
  }
  // A handle this processor was not given (never issued, or negative) is asked by QUERY, whose STATUS says so.
  const auto h = static_cast<std::uint64_t>(handle);
  if (done_table_.words && handle >= 0 && handle < next_handle_ && h < done_table_.descriptors) {
    std::uint32_t word;
    std::memcpy(&word, done_table_.words + 4 * (h / 32), 4);
    return (word >> (h % 32) & 1u) != 0;
  }
  write_register(dma::kQuery, static_cast<std::uint32_t>(handle));
  return read_register(dma::kStatus) == dma::kStatusDone;
}

Handle Processor::issue(std::uint32_t command, std::uint32_t peer, std::uint32_t address, std::uint32_t length,
                        std::uint32_t tag, const std::vector<int>& route, std::uint32_t global_address,
                        GlobalPieces pieces) {
  if (route.size() > static_cast<std::size_t>(kMaxRouteHops))
    throw FirmwareError("a source route of " + std::to_string(route.size()) + " hops exceeds " +
                        std::to_string(kMaxRouteHops));
  if (timing_.fabric && !route.empty())
    throw FirmwareError("a source route of " + std::to_string(route.size()) + " hops to node " + std::to_string(peer) +
                        ": this machine (" + topology_.spec() + ") has no router network");
  if (timing_.operations.global_memory) {
    // GLOBAL_ADDRESS, GLOBAL_PIECE and GLOBAL_STRIDE in one burst.
    static_assert(dma::kGlobalPiece == dma::kGlobalAddress + 4 && dma::kGlobalStride == dma::kGlobalAddress + 8);
    const std::uint32_t global[3] = {global_address, pieces.piece_bytes, pieces.stride_bytes};
    unsigned char bytes[sizeof global];
    std::memcpy(bytes, global, sizeof global);
    register_access(tlm::TLM_WRITE_COMMAND, dma::kGlobalAddress, bytes, sizeof bytes);
  }
  if (!route.empty()) {
    std::vector<unsigned char> ports;
    for (int p : route) ports.push_back(static_cast<unsigned char>(p < 0 || p > 254 ? 255 : p));
    register_access(tlm::TLM_WRITE_COMMAND, dma::kRoute, ports.data(), static_cast<unsigned>(ports.size()));
  }
  // The descriptor in one burst, PEER to COMMAND: its last word starts it.
  static_assert(dma::kCommand == dma::kPeer + 6 * 4 && dma::kRouteLength == dma::kPeer + 5 * 4);
  const std::uint32_t descriptor[7] = {peer, address, length, tag, dma::kAutoChannel,
                                       static_cast<std::uint32_t>(route.size()), command};
  unsigned char bytes[sizeof descriptor];
  std::memcpy(bytes, descriptor, sizeof descriptor);
  register_access(tlm::TLM_WRITE_COMMAND, dma::kPeer, bytes, sizeof bytes);
  Handle h = static_cast<Handle>(read_register(dma::kDescriptorId));
  next_handle_ = h + 1;
  return h;
}

Handle Processor::start_transfer(std::uint32_t command, std::uint32_t peer, int model_peer, std::uint32_t address,
                                 std::uint32_t length, std::uint32_t tag, const std::vector<int>& route,
                                 std::uint32_t global_address, GlobalPieces pieces) {
  poll_host_requests();
  if (!params_.startup_on_channel) wait_cycles(params_.startup_cycles);
  activity_.sending(node_, model_peer, length, route);
  Handle h = issue(command, peer, address, length, tag, route, global_address, pieces);
  activity_.issued(node_, h);
  ++startups_;
  (command == dma::kCommandSharedRead ? dma_written_bytes_ : dma_read_bytes_) += length;
  step_count_.messages += 1;
  step_count_.bytes += length;
  step_count_.largest_message_bytes = std::max<std::uint64_t>(step_count_.largest_message_bytes, length);
  return h;
}

Handle Processor::send(int peer, std::uint32_t address, std::uint32_t length, std::uint32_t tag,
                       const std::vector<int>& route) {
  if (peer < 0) throw FirmwareError("peer " + std::to_string(peer) + " is not a node");
  return start_transfer(dma::kCommandSend, static_cast<std::uint32_t>(peer), peer, address, length, tag, route);
}

Handle Processor::broadcast(std::uint32_t address, std::uint32_t length, std::uint32_t tag) {
  if (!timing_.operations.broadcast)
    throw FirmwareError("broadcast of " + std::to_string(length) + " bytes: this machine (" + topology_.spec() +
                        ") has no hardware broadcast (" + timing_.broadcast_machines + " has)");
  return start_transfer(dma::kCommandSend, dma::kPeerAllOthers, node_, address, length, tag, {});
}

Handle Processor::shared_write(std::uint32_t global_address, std::uint32_t local_address, std::uint32_t length,
                               GlobalPieces pieces) {
  if (!timing_.operations.global_memory)
    throw FirmwareError("shared_write of " + std::to_string(length) + " bytes: this machine (" + topology_.spec() +
                        ") has no global memory (" + timing_.global_memory_machines + " has)");
  return start_transfer(dma::kCommandSharedWrite, 0, node_, local_address, length, 0, {}, global_address, pieces);
}

Handle Processor::shared_read(std::uint32_t local_address, std::uint32_t global_address, std::uint32_t length,
                              GlobalPieces pieces) {
  if (!timing_.operations.global_memory)
    throw FirmwareError("shared_read of " + std::to_string(length) + " bytes: this machine (" + topology_.spec() +
                        ") has no global memory (" + timing_.global_memory_machines + " has)");
  return start_transfer(dma::kCommandSharedRead, 0, node_, local_address, length, 0, {}, global_address, pieces);
}

Handle Processor::receive(int peer, std::uint32_t address, std::uint32_t length, std::uint32_t tag) {
  if (peer < 0) throw FirmwareError("peer " + std::to_string(peer) + " is not a node");
  dma_written_bytes_ += length;
  return issue(dma::kCommandReceive, static_cast<std::uint32_t>(peer), address, length, tag, {});
}

void Processor::poll_host_requests() {
  // SIGINT / SIGTERM: the router network's clock ends the run at its next edge; the bus, the shared
  // memory and the switch have no clock, so the processors end it, at a transfer or a completion. A
  // progress line due is printed here too (hw/base/progress_poll.h).
  if (stop_signal() != 0) sc_core::sc_stop();
  poll_progress();
}

void Processor::wait(Handle handle) {
  while (!descriptor_done(handle)) {
    blocked_ = Blocked::OnDescriptor;
    blocked_handle_ = handle;
    sc_core::wait(completion_irq_);
    poll_host_requests();
  }
  blocked_ = Blocked::No;
  activity_.completed(node_, handle);
}

bool Processor::test(Handle handle) { return descriptor_done(handle); }

std::size_t Processor::wait_any(const std::vector<Handle>& handles) {
  if (handles.empty()) throw FirmwareError("wait_any on no descriptors");
  for (;;) {
    for (std::size_t i = 0; i < handles.size(); ++i)
      if (test(handles[i])) {
        wait(handles[i]);  // bookkeeping and the activity hook, without waiting
        return i;
      }
    blocked_ = Blocked::OnDescriptor;
    blocked_handle_ = handles.front();
    sc_core::wait(completion_irq_);
    poll_host_requests();
    blocked_ = Blocked::No;
  }
}

ExchangeParameters Processor::cost_parameters() const {
  ExchangeParameters p;
  p.block_bytes = workload_.unit_bytes();
  p.startup_cycles = params_.startup_cycles;
  p.flit_bytes = timing_.router.flit_bytes;
  p.copy_cycles_per_byte = params_.copy_cycles_per_byte;
  p.all_port = all_port();
  p.max_packet_payload_flits = timing_.router.max_packet_payload_flits;
  if (timing_.fabric) {  // as exchange_parameters() gives them for the machine's configuration
    p.startup_cycles = params_.startup_cycles + 1 + timing_.fabric->startup_cycles;
    p.flit_bytes = static_cast<int>(timing_.fabric->bytes_per_cycle);
    p.concurrent_transfers = timing_.concurrent_transfers;
  }
  return p;
}

const ExchangeLayout& Processor::layout() const {
  if (const ExchangeLayout* blocks = workload_.block_layout()) return *blocks;
  throw FirmwareError("the algorithm reads the block layout of an exchange, but the run's workload is " + workload_.name());
}

void Processor::wait_all() {
  // Every descriptor issued is done when COMPLETED counts them all (one register read per wake-up
  // instead of a QUERY and a STATUS per descriptor); then each is accounted for in issue order.
  // While it waits the engine raises the interrupt only when the last completes (IRQ_THRESHOLD).
  if (first_outstanding_ < next_handle_ && read_register(dma::kCompleted) != static_cast<std::uint32_t>(next_handle_)) {
    write_register(dma::kIrqThreshold, static_cast<std::uint32_t>(next_handle_));
    do {
      blocked_ = Blocked::OnAllIssued;
      sc_core::wait(completion_irq_);
      poll_host_requests();
    } while (read_register(dma::kCompleted) != static_cast<std::uint32_t>(next_handle_));
    write_register(dma::kIrqThreshold, 0);
    blocked_ = Blocked::No;
  }
  activity_.completed_all(node_, first_outstanding_, next_handle_);
  first_outstanding_ = next_handle_;
}

void Processor::local_copies(const std::vector<LocalCopy>& copies) {
  const std::uint64_t total = copy_in_memory(copies);
  if (total == 0) return;
  spend_copy_cycles(copy_cycles(total));
}

void Processor::local_copy_each(const std::vector<LocalCopy>& copies) {
  if (copy_in_memory(copies) == 0) return;
  std::uint64_t cycles = 0;
  for (const LocalCopy& c : copies) cycles += copy_cycles(std::uint64_t{c.length} * c.count);
  spend_copy_cycles(cycles);
}

std::uint64_t Processor::copy_in_memory(const std::vector<LocalCopy>& copies) {
  const std::uint64_t memory_bytes = workload_.memory_bytes();
  std::uint64_t total = 0;
  for (std::size_t k = 0; k < copies.size(); ++k) {
    const LocalCopy& c = copies[k];
    if (c.count == 0 || c.length == 0) continue;
    const std::uint64_t last = c.count - 1ull;
    const std::uint64_t from = c.from + last * c.from_stride, to = c.to + last * c.to_stride;
    if (from + c.length > memory_bytes || to + c.length > memory_bytes)
      throw FirmwareError("local copy of " + std::to_string(c.length) + " bytes from " + std::to_string(from) + " to " +
                          std::to_string(to) +
                          (copies.size() > 1 || c.count > 1
                               ? " (piece " + std::to_string(last) + " of copy " + std::to_string(k) + ")"
                               : std::string()) +
                          " leaves the local memory of " + std::to_string(memory_bytes) + " bytes");
    total += std::uint64_t{c.length} * c.count;
  }
  if (total == 0) return 0;
  unsigned char* memory = direct_memory();
  for (const LocalCopy& c : copies)
    for (std::uint64_t i = 0; i < c.count; ++i)
      std::memmove(memory + c.to + i * c.to_stride, memory + c.from + i * c.from_stride, c.length);
  copied_bytes_ += total;
  return total;
}

std::uint64_t Processor::copy_cycles(std::uint64_t bytes) const {
  return static_cast<std::uint64_t>(std::ceil(params_.copy_cycles_per_byte * static_cast<double>(bytes)));
}

void Processor::spend_copy_cycles(std::uint64_t cycles) {
  activity_.local_work(node_, cycles);
  wait_cycles(cycles);
}

unsigned char* Processor::direct_memory() {
  if (memory_) return memory_;
  tlm::tlm_generic_payload request;
  request.set_command(tlm::TLM_READ_COMMAND);
  request.set_address(0);
  tlm::tlm_dmi dmi;
  if (!memory_port->get_direct_mem_ptr(request, dmi) || !dmi.is_read_write_allowed() || dmi.get_start_address() != 0 ||
      dmi.get_end_address() + 1 < workload_.memory_bytes())
    throw FirmwareError("local copy: the local memory refused direct access");
  memory_ = dmi.get_dmi_ptr();
  return memory_;
}

void Processor::compute(std::uint64_t cycles) {
  activity_.local_work(node_, cycles);
  wait_cycles(cycles);
}

void Processor::end_step() {
  step_statistics_.record(node_, current_step_, step_count_, step_begin_cycle_, activity_.close_step(node_));
  step_count_ = StepCount{};
}

void Processor::hardware_barrier() {
  // Zero-load model: every node arrives as its step's slowest would, and all leave `latency` later.
  const auto latency = static_cast<std::uint64_t>(barrier_.latency() / period_);
  activity_.local_work(node_, latency);
  step_count_.barrier_cycles += latency;
  blocked_ = Blocked::OnBarrier;
  barrier_.arrive_and_wait();
  blocked_ = Blocked::No;
}

std::string Processor::waiting_for() {
  if (blocked_ == Blocked::OnBarrier) return "hardware barrier";
  if (blocked_ == Blocked::No) return "";
  if (blocked_ == Blocked::OnAllIssued)  // the first of them not done
    for (Handle h = first_outstanding_; h < next_handle_; ++h) {
      unsigned char query[4], status[4];
      const auto id = static_cast<std::uint32_t>(h);
      std::memcpy(query, &id, 4);
      if (transport(dma_port, tlm::TLM_WRITE_COMMAND, dma::kQuery, query, 4) != tlm::TLM_OK_RESPONSE ||
          transport(dma_port, tlm::TLM_READ_COMMAND, dma::kStatus, status, 4) != tlm::TLM_OK_RESPONSE ||
          read_word(status) != dma::kStatusDone)
        return describe_descriptor_(h);
    }
  return describe_descriptor_(blocked_handle_);
}

void Processor::begin_step(int step) {
  if (step < 0) throw FirmwareError("step " + std::to_string(step) + " is negative");
  end_step();
  current_step_ = step;
  step_begin_cycle_ = now_cycles();
  activity_.begin_step(node_, step);
  write_register(dma::kStepMark, static_cast<std::uint32_t>(step));
}

}  // namespace meshmp
