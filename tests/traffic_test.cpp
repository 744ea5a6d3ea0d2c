// `meshmp traffic` end to end (the binary in a child process): the latency-vs-load curve of the 8x8 mesh
// with the router configured like BookSim2's default input-queued router (4-cycle routers, 1-cycle links,
// 4 VCs x 8 flits, 4-flit packets, dimension order, the source itself among the destinations) lies within
// 2 % of BookSim2's measured curve (sims/reference/) at a low and a medium load, on short windows; the
// full comparison is docs/booksim2-fidelity.md. Patterns reach the destinations they define; bad parameters
// are refused with the rule.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "sims/traffic_command.h"
#include "meshmp_process.h"

namespace {

using meshmp_test::meshmp;
using meshmp_test::Outcome;

using meshmp_test::traffic_point;

const std::string kLikeBookSim = "--topology mesh:8x8 --pipeline-depth 4 --link-latency 1 --vcs 4 --buffer-flits 8 "
                                 "--packet-flits 4 --warmup-cycles 5000 --measure-cycles 30000 ";

// BookSim2's average latencies (sims/reference/booksim2-mesh8x8-uniform.csv) at 0.05 and 0.25.
TEST(Traffic, LowLoadLatencyWithinTwoPercentOfBookSim2) {
  const auto p = traffic_point(kLikeBookSim + "--rate 0.05");
  EXPECT_NEAR(p["average_packet_latency_cycles"].get<double>() / 36.8172, 1.0, 0.02);
  EXPECT_NEAR(p["accepted_flits_per_node_per_cycle"].get<double>(), 0.05, 0.002);
  EXPECT_NEAR(p["average_hops"].get<double>(), 5.25, 0.1) << "uniform over 64 nodes, self included: 5.25 hops";
}

TEST(Traffic, MediumLoadLatencyWithinTwoPercentOfBookSim2) {
  const auto p = traffic_point(kLikeBookSim + "--rate 0.25");
  EXPECT_NEAR(p["average_packet_latency_cycles"].get<double>() / 42.0757, 1.0, 0.02);
  EXPECT_NEAR(p["accepted_flits_per_node_per_cycle"].get<double>(), 0.25, 0.005);
}

// The credit loop as BookSim2's input-queued router has it (28f43299, its defaults, 4-cycle routers,
// 1-cycle links): one 8-flit packet over one hop takes 19 cycles from creation to tail ejection with
// 16-flit buffers, and 20, 23 and 28 with 4, 3 and 2 (measured there on a 1-D mesh, packets alone in
// the network). Here: a 2-node mesh at a load where packets almost never meet, the defaults otherwise.
TEST(Traffic, ShallowBuffersCostWhatTheyCostInBookSim2) {
  for (const auto& [buffer, booksim] : {std::pair{16, 19.0}, std::pair{4, 20.0}, std::pair{3, 23.0}, std::pair{2, 28.0}}) {
    const auto p = traffic_point("--topology mesh:2 --exclude-self --pipeline-depth 4 --vcs 2 --packet-flits 8 --rate 0.002 "
                         "--buffer-flits " + std::to_string(buffer));
    EXPECT_NEAR(p["average_packet_latency_cycles"].get<double>(), booksim, 0.05) << buffer << "-flit buffers";
  }
}

TEST(Traffic, NeighbourPatternIsOneHop) {
  const auto p = traffic_point("--topology torus:4x4 --pattern neighbour --rate 0.05 --measure-cycles 5000");
  EXPECT_DOUBLE_EQ(p["average_hops"].get<double>(), 1.0);
}

TEST(Traffic, TransposeAndBitComplementHops) {
  // mesh:4x4 transpose: (x,y) -> (y,x) is 2|x-y| hops; averaged over the 16 nodes: 2 * 40/16 = 5 / ...
  // (the diagonal sends to itself, 0 hops). Sum of |x-y| over 4x4 = 20, so 40/16 = 2.5 hops.
  auto p = traffic_point("--topology mesh:4x4 --pattern transpose --rate 0.05 --measure-cycles 20000");
  EXPECT_NEAR(p["average_hops"].get<double>(), 2.5, 0.1);
  // hypercube:4 bit complement: every packet crosses all 4 dimensions.
  p = traffic_point("--topology hypercube:4 --pattern bit-complement --rate 0.05 --measure-cycles 5000");
  EXPECT_DOUBLE_EQ(p["average_hops"].get<double>(), 4.0);
}

// average_hops counts the links each measured packet's head crossed. Dimension order and ROMM route
// minimally: the same as the minimal distances, packet for packet. Valiant goes to an intermediate node
// uniform over the 64 and on from there: each leg is a distance between independent uniform nodes of
// mesh:8x8, 2 x (8^2 - 1) / (3 x 8) = 5.25 hops, so 10.5 in all (about 32000 packets: a standard error
// near 0.02); its minimal distances stay those of its destinations.
TEST(Traffic, MeasuredHopsAreTheLinksEachHeadCrossed) {
  for (const char* minimal : {"dimension-order", "romm"}) {
    const auto p = traffic_point(std::string("--topology mesh:8x8 --rate 0.1 --routing ") + minimal);
    EXPECT_EQ(p["average_hops"].get<double>(), p["average_minimal_hops"].get<double>()) << minimal;
    EXPECT_NEAR(p["average_hops"].get<double>(), 5.25, 0.05) << minimal;
  }
  const auto valiant = traffic_point("--topology mesh:8x8 --rate 0.1 --routing valiant");
  EXPECT_NEAR(valiant["average_hops"].get<double>(), 10.5, 0.08);
  EXPECT_NEAR(valiant["average_minimal_hops"].get<double>(), 5.25, 0.05);
}

TEST(Traffic, PatternsRefuseTopologiesWhereTheyAreUndefined) {
  Outcome o = meshmp("traffic --topology mesh:2x3 --pattern bit-complement");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("needs a power-of-two number of nodes"), std::string::npos) << o.output;
  o = meshmp("traffic --topology mesh:4x3 --pattern transpose");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("needs a square 2-D topology"), std::string::npos) << o.output;
  o = meshmp("traffic --pattern zigzag");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("traffic.pattern = 'zigzag'"), std::string::npos) << o.output;
  o = meshmp("traffic --rate 1.5");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("must be in (0, 1]"), std::string::npos) << o.output;
  o = meshmp("traffic --rates 0.3:0.1:0.1");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("FROM:TO:STEP"), std::string::npos) << o.output;
}

