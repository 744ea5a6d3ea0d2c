// The register file of tlm/dma_registers.h as every DMA engine serves it: the router network's interface
// (hw/node/network_interface.h), which also has the injection channel and the source route, and the engines
// of paper 004's shared-resource machines (hw/fabric/fabric_interface.h for the bus and the switch,
// hw/fabric/shared_memory_interface.h for the shared memory, which also has the global address). It holds
// the descriptor fields, the descriptor table with QUERY / STATUS / COMPLETED, the step mark, the completion
// interrupt, and the error an access answers (last_error()); it grants the registers whose accesses have no
// side effect by TLM-2.0 direct memory interface. An engine gives it what starts a descriptor
// (COMMAND); a transfer its machine refuses later makes every register access answer that refusal from then
// on, so that a processor waiting for the descriptor finds it at its next access.
#pragma once

#include <systemc>
#include <tlm>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace meshmp {

// The registers an engine has beyond the descriptor's common fields.
struct DmaRegisterSet {
  bool global_address = false;  // GLOBAL_ADDRESS, GLOBAL_PIECE and GLOBAL_STRIDE (the shared memory's)
  bool source_route = false;    // CHANNEL, ROUTE_LENGTH and ROUTE (the router network's)
};

class DmaRegisterFile {
 public:
  // `machine` names the machine in errors ("a shared-resource machine"). A COMMAND write calls the
  // engine's `command` with the value, which starts the descriptor or rejects it.
  DmaRegisterFile(int node, std::string machine, DmaRegisterSet registers, std::function<bool(std::uint32_t)> command);

  // Serves one 32-bit register access (TLM-2.0 b_transport of the engine's register socket).
  void serve(tlm::tlm_generic_payload& trans);
  // TLM-2.0 direct memory interface (get_direct_mem_ptr of the engine's register socket) to the registers
  // whose accesses have no side effect: DESCRIPTOR_ID and COMPLETED to read, STEP_MARK and IRQ_THRESHOLD
  // to read and write (one word each), and DONE_TABLE's words as far as the engine holds them, to read.
  // Every other register, and every register once refused, answers false (b_transport).
  bool grant(std::uint64_t address, tlm::tlm_dmi& dmi);
  // Called when the pointers granted are void: at refuse_from_now, so that the initiators' next access is a
  // transaction that answers the refusal, and when DONE_TABLE grows (its words move). The engine's socket
  // tells its initiators (invalidate_direct_mem_ptr).
  void on_direct_access_void(std::function<void()> invalidate) { invalidate_ = std::move(invalidate); }

  // The descriptor fields as last written.
  std::uint32_t peer() const { return peer_; }
  std::uint32_t local_address() const { return local_address_; }
  std::uint32_t length() const { return length_; }
  std::uint32_t tag() const { return tag_; }
  std::uint32_t step_mark() const { return step_mark_; }
  std::uint32_t global_address() const { return global_address_; }
  std::uint32_t global_piece() const { return global_piece_; }
  std::uint32_t global_stride() const { return global_stride_; }
  std::uint32_t channel() const { return channel_; }
  std::uint32_t route_length() const { return route_length_; }
  // The source route's ports, kMaxRouteHops of them (ROUTE_LENGTH says how many are the route).
  const std::vector<std::uint8_t>& route() const { return route_; }

  // A new descriptor (DESCRIPTOR_ID reads it), its completion (raises the interrupt once COMPLETED reaches
  // IRQ_THRESHOLD), and whether it is done.
  std::uint32_t new_descriptor();
  void complete(std::uint32_t descriptor);
  bool done(std::uint32_t descriptor) const {
    return descriptor < descriptors_ && (done_table_[descriptor / 32] >> (descriptor % 32) & 1u) != 0;
  }
  bool exists(std::uint32_t descriptor) const { return descriptor < descriptors_; }
  std::uint32_t completed() const { return completed_; }
  // Records why an access is refused ("node 3 DMA: ..."); returns false.
  bool reject(const std::string& why);
  // A transfer the machine refused: every access answers `why` from now on; the interrupt wakes the processor.
  void refuse_from_now(const std::string& why);

  const sc_core::sc_event& completion_irq() const { return completion_irq_; }
  // The completion interrupts raised (refusals included).
  std::uint64_t interrupts_raised() const { return interrupts_raised_; }
  const std::string& last_error() const { return last_error_; }

 private:
  bool write(std::uint64_t address, std::uint32_t value);
  bool read(std::uint64_t address, std::uint32_t& value);
  // The errors of write() and read(), kept out of their way (cold: they build the message).
  [[gnu::cold, gnu::noinline]] bool refuse_write(std::uint64_t address, std::uint32_t value);
  [[gnu::cold, gnu::noinline]] bool refuse_read(std::uint64_t address);
  [[gnu::cold, gnu::noinline]] bool refuse_width(std::uint64_t address, bool write, unsigned length);
  std::uint32_t& global_register(std::uint64_t address);  // GLOBAL_ADDRESS, GLOBAL_PIECE or GLOBAL_STRIDE

  int node_;
  std::string machine_;
  DmaRegisterSet has_;
  std::function<bool(std::uint32_t)> command_;
  std::uint32_t peer_ = 0, local_address_ = 0, length_ = 0, tag_ = 0, query_ = 0, descriptor_id_ = 0;
  std::uint32_t step_mark_ = 0, irq_threshold_ = 0, global_address_ = 0, global_piece_ = 0, global_stride_ = 0;
  std::uint32_t channel_ = 0xffffffff, route_length_ = 0;  // CHANNEL's reset value: by first hop
  std::vector<std::uint8_t> route_;
  std::uint32_t descriptors_ = 0;           // issued so far
  std::vector<std::uint32_t> done_table_;  // DONE_TABLE's words, grown by doubling (the grant is voided)
  std::uint32_t completed_ = 0;
  std::uint64_t interrupts_raised_ = 0;
  std::string last_error_;
  std::string refused_;
  sc_core::sc_event completion_irq_;
  std::function<void()> invalidate_;
};

}  // namespace meshmp
