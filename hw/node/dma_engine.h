// What a node's processor and its machine need of the node's DMA engine, whichever machine the node is
// in: the router network's (hw/node/network_interface.h), paper 004's bus and switch (hw/fabric/fabric_interface.h)
// or its shared memory (hw/fabric/shared_memory_interface.h). The processor drives every engine through the same
// register map (tlm/dma_registers.h) over TLM-2.0 and sleeps on its completion interrupt; the machine asks
// it what it holds when the run ends.
#pragma once

#include <systemc>
#include <tlm>

#include <cstdint>
#include <string>
#include <vector>

namespace meshmp {

class DmaEngine {
 public:
  virtual ~DmaEngine() = default;

  // The register socket the processor's dma_port binds to, and the engine's socket to local memory.
  virtual tlm::tlm_target_socket<>& register_target() = 0;
  virtual tlm::tlm_initiator_socket<>& memory_initiator() = 0;

  virtual const sc_core::sc_event& completion_irq() const = 0;
  // Why the last register access was answered with an error response.
  virtual const std::string& last_error() const = 0;
  // What descriptor `id` is ("receive of 64 bytes from node 3, tag 7"), to say what a processor waits for.
  virtual std::string describe_descriptor(std::uint32_t id) const = 0;

  // Messages that arrived before their receive was posted, and those still held unreceived.
  virtual std::uint64_t unexpected_messages() const = 0;
  virtual std::size_t unreceived_messages() const = 0;
  // One line per message held unreceived: "node 3 holds message ... from node 1".
  virtual std::vector<std::string> unreceived_descriptions() const = 0;
};

}  // namespace meshmp
