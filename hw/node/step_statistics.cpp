// Per-step statistics aggregated as they happen. See step_statistics.h.
#include "hw/node/step_statistics.h"

#include <algorithm>

namespace meshmp {

void StepStatistics::set_detail_stream(std::ostream* detail) {
  detail_ = detail;
  if (detail_) *detail_ << "node,step,messages,bytes,begin_cycle,zero_load_estimate_cycles\n";
}

void StepStatistics::record(int node, int step, const StepCount& count, std::uint64_t begin_cycle,
                            std::uint64_t zero_load_cycles) {
  if (steps_.size() <= static_cast<std::size_t>(step)) steps_.resize(step + 1);
  StepAggregate& s = steps_[step];
  ++s.nodes;
  s.messages_max = std::max(s.messages_max, count.messages);
  s.bytes_max = std::max(s.bytes_max, count.bytes);
  s.messages_total += count.messages;
  s.bytes_total += count.bytes;
  s.largest_message_bytes = std::max(s.largest_message_bytes, count.largest_message_bytes);
  s.first_begin_cycle = std::min(s.first_begin_cycle, begin_cycle);
  s.last_begin_cycle = std::max(s.last_begin_cycle, begin_cycle);
  s.zero_load_cycles_max = std::max(s.zero_load_cycles_max, zero_load_cycles);
  s.barrier_cycles_max = std::max(s.barrier_cycles_max, count.barrier_cycles);
  if (detail_)
    *detail_ << node << ',' << step << ',' << count.messages << ',' << count.bytes << ',' << begin_cycle << ','
             << zero_load_cycles << '\n';
}

std::uint64_t StepStatistics::zero_load_prediction_cycles() const {
  std::uint64_t sum = 0;
  for (std::size_t k = 0; k < steps_.size(); ++k) sum += step_zero_load_cycles(k);
  return sum;
}

std::uint64_t StepStatistics::step_zero_load_cycles(std::size_t k) const {
  const StepAggregate& s = steps_.at(k);
  if (!shared_ || s.messages_total == 0) return s.zero_load_cycles_max;
  const std::uint64_t slots = static_cast<std::uint64_t>(std::max(1, shared_->slots));
  const std::uint64_t rounds = (s.messages_total + slots - 1) / slots;
  const std::uint64_t transfer =
      shared_->tau + (s.largest_message_bytes + shared_->bytes_per_cycle - 1) / shared_->bytes_per_cycle;
  const std::uint64_t busy = shared_->handover_at_release ? 1 + rounds * transfer : rounds * (1 + transfer);
  return std::max(s.zero_load_cycles_max, shared_->startup_cycles + busy + s.barrier_cycles_max);
}

}  // namespace meshmp
