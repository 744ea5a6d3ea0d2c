// A node's processor running firmware against the DMA engine. See processor.h.
#include "hw/processor.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "hw/flit.h"
#include "hw/stop_request.h"
#include "hw/zero_load_model.h"
#include "tlm/dma_registers.h"
#include "tlm/transport.h"

namespace meshmp {

Processor::Processor(sc_core::sc_module_name name, int node, const Topology& topology, const Workload& workload,
                     const ProcessorParams& params, const TransferTiming& timing, sc_core::sc_time clock_period,
                     HardwareBarrier& barrier, StepStatistics& step_statistics,
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
      completion_irq_(completion_irq),
      firmware_(std::move(firmware)),
      options_(options),
      on_finish_(std::move(on_finish)),
      dma_error_text_(std::move(dma_error_text)),
      describe_descriptor_(std::move(describe_descriptor)),
      model_channel_free_(timing.port_model == PortModel::AllPort && !timing.fabric ? topology.num_ports() : 1, 0) {
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

void Processor::write_register(std::uint64_t address, std::uint32_t value) {
  unsigned char bytes[4];
  std::memcpy(bytes, &value, 4);
  register_access(tlm::TLM_WRITE_COMMAND, address, bytes, 4);
}

std::uint32_t Processor::read_register(std::uint64_t address) {
  unsigned char bytes[4];
  register_access(tlm::TLM_READ_COMMAND, address, bytes, 4);
  std::uint32_t value;
  std::memcpy(&value, bytes, 4);
  return value;
}

Handle Processor::issue(std::uint32_t command, std::uint32_t peer, std::uint32_t address, std::uint32_t length,
                        std::uint32_t tag, const std::vector<int>& route, std::uint32_t global_address) {
  if (route.size() > static_cast<std::size_t>(kMaxRouteHops))
    throw FirmwareError("a source route of " + std::to_string(route.size()) + " hops exceeds " +
                        std::to_string(kMaxRouteHops));
  if (timing_.fabric && !route.empty())
    throw FirmwareError("a source route of " + std::to_string(route.size()) + " hops to node " + std::to_string(peer) +
                        ": this machine (" + topology_.spec() + ") has no router network");
  write_register(dma::kPeer, peer);
  write_register(dma::kLocalAddress, address);
  write_register(dma::kLength, length);
  write_register(dma::kTag, tag);
  if (topology_.fabric() == Fabric::SharedMemory) write_register(dma::kGlobalAddress, global_address);
  if (!timing_.fabric) {
    write_register(dma::kChannel, dma::kAutoChannel);
    write_register(dma::kRouteLength, static_cast<std::uint32_t>(route.size()));
  }
  if (!route.empty()) {
    std::vector<unsigned char> ports;
    for (int p : route) ports.push_back(static_cast<unsigned char>(p < 0 || p > 254 ? 255 : p));
    register_access(tlm::TLM_WRITE_COMMAND, dma::kRoute, ports.data(), static_cast<unsigned>(ports.size()));
  }
  write_register(dma::kCommand, command);
  Handle h = static_cast<Handle>(read_register(dma::kDescriptorId));
  next_handle_ = h + 1;
  return h;
}

Handle Processor::start_transfer(std::uint32_t command, std::uint32_t peer, int model_peer, std::uint32_t address,
                                 std::uint32_t length, std::uint32_t tag, const std::vector<int>& route,
                                 std::uint32_t global_address) {
  stop_if_requested();
  if (!params_.startup_on_channel) wait_cycles(params_.startup_cycles);
  std::uint64_t arrival = 0;
  const std::uint64_t injected = model_send(model_peer, length, route, arrival);
  if (!timing_.fabric)  // the router network's engine carries the model's arrival to the receiver
    write_register(dma::kModelArrival,
                   static_cast<std::uint32_t>(std::min<std::uint64_t>(arrival, dma::kNoModelArrival - 1)));
  Handle h = issue(command, peer, address, length, tag, route, global_address);
  ++startups_;
  step_count_.messages += 1;
  step_count_.bytes += length;
  step_count_.largest_message_bytes = std::max<std::uint64_t>(step_count_.largest_message_bytes, length);
  model_send_handles_.push_back(h);
  model_send_done_.push_back(injected);
  model_send_step_.push_back(current_step_);
  return h;
}

Handle Processor::send(int peer, std::uint32_t address, std::uint32_t length, std::uint32_t tag,
                       const std::vector<int>& route) {
  if (peer < 0) throw FirmwareError("peer " + std::to_string(peer) + " is not a node");
  return start_transfer(dma::kCommandSend, static_cast<std::uint32_t>(peer), peer, address, length, tag, route);
}

Handle Processor::broadcast(std::uint32_t address, std::uint32_t length, std::uint32_t tag) {
  if (topology_.fabric() != Fabric::Bus)
    throw FirmwareError("broadcast of " + std::to_string(length) + " bytes: this machine (" + topology_.spec() +
                        ") has no hardware broadcast (the broadcast bus, bus:K, has)");
  return start_transfer(dma::kCommandSend, dma::kPeerAllOthers, node_, address, length, tag, {});
}

Handle Processor::shared_write(std::uint32_t global_address, std::uint32_t local_address, std::uint32_t length) {
  if (topology_.fabric() != Fabric::SharedMemory)
    throw FirmwareError("shared_write of " + std::to_string(length) + " bytes: this machine (" + topology_.spec() +
                        ") has no global memory (the shared-memory machine, shared-memory:K, has)");
  return start_transfer(dma::kCommandSharedWrite, 0, node_, local_address, length, 0, {}, global_address);
}

Handle Processor::shared_read(std::uint32_t local_address, std::uint32_t global_address, std::uint32_t length) {
  if (topology_.fabric() != Fabric::SharedMemory)
    throw FirmwareError("shared_read of " + std::to_string(length) + " bytes: this machine (" + topology_.spec() +
                        ") has no global memory (the shared-memory machine, shared-memory:K, has)");
  return start_transfer(dma::kCommandSharedRead, 0, node_, local_address, length, 0, {}, global_address);
}

Handle Processor::receive(int peer, std::uint32_t address, std::uint32_t length, std::uint32_t tag) {
  if (peer < 0) throw FirmwareError("peer " + std::to_string(peer) + " is not a node");
  return issue(dma::kCommandReceive, static_cast<std::uint32_t>(peer), address, length, tag, {});
}

void Processor::stop_if_requested() {
  // SIGINT / SIGTERM: the router network's clock ends the run at its next edge; the bus, the shared
  // memory and the switch have no clock, so the processors end it, at a transfer or a completion.
  if (stop_signal() != 0) sc_core::sc_stop();
}

void Processor::wait(Handle handle) {
  write_register(dma::kQuery, static_cast<std::uint32_t>(handle));
  while (read_register(dma::kStatus) != dma::kStatusDone) {
    blocked_ = Blocked::OnDescriptor;
    blocked_handle_ = handle;
    sc_core::wait(completion_irq_);
    stop_if_requested();
  }
  blocked_ = Blocked::No;
  // Zero-load model: a send completes when it has been injected; a receive when its message arrives, as
  // its sender's model said; without that (a message of an earlier step), when this node's own messages
  // so far have arrived (right for the symmetric exchanges, where a partner sends what it is sent).
  const auto send = std::lower_bound(model_send_handles_.begin(), model_send_handles_.end(), handle);
  if (send != model_send_handles_.end() && *send == handle) {
    // Counted from its own step's start: a send of an earlier step was charged to that step.
    const auto index = static_cast<std::size_t>(send - model_send_handles_.begin());
    if (model_send_step_[index] == current_step_) model_cursor_ = std::max(model_cursor_, model_send_done_[index]);
    return;
  }
  const std::uint32_t arrival = read_register(dma::kModelArrival);
  model_cursor_ = std::max<std::uint64_t>(model_cursor_, arrival == dma::kNoModelArrival ? model_last_arrival_ : arrival);
}

bool Processor::test(Handle handle) {
  write_register(dma::kQuery, static_cast<std::uint32_t>(handle));
  return read_register(dma::kStatus) == dma::kStatusDone;
}

std::size_t Processor::wait_any(const std::vector<Handle>& handles) {
  if (handles.empty()) throw FirmwareError("wait_any on no descriptors");
  for (;;) {
    for (std::size_t i = 0; i < handles.size(); ++i)
      if (test(handles[i])) {
        wait(handles[i]);  // bookkeeping and the zero-load model, without waiting
        return i;
      }
    blocked_ = Blocked::OnDescriptor;
    blocked_handle_ = handles.front();
    sc_core::wait(completion_irq_);
    stop_if_requested();
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
  for (Handle h = first_outstanding_; h < next_handle_; ++h) wait(h);
  first_outstanding_ = next_handle_;
  model_send_handles_.clear();
  model_send_done_.clear();
  model_send_step_.clear();
}

void Processor::local_copies(const std::vector<LocalCopy>& copies) {
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
  if (total == 0) return;
  unsigned char* memory = direct_memory();
  for (const LocalCopy& c : copies)
    for (std::uint64_t i = 0; i < c.count; ++i)
      std::memmove(memory + c.to + i * c.to_stride, memory + c.from + i * c.from_stride, c.length);
  copied_bytes_ += total;
  const auto copy_cycles = static_cast<std::uint64_t>(std::ceil(params_.copy_cycles_per_byte * static_cast<double>(total)));
  model_cursor_ += copy_cycles;
  wait_cycles(copy_cycles);
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
  model_cursor_ += cycles;
  wait_cycles(cycles);
}

std::uint64_t Processor::model_send(int peer, std::uint32_t length, const std::vector<int>& route,
                                    std::uint64_t& arrival) {
  if (!params_.startup_on_channel) model_cursor_ += params_.startup_cycles;
  if (timing_.fabric) {
    const std::uint64_t start = std::max(model_cursor_, model_channel_free_[0]) + 1 +
                                (params_.startup_on_channel ? params_.startup_cycles : 0);
    arrival = model_channel_free_[0] = start + timing_.fabric->transfer_cycles(length);
    model_last_arrival_ = std::max(model_last_arrival_, arrival);
    return arrival;
  }
  const int hops = route.empty() ? topology_.distance(node_, peer) : static_cast<int>(route.size());
  std::size_t channel = 0;
  if (model_channel_free_.size() > 1 && peer != node_)
    channel = static_cast<std::size_t>(route.empty() ? timing_.routing(topology_, node_, peer) : route[0]);
  // The descriptor is written at the cursor; the DMA engine starts a cycle later, when its channel is free.
  const std::uint64_t start = std::max(model_cursor_ + 1, model_channel_free_[channel]) +
                              (params_.startup_on_channel ? params_.startup_cycles : 0);
  model_channel_free_[channel] = start + message_flits(timing_.router, length);
  arrival = start + zero_load_transfer_cycles(timing_.router, hops, length);
  model_last_arrival_ = std::max(model_last_arrival_, arrival);
  return model_channel_free_[channel];
}

void Processor::end_step() {
  step_statistics_.record(node_, current_step_, step_count_, step_begin_cycle_,
                          std::max(model_cursor_, model_last_arrival_));
  step_count_ = StepCount{};
  model_cursor_ = model_last_arrival_ = 0;
  std::fill(model_channel_free_.begin(), model_channel_free_.end(), 0);
}

void Processor::hardware_barrier() {
  // Zero-load model: every node arrives as its step's slowest would, and all leave `latency` later.
  const auto latency = static_cast<std::uint64_t>(barrier_.latency() / period_);
  model_cursor_ += latency;
  step_count_.barrier_cycles += latency;
  blocked_ = Blocked::OnBarrier;
  barrier_.arrive_and_wait();
  blocked_ = Blocked::No;
}

std::string Processor::waiting_for() const {
  if (blocked_ == Blocked::OnBarrier) return "hardware barrier";
  if (blocked_ == Blocked::No) return "";
  return describe_descriptor_(blocked_handle_);
}

void Processor::begin_step(int step) {
  if (step < 0) throw FirmwareError("step " + std::to_string(step) + " is negative");
  end_step();
  current_step_ = step;
  step_begin_cycle_ = now_cycles();
  write_register(dma::kStepMark, static_cast<std::uint32_t>(step));
}

}  // namespace meshmp
