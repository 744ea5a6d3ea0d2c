// The node API on the machine: source routes take exactly the ports given; null messages signal between
// nodes (001 §7.2); the all-port model injects on every direction at once while the one-port model
// serialises a node's messages through its single injection channel.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "meshmp_process.h"

#include "firmware/api/algorithm_registry.h"
#include "topology/config_error.h"
#include "hw/machine/machine.h"
#include "hw/router/routing.h"

namespace meshmp {
namespace {

std::uint64_t link_flits(const Machine& machine, int src, int dst) {
  std::uint64_t flits = 0;
  for (const auto& l : machine.network().link_counts())
    if (l.src == src && l.dst == dst) flits += l.flits;
  return flits;
}

TEST(NodeApi, SourceRouteTakesTheGivenPorts) {
  MachineConfig config;
  config.topology = "torus:4x4";
  config.block_bytes = 16;
  Machine machine("machine", config, [](NodeApi& api) {
    const int minus = api.topology().port_of(0, -1);
    if (api.id() == 0) api.wait(api.send(1, 0, 16, 3, {minus, minus, minus}));  // 0 -> 3 -> 2 -> 1
    if (api.id() == 1) api.wait(api.receive(0, 100, 16, 3));
  });
  for (int b = 0; b < 16; ++b) machine.node(0).memory.bytes()[b] = static_cast<std::uint8_t>(200 + b);
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  for (int b = 0; b < 16; ++b) EXPECT_EQ(machine.node(1).memory.bytes()[100 + b], 200 + b);
  const std::uint64_t packet_flits = 1 + 16 / 8;
  EXPECT_EQ(link_flits(machine, 0, 3), packet_flits);
  EXPECT_EQ(link_flits(machine, 3, 2), packet_flits);
  EXPECT_EQ(link_flits(machine, 2, 1), packet_flits);
  EXPECT_EQ(link_flits(machine, 0, 1), 0u) << "dimension-order routing would have taken this link";
}

TEST(NodeApi, SourceRouteThatMissesThePeerIsAFirmwareError) {
  MachineConfig config;
  config.topology = "torus:4x4";
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 0) api.send(2, 0, 8, 1, {api.topology().port_of(0, +1)});
  });
  const RunResult result = machine.run();
  EXPECT_EQ(result.status, RunStatus::FirmwareError);
  EXPECT_NE(result.message.find("the source route ends at node 1, not at the peer"), std::string::npos)
      << result.message;
}

TEST(NodeApi, NullMessagesSignal) {
  MachineConfig config;
  config.topology = "ring:5";
  config.processor.startup_cycles = 10;
  static std::uint64_t released_at = 0;
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 3) {
      api.compute(500);
      api.signal(4, 77);
    }
    if (api.id() == 4) {
      api.wait_signal(3, 77);
      released_at = api.now_cycles();
    }
  });
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  EXPECT_GT(released_at, 510u) << "node 4 went on before node 3 signalled";
  EXPECT_LT(released_at, 530u) << "a one-hop null message takes a few cycles";
  EXPECT_EQ(link_flits(machine, 3, 4), 1u) << "a null message is a single head flit";
}

// Node 0 of a 4-cube sends one 64-byte message to each neighbour at once (t_s = 0).
std::vector<std::uint64_t> neighbour_latencies(PortModel model) {
  MachineConfig config;
  config.topology = "hypercube:4";
  config.port_model = model;
  config.processor.startup_cycles = 0;
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 0)
      for (int d = 0; d < 4; ++d) api.send(1 << d, 0, 64, 1);
    for (int d = 0; d < 4; ++d)
      if (api.id() == (1 << d)) api.wait(api.receive(0, 0, 64, 1));
  });
  machine.messages().keep_log();
  const RunResult result = machine.run();
  EXPECT_EQ(result.status, RunStatus::Completed) << result.message;
  std::vector<std::uint64_t> latencies;
  for (int d = 0; d < 4; ++d) latencies.push_back(machine.messages().received_by(1 << d).at(0).latency_cycles);
  return latencies;
}

// Zero-load latency of one 64-byte (8 payload flits) message over one hop with the default 2-cycle routers.
constexpr std::uint64_t kOneHop = 1 * (2 + 1) + 2 + 3 + 8;  // H(d + L) + d + 3 + P

TEST(NodeApi, AllPortInjectsOnEveryDirectionAtOnce) {
  for (std::uint64_t latency : neighbour_latencies(PortModel::AllPort)) EXPECT_EQ(latency, kOneHop);
}

