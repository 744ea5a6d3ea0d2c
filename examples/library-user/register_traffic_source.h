// A SystemC/TLM-2.0 module of this program's own bound to a node of the machine: it drives the node's DMA
// engine through its register map (tlm/dma_registers.h) over a tlm_utils socket bound to the node's
// register bus (hw/node/node_register_bus.h), as a traffic generator or a testbench would, while the node's
// processor runs no firmware of its own. It sends one message and records when the engine completed it.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>

namespace library_user {

class RegisterTrafficSource : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<RegisterTrafficSource> socket;

  // Sends `length` bytes at `address` of its node's memory to node `peer` with `tag`; `completion` is the
  // engine's completion interrupt.
  RegisterTrafficSource(sc_core::sc_module_name name, std::uint32_t peer, std::uint32_t address,
                        std::uint32_t length, std::uint32_t tag, const sc_core::sc_event& completion);

  bool sent() const { return sent_; }
  sc_core::sc_time sent_at() const { return sent_at_; }

 private:
  void run();
  void write(std::uint64_t address, std::uint32_t value);
  std::uint32_t read(std::uint64_t address);
  void transport(tlm::tlm_command command, std::uint64_t address, std::uint32_t& value);

  std::uint32_t peer_, address_, length_, tag_;
  const sc_core::sc_event& completion_;
  bool sent_ = false;
  sc_core::sc_time sent_at_;
};

}  // namespace library_user
