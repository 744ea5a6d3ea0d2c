// The distribution of the measured packets' latencies in synthetic traffic (`meshmp traffic`): percentiles
// by nearest rank (the smallest latency that at least a share q of the packets do not exceed, as the p99
// has always been counted) and a histogram of fixed-width bins. The bins' width is the smallest power of
// two that covers the measured latencies, smallest to largest, in at most kHistogramBins bins; the first
// bin starts at the multiple of the width at or below the smallest latency, the last holds the largest,
// and the bins in between are all listed, empty ones included, so that a plot of them needs no gaps
// filled. A power of two keeps the bin edges round numbers at any load, from the few tens of cycles of a
// light load (bins of 1 or 2 cycles) to the thousands of a saturated network.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace meshmp {

// Packets whose latency is in [from_cycles, to_cycles).
struct LatencyBin {
  std::uint64_t from_cycles = 0;
  std::uint64_t to_cycles = 0;
  std::uint64_t packets = 0;
};

class LatencyDistribution {
 public:
  static constexpr std::size_t kHistogramBins = 32;

  // Takes the latencies in any order (in cycles, one per packet) and sorts them.
  explicit LatencyDistribution(std::vector<std::uint32_t> latencies);

  std::size_t packets() const { return sorted_.size(); }
  bool empty() const { return sorted_.empty(); }
  // The nearest-rank percentile for a share q in (0, 1]: the ceil(q n)-th smallest latency; 0 when empty.
  std::uint32_t percentile(double q) const;
  std::uint32_t max() const { return sorted_.empty() ? 0 : sorted_.back(); }
  // The bins described at the top of this file (none when empty); their packets sum to packets().
  std::vector<LatencyBin> histogram(std::size_t max_bins = kHistogramBins) const;

 private:
  std::vector<std::uint32_t> sorted_;
};

}  // namespace meshmp