TEST(NodeApi, OnePortSerialisesTheInjections) {
  const auto latencies = neighbour_latencies(PortModel::OnePort);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(latencies[k], kOneHop + k * 9u) << "message " << k << " waits for the 9 flits of each earlier one";
}


// Nodes 1 and 2 of a 2-cube send one 64-byte message (9 flits) each to node 0 in the same cycle; both
// heads reach router 0 in the same cycle on different input ports.
struct TwoSenders {
  std::uint64_t latency_from[3] = {0, 0, 0};
  std::uint64_t blocked_from[3] = {0, 0, 0};
  std::uint64_t header_blocking = 0;
};

TwoSenders two_senders_to_one_node(PortModel model, const std::string& waveform = "") {
  MachineConfig config;
  config.topology = "hypercube:2";
  config.port_model = model;
  config.processor.startup_cycles = 0;
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 1 || api.id() == 2) api.wait(api.send(0, 0, 64, 5));
    if (api.id() == 0) {
      Handle a = api.receive(1, 0, 64, 5);
      Handle b = api.receive(2, 64, 64, 5);
      api.wait(a);
      api.wait(b);
    }
  });
  if (!waveform.empty()) machine.open_waveform(waveform, {0});
  machine.messages().keep_log();
  const RunResult result = machine.run();
  EXPECT_EQ(result.status, RunStatus::Completed) << result.message;
  TwoSenders out;
  for (const auto& r : machine.messages().received_by(0)) {
    out.latency_from[r.src] = r.latency_cycles;
    out.blocked_from[r.src] = r.blocked_cycles;
  }
  out.header_blocking = machine.network().header_blocking_cycles();
  return out;
}

TEST(NodeApi, OnePortReceivesOneMessageAtATime) {
  const TwoSenders s = two_senders_to_one_node(PortModel::OnePort, ::testing::TempDir() + "one_port_receive.vcd");
  // Router 0 grants its ejection channel to the lower input port (dimension 0, from node 1); the head
  // from node 2 waits until the tail of the first has been ejected: 9 flits, 9 cycles of header blocking.
  EXPECT_EQ(s.latency_from[1], kOneHop);
  EXPECT_EQ(s.blocked_from[1], 0u);
  EXPECT_EQ(s.latency_from[2], kOneHop + 9) << "the second message must wait for the whole first one";
  EXPECT_EQ(s.blocked_from[2], 9u);
  EXPECT_EQ(s.header_blocking, 9u);
}

TEST(NodeApi, AllPortEjectsEachDirectionAtOnce) {
  const TwoSenders s = two_senders_to_one_node(PortModel::AllPort);
  EXPECT_EQ(s.latency_from[1], kOneHop);
  EXPECT_EQ(s.latency_from[2], kOneHop);
  EXPECT_EQ(s.header_blocking, 0u);
}


// Contention by hand. On mesh:4 (a path 0-1-2-3; 2-cycle routers, 1-cycle links, t_s = 0) node 0 sends a
// 9-flit message A to node 2 and node 1 a 9-flit message B to node 3 in the same cycle; both cross link
// 1->2. B's flits are written into router 1 (injection port, input 2) at cycles 2..10 and are ready two
// cycles later; A's arrive from router 0 (input 0) at 5..13, ready at 7..15. Each takes its own output
// VC, so neither head waits: header blocking 0. The + output of router 1 grants inputs round robin: B0,
// B1, B2 at 4, 5, 6; from cycle 7 A and B alternate (A0 7, B3 8, A1 9, B4 10, ..., B8 18, A6 19), then A7
// 20 and A8 21. B3..B8 each leave one cycle after they could have (6 stalls), A1..A6 likewise (6 stalls):
// 12 body-flit stall cycles, and A's tail arrives 6 cycles after its zero-load time.
TEST(NodeApi, TwoMessagesSharingALinkStallByTheHandCount) {
  MachineConfig config;
  config.topology = "mesh:4";
  config.processor.startup_cycles = 0;
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 0) api.wait(api.send(2, 0, 64, 1));
    if (api.id() == 1) api.wait(api.send(3, 0, 64, 1));
    if (api.id() == 2) api.wait(api.receive(0, 0, 64, 1));
    if (api.id() == 3) api.wait(api.receive(1, 0, 64, 1));
  });
  machine.messages().keep_log();
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  EXPECT_EQ(machine.network().header_blocking_cycles(), 0u);
  EXPECT_EQ(machine.network().body_stall_cycles(), 12u);
  const std::uint64_t zero_load_two_hops = 2 * (2 + 1) + 2 + 3 + 8;
  EXPECT_EQ(machine.messages().received_by(2).at(0).latency_cycles, zero_load_two_hops + 6);
  EXPECT_EQ(machine.messages().received_by(3).at(0).latency_cycles, zero_load_two_hops + 6);
}


