// The bus between a node's DMA engine registers (tlm/dma_registers.h) and the initiators that drive them:
// the node's processor, and any SystemC/TLM-2.0 module a program built on the library binds to it (a
// traffic source, a testbench: docs/library.md, examples/library-user). Every access passes through
// unchanged and in zero time, so the machine's timing stays the processor's and the engine's; so do the
// direct memory interface the engine grants to some registers and its invalidation, told to every initiator.
// The engine serves one register file: initiators that write descriptors at once must take turns themselves.
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
    initiators.register_get_direct_mem_ptr(this, &NodeRegisterBus::get_direct_mem_ptr);
    engine.register_invalidate_direct_mem_ptr(this, &NodeRegisterBus::invalidate_direct_mem_ptr);
  }

 private:
  void b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) { engine->b_transport(trans, delay); }
  bool get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    return engine->get_direct_mem_ptr(trans, dmi);
  }
  // The engine voided the direct access it granted: every initiator is told.
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
    for (unsigned i = 0; i < initiators.size(); ++i) initiators[i]->invalidate_direct_mem_ptr(start, end);
  }
};

}  // namespace meshmp
