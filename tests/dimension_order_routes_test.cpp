// Dimension-order routing (000 §2, 001 §1: XY on meshes and tori; 003 §3: e-cube on the hypercube) against
// routes written out by hand, never computed by the routing code: lowest dimension first, the shorter way
// round a ring, a half-way tie + (or, split, - from an odd coordinate). Node numbers: coordinate 0 varies
// fastest (node = x + X y + X Y z). Two kinds of test that share nothing but the routes written here:
//  - DimensionOrderRoutes: the routing function's ports, followed from node to node;
//  - DimensionOrderOnTheMachine: one message through a whole machine, and the links its flits crossed (in
//    the rtl/ pass too, where the verilated router computes its route in its own logic).
#include <gtest/gtest.h>

#include <vector>

#include "exchange_run.h"
#include "hw/machine/machine.h"
#include "hw/router/routing.h"

namespace meshmp {
namespace {

// The nodes a packet visits from `path.front()` to `path.back()` under `routing`.
std::vector<int> visited(const std::string& spec, RoutingFunction routing, int src, int dst) {
  const Topology topology = Topology::parse(spec);
  std::vector<int> nodes{src};
  for (int port : route_ports(topology, routing, src, dst)) nodes.push_back(topology.neighbor(nodes.back(), port));
  return nodes;
}

TEST(DimensionOrderRoutes, TwoDimensionalMeshGoesXThenY) {
  // mesh:4x4, (0,0) -> (3,2): (1,0) (2,0) (3,0) (3,1) (3,2).
  EXPECT_EQ(visited("mesh:4x4", &dimension_order_port, 0, 11), (std::vector<int>{0, 1, 2, 3, 7, 11}));
  // (3,3) -> (1,0): (2,3) (1,3) (1,2) (1,1) (1,0).
  EXPECT_EQ(visited("mesh:4x4", &dimension_order_port, 15, 1), (std::vector<int>{15, 14, 13, 9, 5, 1}));
  // mesh:5x3 (X = 5), (4,0) -> (0,2): (3,0) (2,0) (1,0) (0,0) (0,1) (0,2).
  EXPECT_EQ(visited("mesh:5x3", &dimension_order_port, 4, 10), (std::vector<int>{4, 3, 2, 1, 0, 5, 10}));
}

TEST(DimensionOrderRoutes, ThreeDimensionalMeshGoesXThenYThenZ) {
  // mesh:3x3x3, (0,0,0) -> (2,1,2): (1,0,0) (2,0,0) (2,1,0) (2,1,1) (2,1,2).
  EXPECT_EQ(visited("mesh:3x3x3", &dimension_order_port, 0, 23), (std::vector<int>{0, 1, 2, 5, 14, 23}));
  // (2,2,2) -> (0,0,1): (1,2,2) (0,2,2) (0,1,2) (0,0,2) (0,0,1).
  EXPECT_EQ(visited("mesh:3x3x3", &dimension_order_port, 26, 9), (std::vector<int>{26, 25, 24, 21, 18, 9}));
}

TEST(DimensionOrderRoutes, TorusTakesTheShorterWayRound) {
  // torus:5x5, (0,0) -> (4,3): x one step - across the wrap to (4,0); y two steps - to (4,4), (4,3).
  EXPECT_EQ(visited("torus:5x5", &dimension_order_port, 0, 19), (std::vector<int>{0, 4, 24, 19}));
  // (1,4) -> (3,0): x + to (2,4), (3,4); y + across the wrap to (3,0).
  EXPECT_EQ(visited("torus:5x5", &dimension_order_port, 21, 3), (std::vector<int>{21, 22, 23, 3}));
  // torus:4x4x4, (3,0,1) -> (0,3,3): x + across the wrap to (0,0,1); y - across it to (0,3,1); z half-way,
  // the tie + : (0,3,2), (0,3,3).
  EXPECT_EQ(visited("torus:4x4x4", &dimension_order_port, 19, 60), (std::vector<int>{19, 16, 28, 44, 60}));
}

TEST(DimensionOrderRoutes, HalfWayTiesOnEvenRings) {
  // torus:4x4, (1,1) -> (3,1), half-way: + by default ((2,1), (3,1)); split, - from odd x ((0,1), (3,1)).
  EXPECT_EQ(visited("torus:4x4", &dimension_order_port, 5, 7), (std::vector<int>{5, 6, 7}));
  EXPECT_EQ(visited("torus:4x4", &dimension_order_split_ties_port, 5, 7), (std::vector<int>{5, 4, 7}));
  // From even x the split tie goes + too: (0,2) -> (2,2) by (1,2).
  EXPECT_EQ(visited("torus:4x4", &dimension_order_split_ties_port, 8, 10), (std::vector<int>{8, 9, 10}));
  // ring:6, 4 -> 1: half-way from an even coordinate: + by both, across the wrap (5, 0, 1).
  EXPECT_EQ(visited("ring:6", &dimension_order_port, 4, 1), (std::vector<int>{4, 5, 0, 1}));
  EXPECT_EQ(visited("ring:6", &dimension_order_split_ties_port, 4, 1), (std::vector<int>{4, 5, 0, 1}));
}

TEST(DimensionOrderRoutes, HypercubeCorrectsTheLowestBitFirst) {
  // e-cube: 0000 -> 1011 flips bits 0, 1, 3: 0001, 0011, 1011.
  EXPECT_EQ(visited("hypercube:4", &dimension_order_port, 0, 11), (std::vector<int>{0, 1, 3, 11}));
  // 1101 -> 0110 flips bits 0, 1, 3: 1100, 1110, 0110.
  EXPECT_EQ(visited("hypercube:4", &dimension_order_port, 13, 6), (std::vector<int>{13, 12, 14, 6}));
}

// The links a 16-byte message (three flits) from `src` to `dst` crosses on a whole machine.
std::map<std::pair<int, int>, std::uint64_t> links_crossed(const std::string& spec, int src, int dst) {
  MachineConfig config;
  config.topology = spec;
  config.block_bytes = 16;
  Machine machine("machine", with_test_router_model(config), [src, dst](NodeApi& api) {
    if (api.id() == src) api.wait(api.send(dst, 0, 16, 1));
    if (api.id() == dst) api.wait(api.receive(src, 100, 16, 1));
  });
  const RunResult result = machine.run();
  EXPECT_EQ(result.status, RunStatus::Completed) << result.message;
  std::map<std::pair<int, int>, std::uint64_t> crossed;
  for (const auto& l : machine.network().link_counts())
    if (l.flits > 0) crossed[{l.src, l.dst}] = l.flits;
  return crossed;
}

TEST(DimensionOrderOnTheMachine, AMeshMessageCrossesXThenY) {
  // mesh:4x4, (0,0) -> (3,2).
  const std::map<std::pair<int, int>, std::uint64_t> expected{{{0, 1}, 3}, {{1, 2}, 3}, {{2, 3}, 3}, {{3, 7}, 3}, {{7, 11}, 3}};
  EXPECT_EQ(links_crossed("mesh:4x4", 0, 11), expected);
}

TEST(DimensionOrderOnTheMachine, ATorusMessageCrossesXThenYThenZTheShorterWays) {
  // torus:4x4x4, (3,0,1) -> (0,3,3).
  const std::map<std::pair<int, int>, std::uint64_t> expected{{{19, 16}, 3}, {{16, 28}, 3}, {{28, 44}, 3}, {{44, 60}, 3}};
  EXPECT_EQ(links_crossed("torus:4x4x4", 19, 60), expected);
}

}  // namespace
}  // namespace meshmp
