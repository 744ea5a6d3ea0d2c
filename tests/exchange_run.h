// Runs a registered exchange algorithm on a whole machine, as the algorithm tests do: fills every node's
// memory as the algorithm's workload starts it, runs, verifies every node's memory and keeps the statistics (SystemC elaborates one
// machine per process: one run per test). With MESHMP_TEST_ROUTER_MODEL=rtl in the environment (the
// rtl/ pass of the algorithm tests, tests/CMakeLists.txt) every machine the RTL matrix covers is built
// from the verilated routers, and the test's expectations stay the same.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "firmware/api/algorithm_registry.h"
#include "hw/machine/machine.h"
#include "hw/router/rtl_router.h"
#include "hw/machine/run_statistics.h"

namespace meshmp {

struct ExchangeRun {
  RunResult result;
  VerificationReport report;
  nlohmann::json stats;                // collect_statistics(): "schedule", "network", ...
  std::uint64_t zero_load_cycles = 0;  // the zero-load model's prediction of the schedule run
  std::vector<std::uint64_t> startups, copied_bytes;  // per node
  std::vector<ReceivedMessageRecord> messages;        // every received message, when asked for
  // Of each node's scratch (the algorithm's declared bytes after the buffers), block workloads only: how
  // far it was written, as the end of its last byte that is not zero.
  std::uint64_t scratch_declared = 0;
  std::vector<std::uint64_t> scratch_written;
};

// The router model of the pass: in the rtl/ pass every machine is asked for the verilated routers, and
// one the RTL matrix does not cover is refused by the machine (a ConfigError naming the rule), never
// quietly built from the SystemC router.
inline MachineConfig with_test_router_model(MachineConfig config) {
  if (const char* model = std::getenv("MESHMP_TEST_ROUTER_MODEL")) config.router.model = model;
  return config;
}

inline ExchangeRun run_exchange(const MachineConfig& given, bool keep_message_log = false) {
  const MachineConfig config = with_test_router_model(given);
  Machine machine("machine", config, find_algorithm(config.algorithm));
  if (keep_message_log) machine.messages().keep_log();
  const int n = machine.topology().num_nodes();
  machine.fill_memory();
  ExchangeRun run;
  run.result = machine.run();
  run.report = machine.verify();
  run.stats = collect_statistics(machine, run.result);
  run.zero_load_cycles = machine.step_statistics().zero_load_prediction_cycles();
  run.messages = machine.messages().log();
  const ExchangeLayout* blocks = machine.workload().block_layout();
  if (blocks) run.scratch_declared = blocks->memory_bytes() - blocks->scratch_base();
  for (int i = 0; i < n; ++i) {
    run.startups.push_back(machine.node(i).cpu.startups());
    run.copied_bytes.push_back(machine.node(i).cpu.copied_bytes());
    if (!blocks) continue;
    const std::vector<std::uint8_t>& bytes = machine.node(i).memory.bytes();
    std::uint64_t end = bytes.size();
    while (end > blocks->scratch_base() && bytes[end - 1] == 0) --end;
    run.scratch_written.push_back(end - blocks->scratch_base());
  }
  return run;
}

}  // namespace meshmp
