// Message statistics. See message_statistics.h.
#include "hw/node/message_statistics.h"

namespace meshmp {

std::uint64_t ValueHistogram::percentile(double q) const {
  const auto rank = static_cast<std::uint64_t>(q * static_cast<double>(count_ - 1) + 0.5);
  std::uint64_t seen = 0;
  for (const auto& [value, count] : counts_) {
    seen += count;
    if (seen > rank) return value;
  }
  return max();
}

std::vector<ReceivedMessageRecord> MessageStatistics::received_by(int dst) const {
  std::vector<ReceivedMessageRecord> out;
  for (const auto& m : log_)
    if (m.dst == dst) out.push_back(m);
  return out;
}

}  // namespace meshmp
