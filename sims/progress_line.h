// The progress line of a long run on a terminal: on standard error, rewritten in place once a second, the
// simulated cycle, the messages delivered, the simulated cycles per host second and, while the run has not
// passed the paper's estimate of its completion, the host time left to that estimate. Shown only when
// standard error is a terminal and the summary is wanted (not --quiet); erased when the run ends, so what
// the run prints after it reads as without it. A child run whose parent asked for its progress
// (kProgressFdVariable, sims/child_process.h: `meshmp paper` on a terminal) writes the same text as one line
// per report to the descriptor the variable names, quiet or not, for the parent to show.
#pragma once

#include <chrono>
#include <memory>
#include <ostream>

#include "hw/base/progress_poll.h"
#include "hw/machine/machine.h"

namespace meshmp {

class ProgressLine {
 public:
  // Starts reporting `machine`'s run on `err` when standard error is a terminal and `quiet` is false;
  // `estimate_cycles` <= 0 (or not finite): no time left is shown.
  ProgressLine(const Machine& machine, double estimate_cycles, std::ostream& err, bool quiet);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  void print();

  const Machine& machine_;
  double estimate_cycles_;
  std::ostream& err_;
  std::chrono::steady_clock::time_point start_;
  int parent_fd_ = -1;  // the parent's progress pipe, or -1: the terminal
  bool printed_ = false;
  std::unique_ptr<ProgressPoll> poll_;
};

}  // namespace meshmp
