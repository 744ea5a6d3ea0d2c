// The latency distribution of synthetic traffic (hw/network/latency_distribution.h) on latencies written
// out by hand: nearest-rank percentiles (the ceil(q n)-th smallest, q n rounded as arithmetic would, so
// 0.999 of 1000 packets is the 999th), and the histogram's bins: one power-of-two width, the smallest that
// spans the latencies in at most 32 bins, contiguous from the multiple of the width at or below the
// smallest latency to the bin holding the largest, every packet in the bin of its latency.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "hw/network/latency_distribution.h"

namespace meshmp {
namespace {

TEST(LatencyDistribution, NearestRankPercentiles) {
  std::vector<std::uint32_t> latencies;
  for (std::uint32_t l = 1; l <= 1000; ++l) latencies.push_back(l);
  std::shuffle(latencies.begin(), latencies.end(), std::mt19937(5));
  const LatencyDistribution d(latencies);
  EXPECT_EQ(d.packets(), 1000u);
  EXPECT_EQ(d.percentile(0.5), 500u);
  EXPECT_EQ(d.percentile(0.9), 900u);
  EXPECT_EQ(d.percentile(0.99), 990u);
  EXPECT_EQ(d.percentile(0.999), 999u) << "0.999 x 1000 is 999.0000000000001 in doubles: still the 999th";
  EXPECT_EQ(d.percentile(1.0), 1000u);
  EXPECT_EQ(d.max(), 1000u);
  // Three packets: the median is the 2nd (ceil 1.5), the 90th percentile the 3rd (ceil 2.7).
  const LatencyDistribution three({30, 10, 20});
  EXPECT_EQ(three.percentile(0.5), 20u);
  EXPECT_EQ(three.percentile(0.9), 30u);
  EXPECT_EQ(three.percentile(0.01), 10u);
  const LatencyDistribution none({});
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.percentile(0.5), 0u);
  EXPECT_EQ(none.max(), 0u);
  EXPECT_TRUE(none.histogram().empty());
}

TEST(LatencyDistribution, HistogramBinsWrittenOutByHand) {
  // 10..41: 32 latencies, one cycle per bin.
  std::vector<std::uint32_t> latencies;
  for (std::uint32_t l = 10; l <= 41; ++l) latencies.push_back(l);
  std::vector<LatencyBin> bins = LatencyDistribution(latencies).histogram();
  ASSERT_EQ(bins.size(), 32u);
  EXPECT_EQ(bins.front().from_cycles, 10u);
  EXPECT_EQ(bins.front().to_cycles, 11u);
  EXPECT_EQ(bins.back().from_cycles, 41u);
  for (const LatencyBin& bin : bins) EXPECT_EQ(bin.packets, 1u);
  // 42 as well: 33 cycles need 2-cycle bins, 10..11 up to 42..43 (17 bins), the last with 42 alone.
  latencies.push_back(42);
  bins = LatencyDistribution(latencies).histogram();
  ASSERT_EQ(bins.size(), 17u);
  EXPECT_EQ(bins.front().from_cycles, 10u);
  EXPECT_EQ(bins.front().to_cycles, 12u);
  EXPECT_EQ(bins.back().from_cycles, 42u);
  EXPECT_EQ(bins.back().to_cycles, 44u);
  EXPECT_EQ(bins.back().packets, 1u);
  EXPECT_EQ(bins[15].packets, 2u);  // 40 and 41
  // 7 and 100: 4-cycle bins from 4 (7 in [4, 8)) to 100 in [100, 104): 25 bins, 23 of them empty.
  bins = LatencyDistribution({100, 7}).histogram();
  ASSERT_EQ(bins.size(), 25u);
  EXPECT_EQ(bins.front().from_cycles, 4u);
  EXPECT_EQ(bins.front().packets, 1u);
  EXPECT_EQ(bins.back().from_cycles, 100u);
  EXPECT_EQ(bins.back().packets, 1u);
  // One latency: one bin of one cycle.
  bins = LatencyDistribution({17}).histogram();
  ASSERT_EQ(bins.size(), 1u);
  EXPECT_EQ(bins[0].from_cycles, 17u);
  EXPECT_EQ(bins[0].to_cycles, 18u);
}

// Random latencies over spans from a few cycles to a saturated network's thousands: the bins are
// contiguous, of one power-of-two width no larger than needed, at most 32, and hold every packet in the
// bin of its latency.
TEST(LatencyDistribution, HistogramBinsCoverEveryPacketAtAnySpan) {
  std::mt19937 random(11);
  for (const std::uint32_t span : {1u, 5u, 31u, 32u, 33u, 100u, 1000u, 65537u}) {
    std::uniform_int_distribution<std::uint32_t> latency(20, 20 + span);
    std::vector<std::uint32_t> latencies(5000);
    for (auto& l : latencies) l = latency(random);
    const LatencyDistribution d(latencies);
    const std::vector<LatencyBin> bins = d.histogram();
    ASSERT_FALSE(bins.empty());
    ASSERT_LE(bins.size(), LatencyDistribution::kHistogramBins) << span;
    const std::uint64_t width = bins[0].to_cycles - bins[0].from_cycles;
    EXPECT_EQ(width & (width - 1), 0u) << "a power of two: " << width;
    EXPECT_EQ(bins[0].from_cycles % width, 0u);
    const std::uint32_t lowest = *std::min_element(latencies.begin(), latencies.end());
    const std::uint32_t highest = d.max();
    if (width > 1) {
      EXPECT_GT(highest / (width / 2) - lowest / (width / 2) + 1, 32u) << "half the width would do";
    }
    EXPECT_LE(bins.front().from_cycles, lowest);
    EXPECT_LT(lowest, bins.front().to_cycles);
    EXPECT_LE(bins.back().from_cycles, highest);
    EXPECT_LT(highest, bins.back().to_cycles);
    std::uint64_t packets = 0;
    for (std::size_t i = 0; i < bins.size(); ++i) {
      if (i > 0) {
        EXPECT_EQ(bins[i].from_cycles, bins[i - 1].to_cycles);
      }
      EXPECT_EQ(bins[i].to_cycles - bins[i].from_cycles, width);
      const auto in_bin = std::count_if(latencies.begin(), latencies.end(), [&](std::uint32_t l) {
        return l >= bins[i].from_cycles && l < bins[i].to_cycles;
      });
      EXPECT_EQ(bins[i].packets, static_cast<std::uint64_t>(in_bin));
      packets += bins[i].packets;
    }
    EXPECT_EQ(packets, latencies.size());
  }
}

}  // namespace
}  // namespace meshmp
