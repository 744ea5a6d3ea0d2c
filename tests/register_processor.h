// A test processor that drives a node's DMA engine through its registers (tlm/dma_registers.h) as the
// machine's processor does, running a script in its SC_THREAD: the engine tests' stand-in for
// hw/node/processor.cpp (tests/fabric_interface_test.cpp, tests/shared_memory_interface_test.cpp).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <functional>
#include <string>

#include "tlm/dma_registers.h"
#include "tlm/transport.h"

namespace meshmp {

// A processor that runs `script` against its DMA engine's registers.
struct TestProcessor : sc_core::sc_module {
  SC_HAS_PROCESS(TestProcessor);
  tlm_utils::simple_initiator_socket<TestProcessor> dma_port;
  tlm_utils::simple_initiator_socket<TestProcessor> memory_port;  // unused: the memory's CPU side is bound
  std::function<void(TestProcessor&)> script;
  std::string error;
  explicit TestProcessor(sc_core::sc_module_name name)
      : sc_core::sc_module(name), dma_port("dma_port"), memory_port("memory_port") {
    SC_THREAD(run);
  }
  void run() {
    if (script) script(*this);
  }
  bool write(std::uint64_t address, std::uint32_t value) {
    return transport(dma_port, tlm::TLM_WRITE_COMMAND, address, reinterpret_cast<unsigned char*>(&value), 4) ==
           tlm::TLM_OK_RESPONSE;
  }
  std::uint32_t read(std::uint64_t address) {
    std::uint32_t value = 0;
    transport(dma_port, tlm::TLM_READ_COMMAND, address, reinterpret_cast<unsigned char*>(&value), 4);
    return value;
  }
  // Starts a descriptor; -1 when the engine refused it.
  int issue(std::uint32_t command, std::uint32_t peer, std::uint32_t address, std::uint32_t length, std::uint32_t tag) {
    write(dma::kPeer, peer);
    write(dma::kLocalAddress, address);
    write(dma::kLength, length);
    write(dma::kTag, tag);
    if (!write(dma::kCommand, command)) return -1;
    return static_cast<int>(read(dma::kDescriptorId));
  }
  // Starts a SHARED_READ / SHARED_WRITE of `length` bytes between global and local memory; -1 when refused.
  int access(std::uint32_t command, std::uint32_t global_address, std::uint32_t local_address, std::uint32_t length) {
    write(dma::kGlobalAddress, global_address);
    write(dma::kLocalAddress, local_address);
    write(dma::kLength, length);
    if (!write(dma::kCommand, command)) return -1;
    return static_cast<int>(read(dma::kDescriptorId));
  }
  void wait_done(int descriptor, const sc_core::sc_event& irq) {
    write(dma::kQuery, static_cast<std::uint32_t>(descriptor));
    while (read(dma::kStatus) != dma::kStatusDone) sc_core::wait(irq);
  }
};

}  // namespace meshmp
