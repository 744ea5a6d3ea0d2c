// Per-step statistics of an algorithm run (the steps the firmware marks with begin_step, as the papers
// count them: 000 §3, 001 §3, 002 §4), aggregated over the nodes as the run goes so memory does not grow
// with N x steps: per step the largest and total messages and bytes a node sent, the first and last
// cycle at which a node began it, and the largest zero-load cost of a node's part of it (the
// machine-specific prediction; see Processor). The per-node, per-step rows go to an optional CSV stream
// as they are produced.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

namespace meshmp {

struct StepCount {
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;
  std::uint64_t largest_message_bytes = 0;
  std::uint64_t barrier_cycles = 0;  // the hardware barriers' latency in this node's step
};

// A shared resource that serves at most `slots` transfers at once (004's bus and shared memory with k*):
// a step's T transfers of at most m bytes, each started after t_s, take at least t_s + ceil(T / slots)
// (1 + n) cycles, n = tau + ceil(m / b), and the step's barrier, however its nodes share them: a slot
// is free for the arbitration after the edge that releases it (the bus). With `handover_at_release` a
// waiting request takes the slot at that very edge (the memory): t_s + 1 + ceil(T / slots) n.
struct SharedSlots {
  int slots = 1;
  std::uint64_t startup_cycles = 0;  // t_s
  std::uint64_t tau = 0;
  std::uint32_t bytes_per_cycle = 1;
  bool handover_at_release = false;
};

struct StepAggregate {
  std::uint64_t nodes = 0;  // nodes that marked (or ran in) this step
  std::uint64_t messages_max = 0, bytes_max = 0;
  std::uint64_t messages_total = 0, bytes_total = 0;
  std::uint64_t largest_message_bytes = 0;  // the largest single message any node sent in this step
  std::uint64_t first_begin_cycle = ~0ull, last_begin_cycle = 0;
  std::uint64_t zero_load_cycles_max = 0;  // the slowest node's zero-load cost of this step
  std::uint64_t barrier_cycles_max = 0;
};

class StepStatistics {
 public:
  // Writes one CSV row per node per step to `detail` (header included) when it is set.
  void set_detail_stream(std::ostream* detail);
  // A node finished its part of `step`.
  void record(int node, int step, const StepCount& count, std::uint64_t begin_cycle, std::uint64_t zero_load_cycles);

  // The machine's nodes share one resource with `slots` (a bus or a memory): each step's zero-load cost is
  // at least what SharedSlots says (exact when the step's transfers are equal and start together).
  void set_shared_slots(const SharedSlots& shared) { shared_ = shared; }

  const std::vector<StepAggregate>& steps() const { return steps_; }
  // Step k's zero-load cost: its slowest node's, or the shared resource's when that is longer.
  std::uint64_t step_zero_load_cycles(std::size_t k) const;
  // The zero-load prediction of the whole schedule: the steps one after the other, each as long as its
  // slowest node.
  std::uint64_t zero_load_prediction_cycles() const;

 private:
  std::vector<StepAggregate> steps_;
  std::optional<SharedSlots> shared_;
  std::ostream* detail_ = nullptr;
};

}  // namespace meshmp
