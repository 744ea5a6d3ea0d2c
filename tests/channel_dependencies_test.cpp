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
                              bool dateline = true, bool whole_segment = false, int vcs = 4) {
  RouterParams params;
  params.vcs = vcs;
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
  for (const char* topology : {"mesh:4x4", "mesh:3x5", "torus:4x4", "torus:5x3", "torus:3x3x3", "ring:7", "ring:8",
                               "hypercube:4", "ghc:3x4", "product:path4xring6"})
    for (const char* routing : {"min-adaptive", "valiant", "romm"})
      for (bool whole_segment : {false, true}) {
        if (whole_segment && std::string(topology).rfind("mesh", 0) == 0) continue;
        const ChannelDependencyReport report = check(topology, routing, true, whole_segment);
        EXPECT_TRUE(report.acyclic()) << topology << " " << routing << ": " << report.summary();
      }
}

// Duato's condition for min-adaptive: its adaptive channels close cycles (a fully adaptive minimal function
// does), and what decides is the escape channels' graph, which on mesh:8x8 is dimension order's, counted
// by hand above: 224 channels, 388 dependencies. On torus:4x4 the escape channels are the dateline classes'.
TEST(ChannelDependencies, MinAdaptiveIsDeadlockFreeByItsEscapeChannels) {
  const ChannelDependencyReport mesh = check("mesh:8x8", "min-adaptive");
  EXPECT_TRUE(mesh.acyclic()) << mesh.summary();
  EXPECT_EQ(mesh.escape_channels, 224u);
  EXPECT_EQ(mesh.escape_dependencies, 192u + 196u);
  EXPECT_EQ(mesh.channels, 2u * 224u) << "each link's escape VC and its adaptive VCs";
  EXPECT_NE(mesh.summary().find("deadlock-free (Duato)"), std::string::npos) << mesh.summary();
  const ChannelDependencyReport torus = check("torus:4x4", "min-adaptive");
  const ChannelDependencyReport dimension_order = check("torus:4x4");
  EXPECT_TRUE(torus.acyclic()) << torus.summary();
  // More than dimension order's own: a packet that crossed a ring's wrap-around link on an adaptive VC
  // takes the escape route on from there in the upper dateline class.
  EXPECT_GE(torus.escape_channels, dimension_order.channels);
  EXPECT_GE(torus.escape_dependencies, dimension_order.dependencies);
}

// Configurations known to deadlock are flagged with a cycle and do deadlock when run at a high load (the
// watchdog names the cycle); the same machines with their deadlock avoidance on are acyclic and run on.
class FlaggedConfiguration : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(FlaggedConfiguration, IsFlaggedAndDeadlocksWhereTheSafeOneRunsOn) {
  const auto& [safe_machine, broken_machine] = GetParam();
  const auto flagged = meshmp_test::meshmp("check " + broken_machine);
  EXPECT_EQ(flagged.status, 1) << flagged.output;
  EXPECT_TRUE(meshmp_test::contains(flagged.output, "the configuration can deadlock")) << flagged.output;
  const std::string traffic = "traffic --pattern uniform --rate 0.9 --buffer-flits 2 --warmup-cycles 1000 "
                              "--measure-cycles 20000 --drain-cycles 0 ";
  const auto deadlocked = meshmp_test::meshmp(traffic + broken_machine);
  EXPECT_TRUE(meshmp_test::contains(deadlocked.output, "FAILED: deadlock")) << deadlocked.output;
  EXPECT_TRUE(meshmp_test::contains(deadlocked.output, "the routing's channel dependency graph has this cycle"))
      << deadlocked.output;
  const auto safe = meshmp_test::meshmp("check " + safe_machine);
  EXPECT_EQ(safe.status, 0) << safe.output;
  const auto ran = meshmp_test::meshmp(traffic + safe_machine);
  EXPECT_EQ(ran.status, 0) << ran.output;
  EXPECT_FALSE(meshmp_test::contains(ran.output, "deadlock")) << ran.output;
}

// Fully adaptive minimal routing without escape channels; Valiant with both phases on one VC class.
INSTANTIATE_TEST_SUITE_P(
    Breakers, FlaggedConfiguration,
    ::testing::Values(std::pair<std::string, std::string>{"-t mesh:4x4 --routing min-adaptive --vcs 2",
                                                          "-t mesh:4x4 --routing min-adaptive --vcs 1 --no-escape-channels"},
                      std::pair<std::string, std::string>{"-t mesh:4x4 --routing valiant --vcs 2",
                                                          "-t mesh:4x4 --routing valiant --vcs 1 --no-phase-classes"}),
    [](const auto& info) { return std::string(info.index == 0 ? "NoEscapeChannels" : "ValiantOneClass"); });

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

// A two-phase function's walk takes every intermediate node (N^3 routes): runs check it before they start
// on up to 64 nodes, not 256 (checked_before_run); `meshmp check` checks any size.
TEST(ChannelDependencies, RunsCheckATwoPhaseFunctionOnSmallerMachinesOnly) {
  const std::string traffic = "traffic --routing valiant --vcs 2 --no-phase-classes --rate 0.01 --warmup-cycles 10 "
                              "--measure-cycles 100 -t ";
  const auto small = meshmp_test::meshmp(traffic + "mesh:8x8");
  EXPECT_TRUE(meshmp_test::contains(small.output, "meshmp: warning: channel dependency graph")) << small.output;
  const auto large = meshmp_test::meshmp(traffic + "mesh:9x9");
  EXPECT_EQ(large.status, 0) << large.output;
  EXPECT_FALSE(meshmp_test::contains(large.output, "warning")) << large.output;
  EXPECT_EQ(meshmp_test::meshmp("check --routing valiant --vcs 2 --no-phase-classes -t mesh:9x9").status, 1);
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
