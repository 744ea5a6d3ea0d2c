// What one run of the machine found, gathered once after it ends: its result, the verification of every
// node's memory, the paper's and the zero-load model's estimates, and the statistics; and the two ways it
// is told, the summary a person reads and the JSON document a program reads (sims/schema/run.schema.json).
#pragma once

#include <cstdint>
#include <ostream>

#include <nlohmann/json.hpp>

#include "firmware/api/algorithm_registry.h"
#include "firmware/api/placement_verifier.h"
#include "hw/machine/machine.h"

namespace meshmp {

struct RunReport {
  RunResult result;
  VerificationReport verification;          // empty unless the run completed
  Algorithm::OptionEstimate paper;          // the paper's estimate for the options run
  std::uint64_t zero_load_estimate_cycles = 0;  // the zero-load model of the schedule the firmware marked
  nlohmann::json statistics;                // hw/machine/run_statistics.h

  bool ok() const { return result.status == RunStatus::Completed && verification.ok(); }
  double paper_measured_over_estimate() const;
  double zero_load_measured_over_estimate() const;
};

// Verifies the memories (a completed run), computes the estimates and collects the statistics.
RunReport report_run(Machine& machine, const Algorithm& algorithm, const AlgorithmOptions& options, const RunResult& result);

// The summary: what ran, how it ended, the estimates and statistics, to `summary`; a failure's report and
// the verification's errors to `err`.
void print_run_summary(const Machine& machine, const Algorithm& algorithm, const RunReport& report, std::ostream& summary,
                       std::ostream& err);

// The statistics document meshmp run writes (-o).
nlohmann::json run_document(const MachineConfig& config, const RunReport& report);

}  // namespace meshmp
