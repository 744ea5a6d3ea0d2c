// The measured packets' latency distribution. See latency_distribution.h.
#include "hw/network/latency_distribution.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace meshmp {

LatencyDistribution::LatencyDistribution(std::vector<std::uint32_t> latencies) : sorted_(std::move(latencies)) {
  std::sort(sorted_.begin(), sorted_.end());
}

std::uint32_t LatencyDistribution::percentile(double q) const {
  if (sorted_.empty()) return 0;
  // The rank ceil(q n), 1-based; q n that is a whole number but for rounding (0.999 x 1000 gives
  // 999.0000000000001) is that number.
  const double rank = std::ceil(q * static_cast<double>(sorted_.size()) - 1e-6);
  const auto k = static_cast<std::size_t>(std::max(1.0, rank)) - 1;
  return sorted_[std::min(k, sorted_.size() - 1)];
}

std::vector<LatencyBin> LatencyDistribution::histogram(std::size_t max_bins) const {
  if (sorted_.empty()) return {};
  const std::uint64_t lowest = sorted_.front(), highest = sorted_.back();
  std::uint64_t width = 1;
  while (highest / width - lowest / width + 1 > std::max<std::size_t>(max_bins, 1)) width *= 2;
  const std::uint64_t first = lowest / width * width;
  std::vector<LatencyBin> bins(static_cast<std::size_t>(highest / width - lowest / width + 1));
  for (std::size_t i = 0; i < bins.size(); ++i) {
    bins[i].from_cycles = first + i * width;
    bins[i].to_cycles = bins[i].from_cycles + width;
  }
  for (const std::uint32_t latency : sorted_) ++bins[static_cast<std::size_t>((latency - first) / width)].packets;
  return bins;
}

}  // namespace meshmp
