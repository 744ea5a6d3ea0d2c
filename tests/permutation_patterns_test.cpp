// The permutation traffic patterns (hw/network/permutation_patterns.h) against destinations written out
// by hand from BookSim2's definitions, their ideal saturation rates against channel loads counted by
// hand, and a run of each on the network with every packet checked by the sinks; and the on-off injection
// process beside them (hw/network/traffic_generator.h).
#include <gtest/gtest.h>

#include <algorithm>

#include "hw/network/traffic_generator.h"
#include "meshmp_process.h"

namespace meshmp {
namespace {

std::vector<int> destinations(const std::string& topology, PermutationPattern pattern, std::uint64_t seed = 1) {
  return permutation_destinations(Topology::parse(topology), pattern, seed);
}

TEST(PermutationPatterns, DestinationsWrittenOutByHand) {
  // 8 nodes, 3 bits: reverse 001 -> 100, 011 -> 110, 110 -> 011; rotate left 001 -> 010, 100 -> 001.
  EXPECT_EQ(destinations("hypercube:3", PermutationPattern::BitReverse), (std::vector<int>{0, 4, 2, 6, 1, 5, 3, 7}));
  EXPECT_EQ(destinations("hypercube:3", PermutationPattern::Shuffle), (std::vector<int>{0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_EQ(destinations("hypercube:3", PermutationPattern::BitComplement), (std::vector<int>{7, 6, 5, 4, 3, 2, 1, 0}));
  // ring:8: c -> c + 3; ring:5: c -> c + 2.
  EXPECT_EQ(destinations("ring:8", PermutationPattern::Tornado), (std::vector<int>{3, 4, 5, 6, 7, 0, 1, 2}));
  EXPECT_EQ(destinations("ring:5", PermutationPattern::Tornado), (std::vector<int>{2, 3, 4, 0, 1}));
  // torus:4x3: x -> x + 1 (of 4), y -> y + 1 (of 3); node (x, y) is y * 4 + x.
  EXPECT_EQ(destinations("torus:4x3", PermutationPattern::Tornado),
            (std::vector<int>{5, 6, 7, 4, 9, 10, 11, 8, 1, 2, 3, 0}));
  // mesh:3x3 transpose: (x, y) -> (y, x).
  EXPECT_EQ(destinations("mesh:3x3", PermutationPattern::Transpose), (std::vector<int>{0, 3, 6, 1, 4, 7, 2, 5, 8}));
  EXPECT_EQ(destinations("ring:4", PermutationPattern::Neighbour), (std::vector<int>{1, 2, 3, 0}));
}

TEST(PermutationPatterns, ARandomPermutationIsOneAndFollowsTheSeed) {
  const std::vector<int> a = destinations("torus:8x8", PermutationPattern::RandomPermutation, 7);
  std::vector<int> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 64; ++i) EXPECT_EQ(sorted[static_cast<std::size_t>(i)], i);
  EXPECT_EQ(a, destinations("torus:8x8", PermutationPattern::RandomPermutation, 7));
  EXPECT_NE(a, destinations("torus:8x8", PermutationPattern::RandomPermutation, 8));
}

TEST(PermutationPatterns, TheyRefuseTopologiesTheyDoNotApplyTo) {
  EXPECT_TRUE(permutation_unsupported(Topology::parse("mesh:3x3"), PermutationPattern::BitReverse).has_value());
  EXPECT_TRUE(permutation_unsupported(Topology::parse("ring:6"), PermutationPattern::Shuffle).has_value());
  EXPECT_TRUE(permutation_unsupported(Topology::parse("hypercube:3"), PermutationPattern::Tornado).has_value());
  EXPECT_TRUE(permutation_unsupported(Topology::parse("mesh:4x3"), PermutationPattern::Transpose).has_value());
  EXPECT_FALSE(permutation_unsupported(Topology::parse("torus:3x5"), PermutationPattern::Tornado).has_value());
  const auto refused = meshmp_test::meshmp("traffic -t hypercube:3 --pattern tornado");
  EXPECT_EQ(refused.status, 2) << refused.output;
  EXPECT_TRUE(meshmp_test::contains(refused.output, "traffic.pattern = 'tornado': needs every dimension of 3 nodes"))
      << refused.output;
}

// Tornado on ring:8 under dimension order: every node sends 3 hops +, so each + link carries 3 flows: 1/3.
// Bit-reverse on hypercube:3 under e-cube (bit 0 first): 1 -> 4 goes 001 -> 000 -> 100, 3 -> 6 goes
// 011 -> 010 -> 110, 4 -> 1 goes 100 -> 101 -> 001, 6 -> 3 goes 110 -> 111 -> 011, and 0, 2, 5, 7 send
// to themselves: no link carries two flows, so the injection channel limits the rate to 1.
TEST(PermutationPatterns, IdealRatesCountedByHand) {
  TrafficParams params;
  params.pattern = TrafficPattern::Tornado;
  EXPECT_DOUBLE_EQ(ideal_saturation_rate(Topology::parse("ring:8"), find_routing_function("dimension-order"), params),
                   1.0 / 3);
  params.pattern = TrafficPattern::BitReverse;
  EXPECT_DOUBLE_EQ(ideal_saturation_rate(Topology::parse("hypercube:3"), find_routing_function("dimension-order"), params),
                   1.0);
}

TEST(PermutationPatterns, EachRunsOnTheNetworkWithEveryPacketChecked) {
  for (const char* args : {"-t hypercube:4 --pattern bit-reverse", "-t hypercube:4 --pattern shuffle",
                           "-t torus:5x5 --pattern tornado", "-t mesh:6x6 --pattern random-permutation --seed 3"}) {
    const auto outcome = meshmp_test::meshmp(std::string("traffic ") + args + " --rate 0.1 --measure-cycles 4000");
    EXPECT_EQ(outcome.status, 0) << args << ": " << outcome.output;
    EXPECT_TRUE(meshmp_test::contains(outcome.output, "packets measured")) << args << ": " << outcome.output;
    EXPECT_FALSE(meshmp_test::contains(outcome.output, "error")) << args << ": " << outcome.output;
  }
}

}  // namespace
}  // namespace meshmp

namespace meshmp {
namespace {

double traffic_value(const std::string& args, const char* key) {
  const auto outcome = meshmp_test::meshmp("traffic -t mesh:8x8 --rate 0.15 --measure-cycles 20000 -o - " + args);
  EXPECT_EQ(outcome.status, 0) << outcome.output;
  return meshmp_test::json_in_output(outcome.output).value(key, 0.0);
}

// On-off sources (BookSim2's on_off) offer the same load in bursts: the accepted load is the offered one
// below saturation, and the bursts queue: the latency is higher than under Bernoulli injection, more so the
// longer the bursts.
TEST(OnOffInjection, TheSameLoadInBurstsCostsLatency) {
  const double bernoulli = traffic_value("", "average_packet_latency_cycles");
  const std::string bursts = "--injection on-off --burst-cycles 20 --idle-cycles 60 ";
  EXPECT_NEAR(traffic_value(bursts, "accepted_flits_per_node_per_cycle"), 0.15, 0.15 * 0.03);
  const double short_bursts = traffic_value("--injection on-off --burst-cycles 5 --idle-cycles 15", "average_packet_latency_cycles");
  const double long_bursts = traffic_value(bursts, "average_packet_latency_cycles");
  EXPECT_GT(short_bursts, bernoulli);
  EXPECT_GT(long_bursts, short_bursts);
}

TEST(OnOffInjection, MisusesAreRefusedNamingTheRule) {
  auto refused = [](const std::string& args, const std::string& rule) {
    const auto outcome = meshmp_test::meshmp("traffic -t mesh:4x4 " + args);
    EXPECT_EQ(outcome.status, 2) << args << ": " << outcome.output;
    EXPECT_TRUE(meshmp_test::contains(outcome.output, rule)) << args << ": " << outcome.output;
  };
  refused("--injection sometimes", "traffic.injection = 'sometimes': expected bernoulli or on-off");
  refused("--burst-cycles 5", "traffic.burst_cycles = '5': applies to --injection on-off only");
  refused("--injection on-off --idle-cycles 0.5", "traffic.idle_cycles = '0.5': must be at least 1 cycle");
  refused("--injection on-off --rate 0.5 --burst-cycles 5 --idle-cycles 50",
          "traffic.rate = '0.5': on-off sources offer it in bursts");
}

}  // namespace
}  // namespace meshmp
