// The channel dependency graph (hw/router/channel_dependencies.h, `meshmp check`) against counts derived
// by hand and against the simulation: dimension order on mesh:8x8 counted link by link; a ring without
// the dateline classes has its cycle, found and printed, and deadlocks when run, where the same network
// with them is acyclic and does not; every routing function on every topology it applies to is acyclic.
#include <gtest/gtest.h>

#include "hw/router/channel_dependencies.h"
#include "meshmp_process.h"

namespace meshmp {
namespace {

ChannelDependencyReport check(const std::string& topology, const std::string& routing = "dimension-order",
                              bool dateline = true, bool whole_segment = false) {
  RouterParams params;
  params.dateline = dateline;
  params.dateline_whole_segment = whole_segment;
  return check_channel_dependencies(Topology::parse(topology), with_routing(params, routing), PortModel::OnePort,
                                    find_routing_function(routing));
}

// mesh:8x8 under XY: 2 dimensions x 8 lines x 7 links x 2 directions = 224 channels. Dependencies: going
// on in the same direction, 6 per line and direction in each dimension (2 x 8 x 6 x 2 = 192); turning
// from x to y at a node, (channels arriving along x, 2 x 7 summed over the columns) x (channels leaving
// along y, 2 x 7 summed over the rows) = 14 x 14 = 196; never from y to x. 388 in all, over 64 x 63 routes.
TEST(ChannelDependencies, DimensionOrderOnTheMeshCountedByHand) {
  const ChannelDependencyReport report = check("mesh:8x8");
  EXPECT_EQ(report.channels, 224u);
  EXPECT_EQ(report.dependencies, 192u + 196u);
  EXPECT_EQ(report.routes, 64u * 63u);
  EXPECT_TRUE(report.acyclic()) << report.summary();
}

// ring:6 without the dateline: 12 channels; a message of 2 or 3 hops holds one channel while asking for
// the next of the same direction: 6 dependencies each way (ties of 3 hops go +), and the 6 channels of
// each direction close a cycle. With the dateline classes the cycle is broken at the wrap-around link.
TEST(ChannelDependencies, ARingWithoutTheDatelineHasItsCycle) {
  const ChannelDependencyReport without = check("ring:6", "dimension-order", false);
  EXPECT_EQ(without.channels, 12u);
  EXPECT_EQ(without.dependencies, 12u);
  ASSERT_EQ(without.cycle.size(), 6u) << without.summary();
  for (const std::string& channel : without.cycle) EXPECT_NE(channel.find(" d0"), std::string::npos) << channel;
  EXPECT_NE(without.summary().find("the configuration can deadlock"), std::string::npos);
  EXPECT_TRUE(check("ring:6").acyclic()) << check("ring:6").summary();
}

TEST(ChannelDependencies, EveryFunctionIsAcyclicWhereItApplies) {
  for (const char* topology : {"mesh:4x4", "mesh:3x5", "torus:4x4", "torus:5x3", "torus:3x3x3", "ring:7", "ring:8",
                               "hypercube:4", "ghc:3x4", "product:path4xring6"})
    for (const char* routing : {"dimension-order", "dimension-order-split-ties"}) {
      EXPECT_TRUE(check(topology, routing).acyclic()) << topology << " " << routing << ": " << check(topology, routing).summary();
      EXPECT_TRUE(check(topology, routing, true, true).acyclic()) << topology << " " << routing << " whole-segment";
    }
  for (const char* routing : {"west-first", "north-last", "negative-first", "odd-even"})
    for (const char* topology : {"mesh:4x4", "mesh:5x3", "mesh:6x7"})
      EXPECT_TRUE(check(topology, routing).acyclic()) << topology << " " << routing << ": " << check(topology, routing).summary();
}

// The checker and the simulation agree: torus:4x4 without the dateline is flagged (meshmp check exits 1
// printing the cycle, meshmp traffic warns before it starts) and deadlocks at a high load (the watchdog
// ends it, naming the same cycle); with the dateline it is acyclic (exit 0) and the same load runs to its end.
TEST(ChannelDependencies, AFlaggedTorusDeadlocksAndTheCheckedOneDoesNot) {
  const auto flagged = meshmp_test::meshmp("check -t torus:4x4 --no-dateline");
  EXPECT_EQ(flagged.status, 1) << flagged.output;
  EXPECT_TRUE(meshmp_test::contains(flagged.output, "a cycle of 4 channels, the configuration can deadlock"))
      << flagged.output;
  const std::string traffic = "traffic -t torus:4x4 --pattern uniform --rate 0.9 --warmup-cycles 2000 --measure-cycles 20000";
  const auto deadlocked = meshmp_test::meshmp(traffic + " --no-dateline");
  EXPECT_TRUE(meshmp_test::contains(deadlocked.output, "meshmp: warning: channel dependency graph")) << deadlocked.output;
  EXPECT_TRUE(meshmp_test::contains(deadlocked.output, "FAILED: deadlock")) << deadlocked.output;
  // The watchdog's report names the same cycle.
  const std::string cycle = flagged.output.substr(flagged.output.find("node ", flagged.output.find("can deadlock")));
  EXPECT_TRUE(meshmp_test::contains(
      deadlocked.output, "the routing's channel dependency graph has this cycle (meshmp check): " +
                             cycle.substr(0, cycle.find(" -> node", cycle.find(" -> node") + 1))))
      << deadlocked.output;
  EXPECT_NE(deadlocked.status, 0);

  const auto safe = meshmp_test::meshmp("check -t torus:4x4");
  EXPECT_EQ(safe.status, 0) << safe.output;
  EXPECT_TRUE(meshmp_test::contains(safe.output, "acyclic, deadlock-free")) << safe.output;
  const auto ran = meshmp_test::meshmp(traffic);
  EXPECT_EQ(ran.status, 0) << ran.output;
  EXPECT_FALSE(meshmp_test::contains(ran.output, "warning")) << ran.output;
  EXPECT_FALSE(meshmp_test::contains(ran.output, "deadlock")) << ran.output;
}

TEST(ChannelDependencies, TheCheckRefusesBadInputAndSaysWhenThereIsNoRouterNetwork) {
  const auto bad = meshmp_test::meshmp("check -t mesh:4x4 --routing zigzag");
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_TRUE(meshmp_test::contains(bad.output, "router.routing = 'zigzag': unknown routing function")) << bad.output;
  const auto fabric = meshmp_test::meshmp("check -t bus:8");
  EXPECT_EQ(fabric.status, 0) << fabric.output;
  EXPECT_TRUE(meshmp_test::contains(fabric.output, "no router network to check")) << fabric.output;
}

}  // namespace
}  // namespace meshmp
