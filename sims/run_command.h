// `meshmp run`: builds the machine from a configuration, runs the algorithm's firmware on every node,
// verifies every node's memory, prints a summary, writes the statistics JSON and the waveform.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "hw/machine/machine_config.h"
#include "sims/cli_options.h"
#include "sims/command.h"
#include "sims/output_file.h"

namespace meshmp {

// Exit codes: 0 completed and verified; 1 the run failed (deadlock, stall, firmware error, wrong data);
// 2 bad input (the message names the field, the value and the rule). The summary goes to `out`, or to
// `err` when the statistics go to `out` (output.stats_json "-"), or nowhere when `quiet`; errors and
// failure reports (deadlock, verification) go to `err`.
int run_machine(const MachineConfig& config, std::ostream& out, std::ostream& err, bool quiet = false);

// Why a run cannot start: its algorithm does not support the machine (`unsupported`: a sweep's grid may
// hold such points), or an input breaks a rule. The message names the field, the value and the rule.
struct RunRefusal {
  bool unsupported = false;
  std::string message;
};
// Every check run_machine makes before it builds the machine (configuration, algorithm and its options,
// workload, node memory, the host's memory); none when the run can start.
std::optional<RunRefusal> check_run(const MachineConfig& config);

// `meshmp run` (and `meshmp` alone): the options of sims/cli_options.h, then run_machine.
class RunCommand : public Command {
 public:
  std::string name() const override { return "run"; }
  std::string summary() const override {
    return "Run an exchange algorithm on the machine (the default: torus:8x8, direct, 64-byte blocks).";
  }
  void add_to(CLI::App& command) override;
  int run(const CommandContext& context) override;

 private:
  RunOptions options_;
};

}  // namespace meshmp
