// A node's processor running firmware against the DMA engine. See processor.h.
#include "hw/processor.h"

#include <cmath>
#include <cstring>

#include "hw/flit.h"
#include "tlm/dma_registers.h"
#include "tlm/transport.h"

namespace meshmp {

Processor::Processor(sc_core::sc_module_name name, int node, const Topology& topology, const ExchangeLayout& layout,
                     const ProcessorParams& params, sc_core::sc_time clock_period, HardwareBarrier& barrier,
                     const sc_core::sc_event& completion_irq, std::function<std::string()> dma_error_text,
                     Firmware firmware, std::function<void()> on_finish)
    : sc_core::sc_module(name),
      dma_port("dma_port"),
      memory_port("memory_port"),
      node_(node),
      topology_(topology),
      layout_(layout),
      params_(params),
      period_(clock_period),
      barrier_(barrier),
      completion_irq_(completion_irq),
      firmware_(std::move(firmware)),
      on_finish_(std::move(on_finish)),
      dma_error_text_(std::move(dma_error_text)),
      steps_(1) {
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

Handle Processor::issue(std::uint32_t command, int peer, std::uint32_t address, std::uint32_t length,
                        std::uint32_t tag, const std::vector<int>& route) {
  if (peer < 0) throw FirmwareError("peer " + std::to_string(peer) + " is not a node");
  if (route.size() > static_cast<std::size_t>(kMaxRouteHops))
    throw FirmwareError("a source route of " + std::to_string(route.size()) + " hops exceeds " +
                        std::to_string(kMaxRouteHops));
  write_register(dma::kPeer, static_cast<std::uint32_t>(peer));
  write_register(dma::kLocalAddress, address);
  write_register(dma::kLength, length);
  write_register(dma::kTag, tag);
  write_register(dma::kChannel, dma::kAutoChannel);
  write_register(dma::kRouteLength, static_cast<std::uint32_t>(route.size()));
  if (!route.empty()) {
    std::vector<unsigned char> ports;
    for (int p : route) ports.push_back(static_cast<unsigned char>(p < 0 || p > 254 ? 255 : p));
    register_access(tlm::TLM_WRITE_COMMAND, dma::kRoute, ports.data(), static_cast<unsigned>(ports.size()));
  }
  write_register(dma::kCommand, command);
  Handle h = static_cast<Handle>(read_register(dma::kDescriptorId));
  outstanding_.push_back(h);
  if (descriptors_.size() <= static_cast<std::size_t>(h)) descriptors_.resize(h + 1);
  descriptors_[h] = {command, peer, tag, length};
  return h;
}

Handle Processor::send(int peer, std::uint32_t address, std::uint32_t length, std::uint32_t tag,
                       const std::vector<int>& route) {
  wait_cycles(params_.startup_cycles);
  Handle h = issue(dma::kCommandSend, peer, address, length, tag, route);
  ++startups_;
  steps_[current_step_].messages += 1;
  steps_[current_step_].bytes += length;
  return h;
}

Handle Processor::receive(int peer, std::uint32_t address, std::uint32_t length, std::uint32_t tag) {
  return issue(dma::kCommandReceive, peer, address, length, tag, {});
}

void Processor::wait(Handle handle) {
  write_register(dma::kQuery, static_cast<std::uint32_t>(handle));
  while (read_register(dma::kStatus) != dma::kStatusDone) {
    blocked_ = Blocked::OnDescriptor;
    blocked_handle_ = handle;
    sc_core::wait(completion_irq_);
  }
  blocked_ = Blocked::No;
}

void Processor::wait_all() {
  for (Handle h : outstanding_) wait(h);
  outstanding_.clear();
}

void Processor::local_copy(std::uint32_t to, std::uint32_t from, std::uint32_t length) {
  if (std::uint64_t{from} + length > layout_.memory_bytes() || std::uint64_t{to} + length > layout_.memory_bytes())
    throw FirmwareError("local copy of " + std::to_string(length) + " bytes from " + std::to_string(from) + " to " +
                        std::to_string(to) + " leaves the local memory of " + std::to_string(layout_.memory_bytes()) +
                        " bytes");
  if (length == 0) return;
  std::vector<unsigned char> buffer(length);
  if (transport(memory_port, tlm::TLM_READ_COMMAND, from, buffer.data(), length) != tlm::TLM_OK_RESPONSE ||
      transport(memory_port, tlm::TLM_WRITE_COMMAND, to, buffer.data(), length) != tlm::TLM_OK_RESPONSE)
    throw FirmwareError("local copy: memory access failed");
  wait_cycles(static_cast<std::uint64_t>(std::ceil(params_.copy_cycles_per_byte * length)));
}

void Processor::compute(std::uint64_t cycles) { wait_cycles(cycles); }

void Processor::hardware_barrier() {
  blocked_ = Blocked::OnBarrier;
  barrier_.arrive_and_wait();
  blocked_ = Blocked::No;
}

std::string Processor::waiting_for() const {
  if (blocked_ == Blocked::OnBarrier) return "hardware barrier";
  if (blocked_ == Blocked::No) return "";
  const DescriptorRecord& d = descriptors_[blocked_handle_];
  return std::string(d.command == dma::kCommandSend ? "send to" : "receive from") + " node " + std::to_string(d.peer) +
         " tag " + std::to_string(d.tag) + " (" + std::to_string(d.length) + " bytes)";
}

void Processor::begin_step(int step) {
  if (step < 0) throw FirmwareError("step " + std::to_string(step) + " is negative");
  current_step_ = step;
  if (steps_.size() <= static_cast<std::size_t>(step)) steps_.resize(step + 1);
}

}  // namespace meshmp
