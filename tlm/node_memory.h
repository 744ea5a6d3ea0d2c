// A node's local memory: real bytes behind a TLM-2.0 target socket (b_transport reads and writes,
// with address checking; DMI offered for fast access). The processor and the DMA engine reach it
// through their own target sockets (cpu_port, dma_port); the verifier reads it through the backdoor
// bytes(). A memory starts all zero, and its whole pages are handed back to the host as soon as it is
// built (they read as zero until written): a machine's memories cost the host only the pages its run
// writes, not the scratch an algorithm reserves and leaves untouched.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <vector>

namespace meshmp {

class NodeMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<NodeMemory> cpu_port;
  tlm_utils::simple_target_socket<NodeMemory> dma_port;

  NodeMemory(sc_core::sc_module_name name, std::size_t size_bytes);

  std::size_t size() const { return bytes_.size(); }
  std::vector<std::uint8_t>& bytes() { return bytes_; }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);

  std::vector<std::uint8_t> bytes_;
};

}  // namespace meshmp
