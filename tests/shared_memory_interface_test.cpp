// A node's DMA engine on 004's shared-memory machine (hw/fabric/shared_memory_interface.h) with the banked
// global memory (tlm/shared_memory.h): processors write their local bytes into the global memory and read
// others' back, byte for byte, at the memory's times; accesses to different banks run at once up to k*;
// the machine has no messages, and a refused access is an error every register access then reports.
#include <gtest/gtest.h>

#include <memory>

#include "hw/fabric/shared_memory_interface.h"
#include "register_processor.h"
#include "tlm/node_memory.h"
#include "tlm/shared_memory.h"

namespace meshmp {
namespace {

constexpr std::uint64_t kTau = 10;
constexpr std::uint32_t kBytesPerCycle = 8;
const sc_core::sc_time kCycle(1, sc_core::SC_NS);

struct TestNode {
  std::unique_ptr<NodeMemory> memory;
  std::unique_ptr<SharedMemoryInterface> dma;
  std::unique_ptr<TestProcessor> cpu;
  sc_core::sc_time done;
};

std::vector<TestNode> nodes_on(SharedMemory& global, int k, std::size_t memory_bytes) {
  std::vector<TestNode> nodes(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) {
    TestNode& n = nodes[i];
    const std::string id = std::to_string(i);
    n.memory = std::make_unique<NodeMemory>(("memory" + id).c_str(), memory_bytes);
    n.dma = std::make_unique<SharedMemoryInterface>(("dma" + id).c_str(), i, memory_bytes);
    n.cpu = std::make_unique<TestProcessor>(("cpu" + id).c_str());
    n.cpu->dma_port.bind(n.dma->registers);
    n.cpu->memory_port.bind(n.memory->cpu_port);
    n.dma->memory_port.bind(n.memory->dma_port);
    n.dma->global_port.bind(global.processors);
  }
  return nodes;
}

std::uint8_t pattern(int node, std::uint32_t b) { return static_cast<std::uint8_t>(17 * node + 3 * b + 1); }

TEST(SharedMemoryInterface, AWriteThenAnotherNodesReadMoveTheBytesThroughTheGlobalMemory) {
  SharedMemory global("global", 2, 4096, 8, 8, 2, FabricTiming{kTau, kBytesPerCycle}, kCycle);
  std::vector<TestNode> nodes = nodes_on(global, 2, 1024);
  for (std::uint32_t b = 0; b < 64; ++b) nodes[0].memory->bytes()[b] = pattern(0, b);
  sc_core::sc_event written;
  nodes[0].cpu->script = [&](TestProcessor& p) {
    p.wait_done(p.access(dma::kCommandSharedWrite, 512, 0, 64), nodes[0].dma->completion_irq());
    nodes[0].done = sc_core::sc_time_stamp();
    written.notify();
  };
  nodes[1].cpu->script = [&](TestProcessor& p) {
    sc_core::wait(written);
    p.wait_done(p.access(dma::kCommandSharedRead, 512, 256, 64), nodes[1].dma->completion_irq());
    nodes[1].done = sc_core::sc_time_stamp();
  };
  sc_core::sc_start();
  // One cycle of arbitration, tau, 64 bytes at 8 per cycle; the read starts when the write is done.
  EXPECT_EQ(nodes[0].done, kCycle * static_cast<double>(1 + kTau + 8));
  EXPECT_EQ(nodes[1].done, nodes[0].done + kCycle * static_cast<double>(1 + kTau + 8));
  for (std::uint32_t b = 0; b < 64; ++b) {
    EXPECT_EQ(global.bytes()[512 + b], pattern(0, b)) << b;
    EXPECT_EQ(nodes[1].memory->bytes()[256 + b], pattern(0, b)) << b;
  }
  EXPECT_EQ(nodes[0].dma->accesses() + nodes[1].dma->accesses(), 2u);
}

TEST(SharedMemoryInterface, AccessesToDifferentBanksRunAtOnceUpToThePorts) {
  // Four processors write 32-byte blocks at global word addresses 0, 1, 2, 3 (banks 0..3 of 8: their
  // bank schedules never collide) at the same time; the memory serves two at once (k* = 2).
  SharedMemory global("global", 4, 4096, 8, 8, 2, FabricTiming{kTau, kBytesPerCycle}, kCycle);
  std::vector<TestNode> nodes = nodes_on(global, 4, 256);
  for (int i = 0; i < 4; ++i) {
    for (std::uint32_t b = 0; b < 32; ++b) nodes[i].memory->bytes()[b] = pattern(i, b);
    nodes[i].cpu->script = [&nodes, i](TestProcessor& p) {
      p.wait_done(p.access(dma::kCommandSharedWrite, static_cast<std::uint32_t>(8 * i), 0, 32),
                  nodes[i].dma->completion_irq());
      nodes[i].done = sc_core::sc_time_stamp();
    };
  }
  sc_core::sc_start();
  const std::uint64_t one = kTau + 4;  // tau + 32 / 8
  EXPECT_EQ(nodes[0].done, kCycle * static_cast<double>(1 + one));
  EXPECT_EQ(nodes[1].done, kCycle * static_cast<double>(1 + one));
  // The memory completes accesses before it grants at an edge: the ports the first two free at edge
  // 1 + one serve the other two from that edge.
  EXPECT_EQ(nodes[2].done, kCycle * static_cast<double>(1 + 2 * one));
  EXPECT_EQ(nodes[3].done, kCycle * static_cast<double>(1 + 2 * one));
  EXPECT_EQ(global.statistics().peak_concurrent, 2u);
  EXPECT_EQ(global.statistics().port_waits, 2u);
  // The blocks overlap (each starts one word after the one before); at one edge the later grant wins a
  // byte, and node 3 is granted after node 2: its 32 bytes stand whole.
  for (std::uint32_t b = 0; b < 32; ++b) EXPECT_EQ(global.bytes()[24 + b], pattern(3, b)) << b;
}

// GLOBAL_PIECE and GLOBAL_STRIDE (004 §3.5 B's destination-major transposition): node 0 writes its 32
// bytes as 4 pieces of 8, one every 64 bytes, in one access (one tau: 1 + tau + 4 cycles); node 1 reads
// the second piece's column back contiguously. A later contiguous access writes GLOBAL_PIECE 0.
TEST(SharedMemoryInterface, AStridedAccessPutsItsPiecesAStrideApart) {
  SharedMemory global("global", 2, 4096, 8, 8, 2, FabricTiming{kTau, kBytesPerCycle}, kCycle);
  std::vector<TestNode> nodes = nodes_on(global, 2, 1024);
  for (std::uint32_t b = 0; b < 32; ++b) nodes[0].memory->bytes()[b] = pattern(0, b);
  sc_core::sc_event written;
  nodes[0].cpu->script = [&](TestProcessor& p) {
    p.write(dma::kGlobalPiece, 8);
    p.write(dma::kGlobalStride, 64);
    p.wait_done(p.access(dma::kCommandSharedWrite, 128, 0, 32), nodes[0].dma->completion_irq());
    nodes[0].done = sc_core::sc_time_stamp();
    written.notify();
  };
  nodes[1].cpu->script = [&](TestProcessor& p) {
    sc_core::wait(written);
    p.write(dma::kGlobalPiece, 0);
    p.wait_done(p.access(dma::kCommandSharedRead, 128 + 64, 0, 8), nodes[1].dma->completion_irq());
  };
  sc_core::sc_start();
  EXPECT_EQ(nodes[0].done, kCycle * static_cast<double>(1 + kTau + 4));
  for (std::uint32_t b = 0; b < 32; ++b)
    EXPECT_EQ(global.bytes()[128 + (b / 8) * 64 + b % 8], pattern(0, b)) << b;
  EXPECT_EQ(global.bytes()[128 + 8], 0);  // between the pieces
  for (std::uint32_t b = 0; b < 8; ++b) EXPECT_EQ(nodes[1].memory->bytes()[b], pattern(0, 8 + b)) << b;
}

TEST(SharedMemoryInterface, StridedPiecesThatDoNotFitAreRefusedNamingTheRegister) {
  SharedMemory global("global", 1, 1024, 4, 8, 1, FabricTiming{kTau, kBytesPerCycle}, kCycle);
  std::vector<TestNode> nodes = nodes_on(global, 1, 128);
  nodes[0].cpu->script = [&](TestProcessor& p) {
    p.write(dma::kGlobalPiece, 16);
    p.write(dma::kGlobalStride, 32);
    EXPECT_EQ(p.access(dma::kCommandSharedWrite, 0, 0, 24), -1);
    EXPECT_NE(nodes[0].dma->last_error().find("GLOBAL_PIECE = 16 does not divide LENGTH"), std::string::npos)
        << nodes[0].dma->last_error();
    p.write(dma::kGlobalStride, 8);
    EXPECT_EQ(p.access(dma::kCommandSharedWrite, 0, 0, 32), -1);
    EXPECT_NE(nodes[0].dma->last_error().find("GLOBAL_STRIDE = 8 is less than GLOBAL_PIECE = 16"), std::string::npos)
        << nodes[0].dma->last_error();
    EXPECT_EQ(p.read(dma::kGlobalStride), 8u);
  };
  sc_core::sc_start();
}

TEST(SharedMemoryInterface, NoMessagesAndRefusedAccessesAreErrorsThatSayWhy) {
  SharedMemory global("global", 1, 1024, 4, 8, 1, FabricTiming{kTau, kBytesPerCycle}, kCycle);
  std::vector<TestNode> nodes = nodes_on(global, 1, 128);
  nodes[0].cpu->script = [&](TestProcessor& p) {
    EXPECT_EQ(p.issue(dma::kCommandSend, 0, 0, 8, 0), -1);
    EXPECT_NE(nodes[0].dma->last_error().find("a shared-memory machine has no messages"), std::string::npos)
        << nodes[0].dma->last_error();
    EXPECT_EQ(p.access(dma::kCommandSharedRead, 0, 120, 16), -1);
    EXPECT_NE(nodes[0].dma->last_error().find("exceeds the local memory of 128 bytes"), std::string::npos);
    // Beyond the global memory: the memory answers an address error, and every register access says so.
    const int far = p.access(dma::kCommandSharedWrite, 1020, 0, 16);
    ASSERT_GE(far, 0);
    sc_core::wait(nodes[0].dma->completion_irq());
    EXPECT_FALSE(p.write(dma::kQuery, static_cast<std::uint32_t>(far)));
    EXPECT_NE(nodes[0].dma->last_error().find("the memory answered"), std::string::npos) << nodes[0].dma->last_error();
  };
  sc_core::sc_start();
}

}  // namespace
}  // namespace meshmp
