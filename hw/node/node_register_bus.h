// The bus between a node's DMA engine registers (tlm/dma_registers.h) and the initiators that drive them:
// the node's processor, and any SystemC/TLM-2.0 module a program built on the library binds to it (a
// traffic source, a testbench: docs/library.md, examples/library-user). Every access passes through
// unchanged and in zero time, so the machine's timing stays the processor's and the engine's. The engine
// serves one register file: initiators that write descriptors at once must take turns themselves.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

namespace meshmp {

class NodeRegisterBus : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<NodeRegisterBus> initiators;  // the processor first, then others
  tlm_utils::simple_initiator_socket<NodeRegisterBus> engine;

  explicit NodeRegisterBus(sc_core::sc_module_name name) : sc_core::sc_module(name), initiators("initiators"), engine("engine") {
    initiators.register_b_transport(this, &NodeRegisterBus::b_transport);
  }

 private:
  void b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) { engine->b_transport(trans, delay); }
};

}  // namespace meshmp
