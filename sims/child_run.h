// One `meshmp run` in a child process (SystemC elaborates one design per process), its statistics JSON
// read back: what `meshmp paper` builds its tables from.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sims/child_process.h"

namespace meshmp {

// A `meshmp run` in a child: how it ended and the statistics document it wrote (empty when none).
struct ChildRun {
  ChildOutcome outcome;
  nlohmann::json stats;
};
// Runs `self_path COMMAND RUN_ARGUMENTS --stats-json TMP` (TMP in $TMPDIR, removed afterwards; COMMAND run
// or traffic). Throws std::runtime_error when the child cannot be started.
ChildRun run_meshmp_child(const std::string& self_path, const std::vector<std::string>& run_arguments,
                          const std::string& command = "run",
                          const std::function<void(const std::string&)>& on_progress = {});

// The same with ARGUMENTS split into words as a shell would (run without one), for the paper tables: the
// statistics document, or none when the run failed (then `failure` says what was run and how it ended,
// and `exit_status` is the child's: 2 when it refused its input).
// Throws StopRequested (sims/stop_signals.h) when the program is being stopped.
// With `progress`, the child's progress (sims/progress_line.h) is shown there as one line rewritten in place,
// "  TOPOLOGY ALGORITHM: simulated cycle ...", erased when the child ends.
std::optional<nlohmann::json> run_child(const std::string& self_path, const std::string& arguments, std::string& failure,
                                        int& exit_status, std::ostream* progress = nullptr);
// Where a table shows its children's progress: `err` when standard error is a terminal, else nowhere.
std::ostream* terminal_progress(std::ostream& err);
// The status a table command ends with after a child that failed with `child_exit_status`: a refusal (2)
// stays one, any other failure is 1; the worse of that and `status`.
int status_after_failed_child(int status, int child_exit_status);

// What a paper table reads of a verified child run: completion, statistics.schedule's synchronized steps,
// the sum of each step's largest message and the busiest node's start-ups, its progress shown on `err` on a
// terminal (terminal_progress). A run that failed or was not
// verified prints an error naming what was run to `err`, sets `status` (status_after_failed_child) and
// gives ok = false.
struct MeasuredRun {
  double cycles = 0, steps = 0, units = 0, startups = 0;
  double energy_joules = 0, energy_delay = 0;  // statistics.energy: the run's total and energy x time [J s]
  bool ok = false;
};
MeasuredRun measure_verified_run(const std::string& self_path, const std::string& arguments, std::ostream& err,
                                 int& status);

}  // namespace meshmp
