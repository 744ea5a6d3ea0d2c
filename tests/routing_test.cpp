// Routing on rings: dimension-order routing sends every half-way message of an even ring in the +
// direction (the documented default); dimension-order-split-ties sends it + from an even coordinate and -
// from an odd one, which balances the two directions, and stays deadlock-free with the dateline classes.
// A ring of 2 nodes is one link each way, so no link exists that routing never uses.
#include <gtest/gtest.h>

#include "firmware/api/algorithm_registry.h"
#include "firmware/api/exchange_verifier.h"
#include "hw/machine/machine.h"
#include "hw/router/routing.h"

namespace meshmp {
namespace {

struct DirectionLoad {
  std::uint64_t plus_flits_max = 0, plus_flits_min = ~0ull;
  std::uint64_t minus_flits_max = 0, minus_flits_min = ~0ull;
};

// Runs the direct exchange with 8-byte blocks (2 flits per message) and returns the per-link loads.
DirectionLoad direct_exchange_link_loads(const std::string& topology, const std::string& routing,
                                         std::uint32_t block_bytes = 8) {
  MachineConfig config;
  config.topology = topology;
  config.routing = routing;
  config.block_bytes = block_bytes;
  EXPECT_FALSE(config.validate().has_value());
  Machine machine("machine", config, find_algorithm("direct"));
  for (int i = 0; i < machine.topology().num_nodes(); ++i)
    fill_exchange_memory(machine.node(i).memory.bytes(), machine.layout(), i);
  const RunResult result = machine.run();
  EXPECT_EQ(result.status, RunStatus::Completed) << result.message;
  const VerificationReport report = verify_exchange(
      machine.layout(), [&](int i) -> const std::vector<std::uint8_t>& { return machine.node(i).memory.bytes(); });
  EXPECT_TRUE(report.ok());
  DirectionLoad load;
  for (const LinkCount& l : machine.network().link_counts()) {
    const bool plus = machine.topology().port(l.port).offset > 0;
    auto& hi = plus ? load.plus_flits_max : load.minus_flits_max;
    auto& lo = plus ? load.plus_flits_min : load.minus_flits_min;
    hi = std::max(hi, l.flits);
    lo = std::min(lo, l.flits);
  }
  return load;
}

// 4x4 torus, all-to-all, 2-flit messages. Per ring of 4, a + link carries the offset-1 messages (one hop:
// 4 per link) and, by default, both hops of the offset-2 ones (8 per link): 12 messages = 24 flits; a -
// link only the offset-3 ones: 4 messages = 8 flits. Split ties move half of the offset-2 messages to the
// - direction: 8 messages = 16 flits on every link.
TEST(RingRouting, DefaultSendsHalfWayTiesPlus) {
  const DirectionLoad load = direct_exchange_link_loads("torus:4x4", "dimension-order");
  EXPECT_EQ(load.plus_flits_min, 24u);
  EXPECT_EQ(load.plus_flits_max, 24u);
  EXPECT_EQ(load.minus_flits_min, 8u);
  EXPECT_EQ(load.minus_flits_max, 8u);
}

TEST(RingRouting, SplitTiesBalanceTheDirections) {
  const DirectionLoad load = direct_exchange_link_loads("torus:4x4", "dimension-order-split-ties");
  EXPECT_EQ(load.plus_flits_min, 16u);
  EXPECT_EQ(load.plus_flits_max, 16u);
  EXPECT_EQ(load.minus_flits_min, 16u);
  EXPECT_EQ(load.minus_flits_max, 16u);
}

// Long messages (several packets each) on tori with even and odd rings, byte-exact (one machine per test:
// SystemC elaborates one design per process).
TEST(RingRouting, SplitTiesRunHeavyTrafficWithoutDeadlockEvenRings) {
  direct_exchange_link_loads("torus:6x4", "dimension-order-split-ties", 300);
}

TEST(RingRouting, SplitTiesRunHeavyTrafficWithoutDeadlockMixedRings) {
  direct_exchange_link_loads("torus:8x3", "dimension-order-split-ties", 300);
}

TEST(RingRouting, SplitTiesTakeShortestPaths) {
  for (const char* spec : {"torus:4x6", "torus:5x4x2", "ring:8", "mesh:3x4", "ghc:3x4"}) {
    const Topology t = Topology::parse(spec);
    for (int a = 0; a < t.num_nodes(); ++a)
      for (int b = 0; b < t.num_nodes(); ++b)
        ASSERT_EQ(static_cast<int>(route_ports(t, &dimension_order_split_ties_port, a, b).size()), t.distance(a, b))
            << spec << " " << a << "->" << b;
  }
  // On ring:4 the half-way message from 1 to 3 goes -, from 0 to 2 goes +.
  const Topology ring = Topology::parse("ring:4");
  EXPECT_EQ(dimension_order_split_ties_port(ring, 1, 3), ring.port_of(0, -1));
  EXPECT_EQ(dimension_order_split_ties_port(ring, 0, 2), ring.port_of(0, +1));
}

TEST(RingRouting, RingOfTwoIsOneLinkEachWay) {
  const Topology ring = Topology::parse("ring:2");
  EXPECT_EQ(ring.num_ports(), 1);
  EXPECT_EQ(ring.port_of(0, -1), ring.port_of(0, +1));
  EXPECT_EQ(Topology::parse("torus:2x4").num_ports(), 1 + 2);
  // Every link of torus:2x4 carries traffic: none is a never-used second link between the same two nodes.
  const DirectionLoad load = direct_exchange_link_loads("torus:2x4", "dimension-order");
  EXPECT_GT(load.plus_flits_min, 0u);
  EXPECT_GT(load.minus_flits_min, 0u);
}

}  // namespace
}  // namespace meshmp