// test() looks without waiting; wait_any() returns the first descriptor to complete: node 0 posts a
// receive from the far node 3 and one from its neighbour 1 of mesh:4; the neighbour's arrives first.
TEST(NodeApi, TestAndWaitAny) {
  MachineConfig config;
  config.topology = "mesh:4";
  config.processor.startup_cycles = 0;
  static bool tested_before = true;
  static std::size_t first = 99;
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 0) {
      const Handle far = api.receive(3, 0, 64, 1);
      const Handle near = api.receive(1, 64, 64, 1);
      tested_before = api.test(far) || api.test(near);
      first = api.wait_any({far, near});
    }
    if (api.id() == 3 || api.id() == 1) api.wait(api.send(0, 0, 64, 1));
  });
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  EXPECT_FALSE(tested_before) << "nothing can have arrived at cycle 0";
  EXPECT_EQ(first, 1u) << "the neighbour's message arrives first";
}

// A gather and a scatter as one local operation: strided pieces land where the descriptors say, in
// order, and the operation costs rho per byte of all pieces, rounded up once (0.25 x 6 = 1.5 -> 2 cycles,
// where six one-byte copies would cost 6).
TEST(NodeApi, StridedLocalCopiesGatherAndScatterAsOneOperation) {
  MachineConfig config;
  config.topology = "mesh:2";
  config.block_bytes = 64;
  config.processor.copy_cycles_per_byte = 0.25;
  static std::uint64_t cycles = 0;
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() != 0) return;
    const std::uint64_t start = api.now_cycles();
    api.local_copies({{200, 10, 1, 3, 1, 4},      // gather bytes 10, 14, 18 to 200..202
                      {230, 200, 1, 3, 2, 1}});   // scatter 200..202 to 230, 232, 234
    cycles = api.now_cycles() - start;
  });
  for (int b = 0; b < 32; ++b) machine.node(0).memory.bytes()[b] = static_cast<std::uint8_t>(b);
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  const auto& bytes = machine.node(0).memory.bytes();
  EXPECT_EQ(bytes[200], 10);
  EXPECT_EQ(bytes[201], 14);
  EXPECT_EQ(bytes[202], 18);
  EXPECT_EQ(bytes[230], 10);
  EXPECT_EQ(bytes[232], 14);
  EXPECT_EQ(bytes[234], 18);
  EXPECT_EQ(bytes[231], 0);
  EXPECT_EQ(cycles, 2u);
  EXPECT_EQ(machine.node(0).cpu.copied_bytes(), 6u);
}

// local_copy_each: each LocalCopy its own local operation, in order, with the time of as many
// local_copy calls (0.25 x 1 -> 1 cycle each, 0.25 x 6 -> 2: 4 cycles in all, where one operation would
// cost 2); one that leaves the memory is refused before any byte moves.
TEST(NodeApi, LocalCopyEachCostsAsManySeparateCopies) {
  MachineConfig config;
  config.topology = "mesh:2";
  config.block_bytes = 64;
  config.processor.copy_cycles_per_byte = 0.25;
  static std::uint64_t each_cycles = 0, single_cycles = 0;
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() != 0) return;
    std::uint64_t start = api.now_cycles();
    api.local_copy_each({{200, 10, 1}, {201, 200, 1}, {230, 20, 2, 3, 2, 1}});  // the second reads the first's byte
    each_cycles = api.now_cycles() - start;
    start = api.now_cycles();
    api.local_copy(240, 10, 1);
    api.local_copy(241, 240, 1);
    api.local_copies({{250, 20, 2, 3, 2, 1}});
    single_cycles = api.now_cycles() - start;
  });
  for (int b = 0; b < 32; ++b) machine.node(0).memory.bytes()[b] = static_cast<std::uint8_t>(b);
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  const auto& bytes = machine.node(0).memory.bytes();
  EXPECT_EQ(bytes[200], 10);
  EXPECT_EQ(bytes[201], 10);
  EXPECT_EQ(bytes[230], 20);
  EXPECT_EQ(bytes[232], 21);
  EXPECT_EQ(bytes[235], 23);
  EXPECT_EQ(single_cycles, 4u);
  EXPECT_EQ(each_cycles, single_cycles);
  EXPECT_EQ(machine.node(0).cpu.copied_bytes(), 16u);
}

