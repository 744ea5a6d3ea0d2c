// The random destination patterns (hw/network/destination_pattern.h): BookSim2's diagonal and asymmetric
// against probabilities written out by hand, the draws against those probabilities, the ideal saturation
// rate against channel loads counted by hand, and a run of each whose average hops are the ones their
// destinations give.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "hw/network/traffic_generator.h"
#include "meshmp_process.h"

namespace meshmp {
namespace {

std::vector<double> probabilities(const std::string& topology, TrafficPattern pattern, int src) {
  return DestinationPattern(Topology::parse(topology), pattern, true, 0, 0, 1).probabilities(src);
}

TEST(DestinationPatterns, DiagonalAndAsymmetricProbabilitiesWrittenOutByHand) {
  // Diagonal: the source itself 2/3, the next node (wrapping) 1/3.
  EXPECT_EQ(probabilities("ring:5", TrafficPattern::Diagonal, 1), (std::vector<double>{0, 2.0 / 3, 1.0 / 3, 0, 0}));
  EXPECT_EQ(probabilities("ring:5", TrafficPattern::Diagonal, 4), (std::vector<double>{1.0 / 3, 0, 0, 0, 2.0 / 3}));
  // Asymmetric on 8 nodes: s mod 4 and s mod 4 + 4, a half each.
  EXPECT_EQ(probabilities("mesh:4x2", TrafficPattern::Asymmetric, 6), (std::vector<double>{0, 0, 0.5, 0, 0, 0, 0.5, 0}));
  EXPECT_EQ(probabilities("mesh:4x2", TrafficPattern::Asymmetric, 1), (std::vector<double>{0, 0.5, 0, 0, 0, 0.5, 0, 0}));
  // On 5 nodes the halves have 2: s mod 2 and s mod 2 + 2; node 4 receives nothing.
  EXPECT_EQ(probabilities("ring:5", TrafficPattern::Asymmetric, 4), (std::vector<double>{0.5, 0, 0.5, 0, 0}));
  EXPECT_EQ(probabilities("ring:5", TrafficPattern::Asymmetric, 3), (std::vector<double>{0, 0.5, 0, 0.5, 0}));
}

// 3 x 10^5 draws per source: each destination's share within 5 standard deviations of its probability
// (sqrt(p (1 - p) / n): 0.0043 for 1/3), and never a destination of probability 0.
TEST(DestinationPatterns, DrawsFollowTheProbabilities) {
  constexpr int kDraws = 300000;
  for (const auto& [spec, pattern] : {std::pair{"ring:5", TrafficPattern::Diagonal},
                                      std::pair{"mesh:4x2", TrafficPattern::Asymmetric},
                                      std::pair{"ring:5", TrafficPattern::Asymmetric},
                                      std::pair{"ring:5", TrafficPattern::Hotspot}}) {
    const Topology topology = Topology::parse(spec);
    const DestinationPattern destinations(topology, pattern, true, 2, 0.3, 1);
    std::mt19937_64 random(11);
    for (int src = 0; src < topology.num_nodes(); ++src) {
      std::vector<int> counts(static_cast<std::size_t>(topology.num_nodes()), 0);
      for (int k = 0; k < kDraws; ++k) ++counts[static_cast<std::size_t>(destinations.draw(src, random))];
      const std::vector<double> p = destinations.probabilities(src);
      for (std::size_t dst = 0; dst < counts.size(); ++dst) {
        const double share = static_cast<double>(counts[dst]) / kDraws;
        if (p[dst] == 0) {
          EXPECT_EQ(counts[dst], 0) << spec << " " << to_string(pattern) << " " << src << "->" << dst;
        }
        EXPECT_NEAR(share, p[dst], 5 * std::sqrt(p[dst] * (1 - p[dst]) / kDraws))
            << spec << " " << to_string(pattern) << " " << src << "->" << dst;
      }
    }
  }
}

// Asymmetric on mesh:8 under dimension order: sources 0..3 each send a half to s + 4, all across the link
// 3 -> 4, which carries 4 x 1/2 = 2 per unit of load: the ideal rate is 1/2. Diagonal on ring:8: every
// + link carries 1/3 from its source, each node ejects 2/3 + 1/3: the injection channel limits it to 1.
TEST(DestinationPatterns, IdealRatesCountedByHand) {
  TrafficParams params;
  params.pattern = TrafficPattern::Asymmetric;
  EXPECT_DOUBLE_EQ(ideal_saturation_rate(Topology::parse("mesh:8"), find_routing_function("dimension-order"), params),
                   0.5);
  params.pattern = TrafficPattern::Diagonal;
  EXPECT_DOUBLE_EQ(ideal_saturation_rate(Topology::parse("ring:8"), find_routing_function("dimension-order"), params),
                   1.0);
}

// mesh:8x8, node (x, y) = 8y + x. Diagonal: a third of the packets go to s + 1: 1 hop from 56 nodes, 8 from
// the 7 nodes (7, y < 7) to (0, y + 1), 14 from node 63 to node 0: 126/64/3 = 0.65625 hops on average.
// Asymmetric: s mod 32 is (x, y mod 4): one of the two destinations is the source, the other 4 hops away
// in the same column: 2 hops. About 64000 packets each: the standard errors are 0.007 and 0.008.
TEST(DestinationPatterns, RunsHopAsTheirDestinationsGive) {
  for (const auto& [pattern, hops] : {std::pair{"diagonal", 126.0 / 64 / 3}, std::pair{"asymmetric", 2.0}}) {
    const auto outcome = meshmp_test::meshmp(std::string("traffic -t mesh:8x8 --rate 0.2 --json-line --pattern ") + pattern);
    ASSERT_EQ(outcome.status, 0) << outcome.output;
    const auto result = nlohmann::json::parse(outcome.output);
    EXPECT_NEAR(result["average_hops"].get<double>(), hops, 0.04) << pattern;
    EXPECT_NEAR(result["accepted_flits_per_node_per_cycle"].get<double>(), 0.2, 0.004) << pattern;
    EXPECT_TRUE(result["errors"].empty()) << pattern;
  }
}

}  // namespace
}  // namespace meshmp
