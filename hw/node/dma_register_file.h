// The register file of tlm/dma_registers.h as the DMA engines of paper 004's shared-resource machines
// serve it (hw/fabric/fabric_interface.h for the bus and the switch, hw/fabric/shared_memory_interface.h for the shared
// memory): the descriptor fields, the descriptor table with QUERY / STATUS / COMPLETED, the step mark, the
// completion interrupt, and the error an access answers (last_error()). An engine gives it what starts a
// descriptor (COMMAND); a transfer its machine refuses later makes every register access answer that
// refusal from then on, so that a processor waiting for the descriptor finds it at its next access.
#pragma once

#include <systemc>
#include <tlm>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace meshmp {

class DmaRegisterFile {
 public:
  // `machine` names the machine in errors ("a shared-resource machine"); `global_address`: the engine has
  // the GLOBAL_ADDRESS register (the shared memory's).
  DmaRegisterFile(int node, std::string machine, bool global_address);

  // Serves one 32-bit register access (TLM-2.0 b_transport of the engine's register socket); a COMMAND
  // write calls `command` with the value, which starts the descriptor or rejects it.
  void serve(tlm::tlm_generic_payload& trans, const std::function<bool(std::uint32_t)>& command);

  // The descriptor fields as last written.
  std::uint32_t peer() const { return peer_; }
  std::uint32_t local_address() const { return local_address_; }
  std::uint32_t length() const { return length_; }
  std::uint32_t tag() const { return tag_; }
  std::uint32_t step_mark() const { return step_mark_; }
  std::uint32_t global_address() const { return global_address_; }

  // A new descriptor (DESCRIPTOR_ID reads it), its completion (raises the interrupt), and whether it is done.
  std::uint32_t new_descriptor();
  void complete(std::uint32_t descriptor);
  bool done(std::uint32_t descriptor) const { return descriptor < done_.size() && done_[descriptor]; }
  bool exists(std::uint32_t descriptor) const { return descriptor < done_.size(); }
  // Records why an access is refused ("node 3 DMA: ..."); returns false.
  bool reject(const std::string& why);
  // A transfer the machine refused: every access answers `why` from now on; the interrupt wakes the processor.
  void refuse_from_now(const std::string& why);

  const sc_core::sc_event& completion_irq() const { return completion_irq_; }
  const std::string& last_error() const { return last_error_; }

 private:
  bool write(std::uint64_t address, std::uint32_t value, const std::function<bool(std::uint32_t)>& command);
  bool read(std::uint64_t address, std::uint32_t& value);

  int node_;
  std::string machine_;
  bool has_global_address_;
  std::uint32_t peer_ = 0, local_address_ = 0, length_ = 0, tag_ = 0, query_ = 0, descriptor_id_ = 0;
  std::uint32_t step_mark_ = 0, global_address_ = 0;
  std::vector<bool> done_;
  std::uint32_t completed_ = 0;
  std::string last_error_;
  std::string refused_;
  sc_core::sc_event completion_irq_;
};

}  // namespace meshmp