TEST(NodeApi, LocalCopyEachOutsideTheMemoryMovesNothing) {
  MachineConfig config;
  config.topology = "mesh:2";
  config.block_bytes = 64;
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 0) api.local_copy_each({{200, 10, 1}, {0, 250, 8}});
  });
  for (int b = 0; b < 32; ++b) machine.node(0).memory.bytes()[b] = static_cast<std::uint8_t>(b);
  const RunResult result = machine.run();
  EXPECT_EQ(result.status, RunStatus::FirmwareError);
  EXPECT_NE(result.message.find("local copy of 8 bytes from 250 to 0 (piece 0 of copy 1) leaves the local memory of 256 bytes"),
            std::string::npos)
      << result.message;
  EXPECT_EQ(machine.node(0).memory.bytes()[200], 0);
}

TEST(NodeApi, StridedLocalCopyOutsideTheMemoryNamesThePiece) {
  MachineConfig config;
  config.topology = "mesh:2";
  config.block_bytes = 64;
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 0) api.local_copies({{0, 64, 8, 2, 8, 8}, {0, 0, 8, 100, 0, 8}});
  });
  const RunResult result = machine.run();
  EXPECT_EQ(result.status, RunStatus::FirmwareError);
  EXPECT_NE(result.message.find("local copy of 8 bytes from 792 to 0 (piece 99 of copy 1) leaves the local memory of 256 bytes"),
            std::string::npos)
      << result.message;
}

// An algorithm's options reach its firmware; bad ones are refused naming the option and the rule.
TEST(AlgorithmOptions, CheckedAgainstTheDeclarations) {
  const Algorithm& direct = find_algorithm("direct");
  EXPECT_EQ(AlgorithmOptions("direct", direct.options, {}).text("order"), "staggered");
  EXPECT_EQ(AlgorithmOptions("direct", direct.options, {{"order", "ascending"}}).text("order"), "ascending");
  auto error = [](const Algorithm& a, std::map<std::string, std::string> given) {
    try {
      AlgorithmOptions(a.name, a.options, given);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error(direct, {{"order", "random"}}),
            "algorithm_options.order = 'random': must be one of staggered, ascending");
  EXPECT_EQ(error(direct, {{"depth", "3"}}),
            "algorithm_options.depth = '3': algorithm direct has no such option; its options: order");
  EXPECT_EQ(error(find_algorithm("pairwise"), {{"order", "ascending"}}),
            "algorithm_options.order = 'ascending': algorithm pairwise takes no options");
}

TEST(AlgorithmOptions, ReachTheFirmware) {
  // Ascending order: in step 1 every node but node 0 sends to node 0, so node 0's ejection channel is the
  // hot spot; the staggered default has each node send to a different one.
  MachineConfig config;
  config.topology = "torus:4x4";
  config.algorithm_options = {{"order", "ascending"}};
  config.processor.startup_cycles = 0;
  Machine machine("machine", config, find_algorithm("direct"));
  for (int i = 0; i < 16; ++i) fill_exchange_memory(machine.node(i).memory.bytes(), machine.layout(), i);
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  // Measured: 11,742 cycles of header blocking ascending, 5,619 with the staggered default (334 vs 244
  // cycles; 323 vs 254 before a credit took a cycle in its output unit before its slot could be allocated).
  // Both numbers are regression pins (this model's, not derived); the test below holds the property.
  EXPECT_GT(machine.network().header_blocking_cycles(), 9000u) << "every node sent to node 0 first";
  EXPECT_EQ(result.completion_cycles, 334u);
}

// The property behind the pins above: the option reaches the firmware when the ascending order's hot spots
// (all 15 senders on one destination in each step) cost more time and more header blocking than the
// staggered default, where every node sends to a different one.
TEST(AlgorithmOptions, TheAscendingOrdersHotSpotsCostWhatTheStaggeredOrderAvoids) {
  auto run = [](const std::string& order) {
    const std::string path = ::testing::TempDir() + "/order-" + order + "-" + std::to_string(::getpid()) + ".json";
    const auto outcome = meshmp_test::meshmp("run -t torus:4x4 --startup-cycles 0 -q --algorithm-option order=" + order +
                                             " -o " + path);
    EXPECT_EQ(outcome.status, 0) << order << ": " << outcome.output;
    nlohmann::json stats = nlohmann::json::parse(std::ifstream(path))["statistics"];
    std::remove(path.c_str());
    return stats;
  };
  const nlohmann::json ascending = run("ascending"), staggered = run("staggered");
  EXPECT_GT(ascending["completion_cycles"].get<std::uint64_t>(), staggered["completion_cycles"].get<std::uint64_t>());
  EXPECT_GT(ascending["network"]["header_blocking_cycles"].get<std::uint64_t>(),
            staggered["network"]["header_blocking_cycles"].get<std::uint64_t>());
}

}  // namespace
}  // namespace meshmp
