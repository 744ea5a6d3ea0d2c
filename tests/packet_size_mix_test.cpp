// Mixes of packet sizes in `meshmp traffic` (--packet-sizes with --packet-size-rates, BookSim2's
// packet_size and packet_size_rate): each packet's size drawn with the weights while the offered load stays
// in flits; the mix's misuses are refused naming the rule, and a result's config reproduces its run.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "meshmp_process.h"

namespace {

using meshmp_test::meshmp;
using meshmp_test::Outcome;

using meshmp_test::traffic_point;

// Sizes 1, 4, 8 weighed 1:2:1: a mean of (1 + 2 x 4 + 8) / 4 = 4.25 flits, a variance of 97/4 - 4.25^2 =
// 6.19. At 0.3 flits/node/cycle on mesh:8x8 (below saturation) about 90000 packets are measured: the mean
// size has a standard error of 0.008 and the offered load, over 1.28 million node-cycles, 0.0011; both are
// asserted within 5 of them. The accepted load is the offered one.
TEST(PacketSizeMix, SizesAreDrawnWithTheirWeightsAndTheLoadStaysInFlits) {
  const auto p = traffic_point("--topology mesh:8x8 --rate 0.3 --packet-sizes 1,4,8 --packet-size-rates 1,2,1");
  EXPECT_NEAR(p["average_packet_flits"].get<double>(), 4.25, 0.045);
  double offered = 0;
  for (const auto& source : p["source_offered_flits_per_cycle"]) offered += source.get<double>() / 64;
  EXPECT_NEAR(offered, 0.3, 0.0056);
  EXPECT_NEAR(p["accepted_flits_per_node_per_cycle"].get<double>(), offered, 0.003);
  EXPECT_TRUE(p["all_measured_packets_delivered"].get<bool>());
  EXPECT_TRUE(p["errors"].empty());
  // Unweighted sizes count alike: (2 + 6) / 2.
  const auto even = traffic_point("--topology mesh:4x4 --rate 0.2 --packet-sizes 2,6 --measure-cycles 40000");
  EXPECT_NEAR(even["average_packet_flits"].get<double>(), 4.0, 0.05);
  // One size is --packet-flits.
  EXPECT_EQ(traffic_point("--topology mesh:4x4 --rate 0.2 --packet-flits 5")["average_packet_flits"].get<double>(), 5.0);
}

TEST(PacketSizeMix, MisusesAreRefusedNamingTheRule) {
  for (const auto& [args, rule] : std::vector<std::pair<std::string, std::string>>{
           {"--packet-sizes 1,4,8 --packet-size-rates 1,2",
            "traffic.packet_size_rates = '1,2': must give one weight per size of traffic.packet_sizes (3 sizes, 2 weights)"},
           {"--packet-sizes 0,4", "traffic.packet_sizes = '0,4': every size must be 1..4097 flits (head included); 0 is not"},
           {"--packet-sizes 4,5000", "every size must be 1..4097 flits (head included); 5000 is not"},
           {"--packet-sizes 1,4 --packet-size-rates 1,-2", "every weight must be a positive number; -2 is not"},
           {"--packet-size-rates 1,2", "weighs the sizes of traffic.packet_sizes, which is not given"},
           {"--packet-sizes 1,4 --packet-flits 4", "--packet-flits = '4': gives every packet one size"},
           {"--packet-sizes 1,x", "traffic.packet_sizes = '1,x': expected a comma-separated list of sizes in flits"},
           {"--packet-sizes 1,4 --packet-size-rates 1,two", "'two' is not one"}}) {
    const Outcome o = meshmp("traffic -t mesh:4x4 " + args);
    EXPECT_EQ(o.status, 2) << args << ": " << o.output;
    EXPECT_TRUE(meshmp_test::contains(o.output, rule)) << args << ": " << o.output;
  }
}

// A result's config holds the mix (and no packet_flits beside it): `--config` of it is the same run.
TEST(PacketSizeMix, AResultsConfigHoldsTheMix) {
  const auto first = traffic_point("--topology mesh:4x4 --rate 0.2 --measure-cycles 5000 --packet-sizes 2,9 --packet-size-rates 3,1");
  const nlohmann::json& traffic = first["config"]["traffic"];
  EXPECT_EQ(traffic["packet_sizes"], "2,9");
  EXPECT_EQ(traffic["packet_size_rates"], "3,1");
  EXPECT_FALSE(traffic.contains("packet_flits"));
  const std::string config = ::testing::TempDir() + "meshmp_size_mix_" + std::to_string(getpid()) + ".json";
  std::ofstream(config) << first["config"].dump();
  const auto again = traffic_point("--config " + config);
  EXPECT_EQ(again["measured_packets"], first["measured_packets"]);
  EXPECT_EQ(again["average_packet_flits"], first["average_packet_flits"]);
  // A config with both is refused.
  nlohmann::json both = first["config"];
  both["traffic"]["packet_flits"] = 4;
  std::ofstream(config) << both.dump();
  const Outcome refused = meshmp("traffic --config " + config);
  EXPECT_EQ(refused.status, 2) << refused.output;
  EXPECT_TRUE(meshmp_test::contains(refused.output, "traffic.packet_flits = '4': gives every packet one size"))
      << refused.output;
  std::remove(config.c_str());
}

// A reference curve measured with a mix names it; a run with another mix is refused before any point runs.
TEST(PacketSizeMix, AReferenceCurveNamingAMixComparesOnlyWithIt) {
  const std::string reference = ::testing::TempDir() + "meshmp_size_mix_ref_" + std::to_string(getpid()) + ".csv";
  std::ofstream(reference) << "# packet_sizes: 1, 4\n# packet_size_rates: 1,1\nload,accepted,latency\n0.1,0.1,20\n";
  const std::string sweep = "traffic -t mesh:4x4 --rates 0.1 --measure-cycles 1000 --csv " + reference + ".out.csv --png " +
                            reference + ".png --compare-reference " + reference;
  const Outcome other = meshmp(sweep + " --packet-sizes 1,8");
  EXPECT_NE(other.status, 0) << other.output;
  EXPECT_TRUE(meshmp_test::contains(other.output, "was measured with packet_sizes 1, 4; this run has packet_sizes 1,8"))
      << other.output;
  const Outcome same = meshmp(sweep + " --packet-sizes 1,4");
  EXPECT_FALSE(meshmp_test::contains(same.output, "was measured with")) << same.output;
  for (const std::string& file : {reference, reference + ".out.csv", reference + ".png"}) std::remove(file.c_str());
}

}  // namespace
