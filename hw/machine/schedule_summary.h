// The schedule an algorithm actually ran, as the papers count it (000 Table 1, 001 Lemmas 2-5 and
// Theorems 1-3, 002 §4), measured by the machine from the step marks (NodeApi::begin_step) and the
// messages each step carried, never reported by the algorithm itself:
//  - synchronized_steps: steps in which some node started a message (the start-ups on the critical path);
//  - step_max_blocks: per step, the largest single message in blocks of m bytes (rounded up), and their
//    sum, the papers' transmission count;
//  - max_messages_per_node: start-ups of the busiest node;
//  - rearrangement_bytes_max_per_node: bytes the busiest node copied locally;
//  - contention_free_steps / steps_with_blocking: steps whose messages met no / some header blocking.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/node/step_statistics.h"

namespace meshmp {

struct ScheduleSummary {
  std::uint64_t synchronized_steps = 0;
  std::vector<std::uint64_t> step_max_blocks;  // one entry per synchronized step, in step order
  std::uint64_t sum_of_step_max_blocks = 0;
  std::uint64_t max_messages_per_node = 0;
  std::uint64_t rearrangement_bytes_max_per_node = 0;
  std::uint64_t contention_free_steps = 0;
  std::uint64_t steps_with_blocking = 0;
};

// `blocking_by_step`: header blocking cycles by the step the packets were sent in (Network);
// `startups` and `copied_bytes`: per node.
ScheduleSummary summarize_schedule(const StepStatistics& steps, const std::vector<std::uint64_t>& blocking_by_step,
                                   std::uint32_t block_bytes, const std::vector<std::uint64_t>& startups,
                                   const std::vector<std::uint64_t>& copied_bytes);

}  // namespace meshmp