// A traffic result holds its whole configuration under "config"; `traffic --config` of it is the same
// run, options given on the command line override it, and its traffic section is checked key by key.
TEST(Traffic, AResultsConfigReproducesItAndOptionsOverrideIt) {
  const std::string base = ::testing::TempDir() + "meshmp_traffic_config_" + std::to_string(getpid());
  const nlohmann::json first = traffic_point("--topology mesh:4x4 --vcs 2 --pattern hotspot --hotspot-node 3 --rate 0.15 "
                                     "--packet-flits 6 --warmup-cycles 300 --measure-cycles 1000 --seed 5");
  std::ofstream(base + ".json") << first["config"].dump(1);
  nlohmann::json again = traffic_point("--config " + base + ".json");
  for (const char* key : {"average_packet_latency_cycles", "accepted_flits_per_node_per_cycle", "measured_packets",
                          "average_hops", "config"})
    EXPECT_EQ(again[key], first[key]) << key;
  const nlohmann::json faster = traffic_point("--config " + base + ".json --rate 0.05");
  EXPECT_EQ(faster["config"]["traffic"]["rate"], 0.05);
  EXPECT_EQ(faster["config"]["traffic"]["pattern"], "hotspot");
  EXPECT_EQ(faster["config"]["router"]["vcs"], 2);

  nlohmann::json bad = first["config"];
  bad["traffic"]["burst"] = 3;
  std::ofstream(base + "_bad.json") << bad.dump();
  Outcome o = meshmp("traffic --config " + base + "_bad.json");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("traffic.burst = '3': unknown key"), std::string::npos) << o.output;
  bad = first["config"];
  bad["traffic"]["seed"] = "five";
  std::ofstream(base + "_bad.json") << bad.dump();
  o = meshmp("traffic --config " + base + "_bad.json");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("traffic.seed = '\"five\"': must be a whole number"), std::string::npos) << o.output;
  bad = first["config"];
  bad["traffic"]["pattern"] = "uniform";
  std::ofstream(base + "_bad.json") << bad.dump();
  o = meshmp("traffic --config " + base + "_bad.json");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("traffic.hotspot_node = '3': applies to pattern hotspot only"), std::string::npos) << o.output;

  // A sweep's file holds its loads: the points run from it, each at its own rate.
  nlohmann::json sweep = first["config"];
  sweep["traffic"].erase("rate");
  sweep["traffic"]["rates"] = "0.05,0.1";
  std::ofstream(base + "_sweep.json") << sweep.dump();
  o = meshmp("traffic --config " + base + "_sweep.json --csv " + base + ".csv --png " + base + ".png -o " + base +
             "_curve.json");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("[2/2] offered 0.100"), std::string::npos) << o.output;
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(base + "_curve.json"))["config"]["traffic"]["rates"], "0.05,0.1");
  // --rates given over a one-load file sweeps those loads.
  o = meshmp("traffic --config " + base + ".json --rates 0.05,0.08 --csv " + base + ".csv --png " + base + ".png");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("[2/2] offered 0.080"), std::string::npos) << o.output;
  for (const char* suffix : {".json", "_bad.json", "_sweep.json", ".csv", ".png", "_curve.json"})
    std::remove((base + suffix).c_str());
}

TEST(Traffic, SaturationIsWhereLatencyTriples) {
  EXPECT_DOUBLE_EQ(meshmp::saturation_load({0.1, 0.2, 0.3}, {10, 20, 40}), 0.25);
  EXPECT_LT(meshmp::saturation_load({0.1, 0.2}, {10, 12}), 0);
}

}  // namespace
