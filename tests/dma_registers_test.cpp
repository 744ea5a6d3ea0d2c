// The DMA engine's register interface over TLM-2.0: a test initiator (standing in for the processor)
// programs descriptors with b_transport on a two-node machine's network interfaces and watches them
// complete; bad descriptors answer with an error response and an explanation.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "hw/network/network.h"
#include "hw/node/network_interface.h"
#include "hw/router/routing.h"
#include "tlm/dma_registers.h"
#include "tlm/node_memory.h"

namespace meshmp {
namespace {

struct RegisterDriver : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<RegisterDriver> socket;
  tlm_utils::simple_initiator_socket<RegisterDriver> memory_socket;  // the processor's memory port, unused
  explicit RegisterDriver(sc_core::sc_module_name name)
      : sc_core::sc_module(name), socket("socket"), memory_socket("memory_socket") {}

  tlm::tlm_response_status access(tlm::tlm_command command, std::uint64_t address, std::uint32_t& value) {
    tlm::tlm_generic_payload trans;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    trans.set_command(command);
    trans.set_address(address);
    trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    trans.set_data_length(4);
    trans.set_streaming_width(4);
    socket->b_transport(trans, delay);
    return trans.get_response_status();
  }
  tlm::tlm_response_status write(std::uint64_t address, std::uint32_t value) {
    return access(tlm::TLM_WRITE_COMMAND, address, value);
  }
  std::uint32_t read(std::uint64_t address) {
    std::uint32_t value = 0;
    EXPECT_EQ(access(tlm::TLM_READ_COMMAND, address, value), tlm::TLM_OK_RESPONSE);
    return value;
  }
  std::uint32_t command(std::uint32_t cmd, std::uint32_t peer, std::uint32_t address, std::uint32_t length,
                        std::uint32_t tag, tlm::tlm_response_status expect = tlm::TLM_OK_RESPONSE) {
    write(dma::kPeer, peer);
    write(dma::kLocalAddress, address);
    write(dma::kLength, length);
    write(dma::kTag, tag);
    write(dma::kChannel, dma::kAutoChannel);
    write(dma::kRouteLength, 0);
    EXPECT_EQ(write(dma::kCommand, cmd), expect);
    return read(dma::kDescriptorId);
  }
  bool done(std::uint32_t id) {
    write(dma::kQuery, id);
    return read(dma::kStatus) == dma::kStatusDone;
  }
};

TEST(DmaRegisters, DescriptorsOverTlmMoveRealBytes) {
  static const Topology topology = Topology::parse("mesh:2");
  RouterParams params;
  Network network("network", topology, params, PortModel::OnePort, &dimension_order_port,
                  sc_core::sc_time(1, sc_core::SC_NS), 1000);
  NodeMemory memory0("memory0", 256), memory1("memory1", 256);
  MessageStatistics messages;
  NetworkInterface dma0("dma0", 0, network, 256, 1024, messages), dma1("dma1", 1, network, 256, 1024, messages);
  dma0.memory_port.bind(memory0.dma_port);
  dma1.memory_port.bind(memory1.dma_port);
  RegisterDriver cpu0("cpu0"), cpu1("cpu1");
  cpu0.socket.bind(dma0.registers);
  cpu1.socket.bind(dma1.registers);
  cpu0.memory_socket.bind(memory0.cpu_port);
  cpu1.memory_socket.bind(memory1.cpu_port);
  for (int b = 0; b < 100; ++b) memory0.bytes()[b] = static_cast<std::uint8_t>(b * 3 + 1);

  bool finished = false;
  sc_core::sc_spawn([&] {
    // Node 1 posts its receive first, node 0 sends 100 bytes from address 0 to node 1's address 128.
    const std::uint32_t receive = cpu1.command(dma::kCommandReceive, 0, 128, 100, 5);
    EXPECT_FALSE(cpu1.done(receive));
    const std::uint32_t send = cpu0.command(dma::kCommandSend, 1, 0, 100, 5);
    EXPECT_FALSE(cpu0.done(send));
    while (!cpu1.done(receive)) sc_core::wait(dma1.completion_irq());
    EXPECT_TRUE(cpu0.done(send));
    EXPECT_EQ(cpu0.read(dma::kCompleted), 1u);
    EXPECT_EQ(cpu1.read(dma::kCompleted), 1u);
    // 100 bytes = 13 flits of 8 bytes, in packets of at most 16 flits: 1 head + 13 flits; one hop.
    EXPECT_GT(sc_core::sc_time_stamp(), sc_core::sc_time(13, sc_core::SC_NS));

    // A message that arrives before its receive is posted waits in the interface, then lands.
    const std::uint32_t early = cpu0.command(dma::kCommandSend, 1, 10, 20, 6);
    while (!cpu0.done(early)) sc_core::wait(dma0.completion_irq());
    sc_core::wait(20, sc_core::SC_NS);
    const std::uint32_t late = cpu1.command(dma::kCommandReceive, 0, 230, 20, 6);
    EXPECT_TRUE(cpu1.done(late));

    // Bad descriptors: error response, and the reason names the field and the rule.
    cpu0.command(dma::kCommandSend, 7, 0, 10, 1, tlm::TLM_GENERIC_ERROR_RESPONSE);
    EXPECT_NE(dma0.last_error().find("PEER = 7 is not a node"), std::string::npos) << dma0.last_error();
    cpu0.command(dma::kCommandSend, 1, 250, 10, 1, tlm::TLM_GENERIC_ERROR_RESPONSE);
    EXPECT_NE(dma0.last_error().find("exceeds the local memory of 256 bytes"), std::string::npos);
    std::uint32_t unused = 0;
    EXPECT_EQ(cpu0.access(tlm::TLM_WRITE_COMMAND, dma::kCommand, unused = 9), tlm::TLM_GENERIC_ERROR_RESPONSE);
    finished = true;
  });
  sc_core::sc_start(sc_core::sc_time(10000, sc_core::SC_NS), sc_core::SC_EXIT_ON_STARVATION);
  ASSERT_TRUE(finished);
  for (int b = 0; b < 100; ++b) ASSERT_EQ(memory1.bytes()[128 + b], memory0.bytes()[b]) << "byte " << b;
  for (int b = 0; b < 20; ++b) ASSERT_EQ(memory1.bytes()[230 + b], memory0.bytes()[10 + b]) << "byte " << b;
  EXPECT_EQ(dma1.unexpected_messages(), 1u);
}

TEST(NodeMemoryTlm, RejectsAccessesOutsideTheMemory) {
  NodeMemory memory("memory", 64);
  struct Probe : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Probe> socket{"socket"};
    explicit Probe(sc_core::sc_module_name name) : sc_core::sc_module(name) {}
  } probe("probe");
  probe.socket.bind(memory.cpu_port);
  unsigned char data[16] = {1, 2, 3};
  tlm::tlm_generic_payload trans;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_data_ptr(data);
  trans.set_data_length(16);
  trans.set_streaming_width(16);
  trans.set_address(56);
  probe.socket->b_transport(trans, delay);
  EXPECT_EQ(trans.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  trans.set_address(48);
  probe.socket->b_transport(trans, delay);
  EXPECT_EQ(trans.get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(memory.bytes()[49], 2);
}

// This process's resident memory (/proc/self/statm), in bytes.
std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

// A fresh memory reads as zero without holding its pages: 64 MiB of it cost the process less than 16 MiB
// (held whole before, when building it wrote every page), and a page written reads back what was written.
TEST(NodeMemoryTlm, HoldsOnlyThePagesItsRunWrites) {
  const std::uint64_t before = resident_bytes();
  NodeMemory memory("memory", std::size_t{64} << 20);
  const std::uint64_t grown = resident_bytes() - before;
  EXPECT_LT(grown, std::uint64_t{16} << 20) << "a 64 MiB memory holds " << grown << " bytes once built";
  const std::vector<std::uint8_t>& bytes = memory.bytes();
  EXPECT_TRUE(std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0; }));
  memory.bytes()[12345678] = 0x5a;
  EXPECT_EQ(memory.bytes()[12345678], 0x5a);
  EXPECT_EQ(memory.bytes()[12345677], 0);
}

}  // namespace
}  // namespace meshmp
