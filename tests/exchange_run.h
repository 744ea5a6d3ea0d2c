// Runs a registered exchange algorithm on a whole machine, as the algorithm tests do: fills every node's
// send buffer, runs, verifies every node's memory and keeps the statistics (SystemC elaborates one
// machine per process: one run per test).
#pragma once

#include <cstdint>
#include <vector>

#include "firmware/algorithm_registry.h"
#include "firmware/exchange_verifier.h"
#include "hw/machine.h"
#include "hw/run_statistics.h"

namespace meshmp {

struct ExchangeRun {
  RunResult result;
  VerificationReport report;
  nlohmann::json stats;                // collect_statistics(): "schedule", "network", ...
  std::uint64_t zero_load_cycles = 0;  // the zero-load model's prediction of the schedule run
  std::vector<std::uint64_t> startups, copied_bytes;  // per node
};

inline ExchangeRun run_exchange(const MachineConfig& config) {
  Machine machine("machine", config, find_algorithm(config.algorithm));
  const int n = machine.topology().num_nodes();
  for (int i = 0; i < n; ++i) fill_exchange_memory(machine.node(i).memory.bytes(), machine.layout(), i);
  ExchangeRun run;
  run.result = machine.run();
  run.report = verify_exchange(
      machine.layout(), [&](int i) -> const std::vector<std::uint8_t>& { return machine.node(i).memory.bytes(); });
  run.stats = collect_statistics(machine, run.result);
  run.zero_load_cycles = machine.step_statistics().zero_load_prediction_cycles();
  for (int i = 0; i < n; ++i) {
    run.startups.push_back(machine.node(i).cpu.startups());
    run.copied_bytes.push_back(machine.node(i).cpu.copied_bytes());
  }
  return run;
}

}  // namespace meshmp
