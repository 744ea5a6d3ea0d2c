// Statistics of the messages a run delivered, aggregated as they arrive (a run of 16 million messages
// keeps a histogram per statistic, not a record per message): how many, their latency (from the sender's
// descriptor to the last byte in the receiver's memory) and their header blocking, as exact
// distributions. A per-message log is kept only when asked for (`--messages-csv`, tests).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace meshmp {

struct ReceivedMessageRecord {
  int src;
  int dst;
  std::uint32_t bytes;
  std::uint64_t latency_cycles;    // from the sender's descriptor to the last byte in memory
  std::uint64_t blocked_cycles;    // header blocking of its packets, summed
};

// An exact distribution of whole numbers: a count per distinct value.
class ValueHistogram {
 public:
  void add(std::uint64_t value) {
    ++counts_[value];
    ++count_;
    sum_ += static_cast<double>(value);
  }
  std::uint64_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  std::uint64_t min() const { return counts_.begin()->first; }
  std::uint64_t max() const { return counts_.rbegin()->first; }
  double mean() const { return sum_ / static_cast<double>(count_); }
  // The value at rank round(q (count - 1)) in sorted order (0 <= q <= 1).
  std::uint64_t percentile(double q) const;

 private:
  std::map<std::uint64_t, std::uint64_t> counts_;
  std::uint64_t count_ = 0;
  double sum_ = 0;
};

class MessageStatistics {
 public:
  void record(const ReceivedMessageRecord& message) {
    latency_.add(message.latency_cycles);
    blocking_.add(message.blocked_cycles);
    if (keep_log_) log_.push_back(message);
  }
  // Keep every message's record (before the run).
  void keep_log() { keep_log_ = true; }
  const std::vector<ReceivedMessageRecord>& log() const { return log_; }
  // The logged messages node `dst` received, in arrival order.
  std::vector<ReceivedMessageRecord> received_by(int dst) const;

  std::uint64_t received() const { return latency_.count(); }
  const ValueHistogram& latency_cycles() const { return latency_; }
  const ValueHistogram& header_blocking_cycles() const { return blocking_; }

 private:
  ValueHistogram latency_;
  ValueHistogram blocking_;
  bool keep_log_ = false;
  std::vector<ReceivedMessageRecord> log_;
};

}  // namespace meshmp
