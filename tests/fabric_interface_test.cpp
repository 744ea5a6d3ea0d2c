// A node's DMA engine on 004's shared-resource machines (hw/fabric/fabric_interface.h) with the broadcast bus
// and the Omega switch (tlm/): nodes made of a NodeMemory, a FabricInterface and a small processor that
// drives the DMA registers as the machine's processor does. Whole messages land byte for byte in the
// receivers' memories at the fabrics' times; early messages wait for their receive; the bus broadcasts;
// the switch runs a uniform shift in one pass; bad descriptors are error responses naming the rule.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <memory>

#include "hw/fabric/fabric_interface.h"
#include "tlm/broadcast_bus.h"
#include "tlm/dma_registers.h"
#include "tlm/node_memory.h"
#include "tlm/omega_switch.h"
#include "register_processor.h"

namespace meshmp {
namespace {

constexpr std::uint64_t kTau = 10;
constexpr std::uint32_t kBytesPerCycle = 8;
const sc_core::sc_time kCycle(1, sc_core::SC_NS);

struct TestNode {
  std::unique_ptr<NodeMemory> memory;
  std::unique_ptr<FabricInterface> dma;
  std::unique_ptr<TestProcessor> cpu;
  sc_core::sc_time done;
};

template <class Fabric>
std::vector<TestNode> nodes_on(Fabric& fabric, int k, std::size_t memory_bytes) {
  std::vector<TestNode> nodes(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) {
    TestNode& n = nodes[i];
    const std::string id = std::to_string(i);
    n.memory = std::make_unique<NodeMemory>(("memory" + id).c_str(), memory_bytes);
    n.dma = std::make_unique<FabricInterface>(("dma" + id).c_str(), i, k, memory_bytes);
    n.cpu = std::make_unique<TestProcessor>(("cpu" + id).c_str());
    n.cpu->dma_port.bind(n.dma->registers);
    n.cpu->memory_port.bind(n.memory->cpu_port);
    n.dma->memory_port.bind(n.memory->dma_port);
    n.dma->fabric_out.bind(fabric.nodes_in);
    fabric.nodes_out.bind(n.dma->fabric_in);
  }
  return nodes;
}

void fill(NodeMemory& memory, std::uint32_t address, std::uint32_t length, std::uint8_t seed) {
  for (std::uint32_t b = 0; b < length; ++b) memory.bytes()[address + b] = static_cast<std::uint8_t>(seed + 3 * b);
}
bool holds(const NodeMemory& memory, std::uint32_t address, std::uint32_t length, std::uint8_t seed) {
  for (std::uint32_t b = 0; b < length; ++b)
    if (memory.bytes()[address + b] != static_cast<std::uint8_t>(seed + 3 * b)) return false;
  return true;
}

TEST(FabricInterface, AMessageCrossesTheBusIntoThePostedReceive) {
  BroadcastBus bus("bus", 2, 1, FabricTiming{kTau, kBytesPerCycle}, kCycle);
  std::vector<TestNode> nodes = nodes_on(bus, 2, 1024);
  fill(*nodes[0].memory, 100, 64, 7);
  nodes[0].cpu->script = [&](TestProcessor& p) {
    const int send = p.issue(dma::kCommandSend, 1, 100, 64, 5);
    p.wait_done(send, nodes[0].dma->completion_irq());
    nodes[0].done = sc_core::sc_time_stamp();
  };
  nodes[1].cpu->script = [&](TestProcessor& p) {
    const int receive = p.issue(dma::kCommandReceive, 0, 512, 64, 5);
    p.wait_done(receive, nodes[1].dma->completion_irq());
    nodes[1].done = sc_core::sc_time_stamp();
  };
  sc_core::sc_start();
  EXPECT_TRUE(holds(*nodes[1].memory, 512, 64, 7));
  // One cycle of arbitration, tau, 64 bytes at 8 per cycle.
  EXPECT_EQ(nodes[0].done, kCycle * static_cast<double>(1 + kTau + 8));
  EXPECT_EQ(nodes[1].done, nodes[0].done);
  EXPECT_EQ(nodes[0].dma->messages_sent(), 1u);
  EXPECT_EQ(nodes[1].dma->messages_received(), 1u);
  EXPECT_EQ(nodes[1].dma->unexpected_messages(), 0u);
}

TEST(FabricInterface, AnEarlyMessageWaitsForItsReceiveAndMessagesKeepTheirOrder) {
  BroadcastBus bus("bus", 2, 1, FabricTiming{kTau, kBytesPerCycle}, kCycle);
  std::vector<TestNode> nodes = nodes_on(bus, 2, 1024);
  fill(*nodes[0].memory, 0, 16, 1);
  fill(*nodes[0].memory, 16, 16, 2);
  nodes[0].cpu->script = [&](TestProcessor& p) {
    const int first = p.issue(dma::kCommandSend, 1, 0, 16, 9);
    const int second = p.issue(dma::kCommandSend, 1, 16, 16, 9);  // same tag: received in sending order
    p.wait_done(first, nodes[0].dma->completion_irq());
    p.wait_done(second, nodes[0].dma->completion_irq());
  };
  nodes[1].cpu->script = [&](TestProcessor& p) {
    sc_core::wait(kCycle * 200.0);  // both arrived long ago
    const int a = p.issue(dma::kCommandReceive, 0, 600, 16, 9);
    const int b = p.issue(dma::kCommandReceive, 0, 700, 16, 9);
    p.wait_done(a, nodes[1].dma->completion_irq());
    p.wait_done(b, nodes[1].dma->completion_irq());
    nodes[1].done = sc_core::sc_time_stamp();
  };
  sc_core::sc_start();
  EXPECT_TRUE(holds(*nodes[1].memory, 600, 16, 1));
  EXPECT_TRUE(holds(*nodes[1].memory, 700, 16, 2));
  EXPECT_EQ(nodes[1].dma->unexpected_messages(), 2u);
  EXPECT_EQ(nodes[1].dma->unreceived_messages(), 0u);
  EXPECT_EQ(nodes[1].done, kCycle * 200.0);
}

TEST(FabricInterface, TheBusBroadcastsToEveryOtherNodeAtOnce) {
  BroadcastBus bus("bus", 4, 1, FabricTiming{kTau, kBytesPerCycle}, kCycle);
  std::vector<TestNode> nodes = nodes_on(bus, 4, 256);
  fill(*nodes[2].memory, 8, 40, 11);
  nodes[2].cpu->script = [&](TestProcessor& p) {
    p.wait_done(p.issue(dma::kCommandSend, dma::kPeerAllOthers, 8, 40, 1), nodes[2].dma->completion_irq());
  };
  for (int i : {0, 1, 3})
    nodes[i].cpu->script = [&nodes, i](TestProcessor& p) {
      p.wait_done(p.issue(dma::kCommandReceive, 2, 128, 40, 1), nodes[i].dma->completion_irq());
      nodes[i].done = sc_core::sc_time_stamp();
    };
  sc_core::sc_start();
  for (int i : {0, 1, 3}) {
    EXPECT_TRUE(holds(*nodes[i].memory, 128, 40, 11)) << i;
    EXPECT_EQ(nodes[i].done, kCycle * static_cast<double>(1 + kTau + 5)) << i;
  }
  EXPECT_EQ(bus.broadcasts(), 1u);
}

TEST(FabricInterface, TheOmegaSwitchRunsAUniformShiftInOnePass) {
  const int k = 8;
  OmegaSwitch omega("omega", k, FabricTiming{kTau, kBytesPerCycle}, kCycle);
  std::vector<TestNode> nodes = nodes_on(omega, k, 256);
  for (int i = 0; i < k; ++i) {
    fill(*nodes[i].memory, 0, 32, static_cast<std::uint8_t>(i));
    nodes[i].cpu->script = [&nodes, i, k](TestProcessor& p) {
      const int receive = p.issue(dma::kCommandReceive, static_cast<std::uint32_t>((i + k - 3) % k), 64, 32, 0);
      const int send = p.issue(dma::kCommandSend, static_cast<std::uint32_t>((i + 3) % k), 0, 32, 0);
      p.wait_done(send, nodes[i].dma->completion_irq());
      p.wait_done(receive, nodes[i].dma->completion_irq());
      nodes[i].done = sc_core::sc_time_stamp();
    };
  }
  sc_core::sc_start();
  for (int i = 0; i < k; ++i) {
    EXPECT_TRUE(holds(*nodes[i].memory, 64, 32, static_cast<std::uint8_t>((i + k - 3) % k))) << i;
    EXPECT_EQ(nodes[i].done, kCycle * static_cast<double>(1 + kTau + 4)) << i;
  }
  EXPECT_EQ(omega.statistics().passes, 1u);
  EXPECT_EQ(omega.statistics().conflicting_transfers, 0u);
}

TEST(FabricInterface, BadDescriptorsAndRefusedTransfersAreErrorsThatSayWhy) {
  OmegaSwitch omega("omega", 4, FabricTiming{kTau, kBytesPerCycle}, kCycle);
  std::vector<TestNode> nodes = nodes_on(omega, 4, 128);
  nodes[0].cpu->script = [&](TestProcessor& p) {
    EXPECT_EQ(p.issue(dma::kCommandSend, 5, 0, 8, 0), -1);
    EXPECT_NE(nodes[0].dma->last_error().find("PEER = 5 is not a node (0..3)"), std::string::npos)
        << nodes[0].dma->last_error();
    EXPECT_EQ(p.issue(dma::kCommandReceive, 1, 120, 16, 0), -1);
    EXPECT_NE(nodes[0].dma->last_error().find("exceeds the local memory of 128 bytes"), std::string::npos);
    EXPECT_FALSE(p.write(dma::kRouteLength, 2));
    EXPECT_NE(nodes[0].dma->last_error().find("source routes are the router network's"), std::string::npos);
    p.write(dma::kRouteLength, 0);
    // The switch has no hardware broadcast: the transfer is refused and every register access says so.
    const int all = p.issue(dma::kCommandSend, dma::kPeerAllOthers, 0, 8, 0);
    ASSERT_GE(all, 0);
    sc_core::wait(nodes[0].dma->completion_irq());
    EXPECT_FALSE(p.write(dma::kQuery, static_cast<std::uint32_t>(all)));
    EXPECT_NE(nodes[0].dma->last_error().find("the fabric answered"), std::string::npos) << nodes[0].dma->last_error();
    EXPECT_NE(nodes[0].dma->last_error().find("no hardware broadcast"), std::string::npos) << nodes[0].dma->last_error();
  };
  sc_core::sc_start();
}

}  // namespace
}  // namespace meshmp
