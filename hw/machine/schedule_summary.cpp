// The schedule an algorithm ran, from the machine's step statistics. See schedule_summary.h.
#include "hw/machine/schedule_summary.h"

#include <algorithm>

namespace meshmp {

ScheduleSummary summarize_schedule(const StepStatistics& steps, const std::vector<std::uint64_t>& blocking_by_step,
                                   std::uint32_t block_bytes, const std::vector<std::uint64_t>& startups,
                                   const std::vector<std::uint64_t>& copied_bytes) {
  ScheduleSummary s;
  const auto& aggregates = steps.steps();
  for (std::size_t k = 0; k < aggregates.size(); ++k) {
    const StepAggregate& a = aggregates[k];
    if (a.messages_total == 0) continue;
    ++s.synchronized_steps;
    const std::uint64_t blocks =
        block_bytes == 0 ? 0 : (a.largest_message_bytes + block_bytes - 1) / block_bytes;
    s.step_max_blocks.push_back(blocks);
    s.sum_of_step_max_blocks += blocks;
    const bool blocked = k < blocking_by_step.size() && blocking_by_step[k] > 0;
    ++(blocked ? s.steps_with_blocking : s.contention_free_steps);
  }
  for (std::uint64_t n : startups) s.max_messages_per_node = std::max(s.max_messages_per_node, n);
  for (std::uint64_t b : copied_bytes)
    s.rearrangement_bytes_max_per_node = std::max(s.rearrangement_bytes_max_per_node, b);
  return s;
}

}  // namespace meshmp
