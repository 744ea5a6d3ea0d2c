// `meshmp run`. See run_command.h.
#include "sims/run_command.h"

#include <memory>
#include <optional>
#include <tuple>

#include "firmware/algorithm_registry.h"
#include "topology/config_error.h"
#include "hw/machine.h"
#include "hw/model_size.h"
#include "hw/stop_request.h"
#include "sims/fst_output.h"
#include "sims/output_file.h"
#include "sims/run_report.h"
#include "sims/stop_signals.h"
#include "sims/waveform_relay.h"

namespace meshmp {

namespace {

// What a run needs, found by the checks it makes before it builds the machine.
struct RunPlan {
  std::optional<Topology> topology;
  const Algorithm* algorithm = nullptr;
  AlgorithmOptions options;
  std::uint64_t scratch_bytes = 0;
};

std::optional<RunRefusal> plan_run(const MachineConfig& config, RunPlan& plan) {
  auto invalid = [](const std::string& message) { return std::optional<RunRefusal>(RunRefusal{false, message}); };
  if (auto error = config.validate()) return invalid(*error);
  try {
    plan.topology = Topology::parse(config.topology);
    plan.algorithm = &find_algorithm(config.algorithm);
  } catch (const ConfigError& e) {
    return invalid(e.what());
  }
  const Topology& topology = *plan.topology;
  const Algorithm& algorithm = *plan.algorithm;
  if (auto error = algorithm.why_unsupported(topology, exchange_parameters(config))) return RunRefusal{true, *error};
  std::unique_ptr<Workload> workload;
  try {
    check_words_option(algorithm, config);
    plan.options = AlgorithmOptions(algorithm.name, algorithm.options, config.algorithm_options);
    workload = make_workload(algorithm.workload, topology, exchange_parameters(config));
    plan.scratch_bytes = algorithm.scratch_bytes(topology, exchange_parameters(config), plan.options);
  } catch (const ConfigError& e) {
    return invalid(e.what());
  }
  const std::uint64_t node_memory = workload->memory_bytes() + plan.scratch_bytes;
  if (node_memory > 0xffffffffull)
    return invalid(ConfigError("block_bytes", std::to_string(config.block_bytes),
                               "a node's memory (the " + std::to_string(workload->memory_bytes()) + " bytes of the " +
                                   workload->name() + " data and the " + std::to_string(plan.scratch_bytes) +
                                   " scratch bytes " + algorithm.name + " needs = " + std::to_string(node_memory) +
                                   " bytes) must fit 32-bit addresses")
                       .what());
  const std::uint64_t peers = algorithm.peers_per_node ? algorithm.peers_per_node(topology)
                                                       : static_cast<std::uint64_t>(topology.num_nodes());
  if (auto error = check_model_fits(topology, config, NodeFootprint{node_memory, peers})) return invalid(*error);
  return std::nullopt;
}

// The run's output files, each opened before the run (a temporary file beside it: the check that it
// can be written), written after it, and put in place only then.
struct RunOutputs {
  bool stats_to_stdout = false;  // -o -
  OutputFile stats, detail, messages, vcd, fst;
  std::unique_ptr<WaveformRelay> vcd_relay;
  std::optional<FstWriteFaultGuard> fst_fault_guard;
};

// Stage 2: the outputs, checked and opened. An error names the field (exit 2).
std::optional<std::string> open_outputs(const MachineConfig& config, RunOutputs& outputs) {
  // No two outputs are one file, however they are spelt.
  check_distinct_outputs({{"output.stats_json", outputs.stats_to_stdout ? "" : config.stats_json},
                          {"output.vcd", config.vcd},
                          {"output.detail_csv", config.detail_csv},
                          {"output.messages_csv", config.messages_csv},
                          {"output.trace_rtl", config.trace_rtl}});
  if (!config.trace_rtl.empty() && config.router.model != "rtl" && config.router.model != "dual")
    return ConfigError("output.trace_rtl", config.trace_rtl,
                       "the RTL waveform needs router.model rtl or dual (it is " + config.router.model + ")")
        .what();
  for (auto [field, path, file] : {std::tuple{"output.stats_json", &config.stats_json, &outputs.stats},
                                   std::tuple{"output.detail_csv", &config.detail_csv, &outputs.detail},
                                   std::tuple{"output.messages_csv", &config.messages_csv, &outputs.messages},
                                   std::tuple{"output.vcd", &config.vcd, &outputs.vcd},
                                   std::tuple{"output.trace_rtl", &config.trace_rtl, &outputs.fst}})
    if (!path->empty() && !(file == &outputs.stats && outputs.stats_to_stdout)) *file = OutputFile(field, *path);
  if (outputs.vcd.is_open()) outputs.vcd_relay = std::make_unique<WaveformRelay>(outputs.vcd.writing_path(), "waveform");
  if (outputs.fst.is_open()) outputs.fst_fault_guard.emplace("output.trace_rtl", config.trace_rtl, outputs.fst.writing_path());
  return std::nullopt;
}

// Stage 3: the machine made ready to run: the port rule, the outputs it feeds while it runs, every
// node's memory filled.
void prepare_machine(Machine& machine, const Algorithm& algorithm, const MachineConfig& config, RunOutputs& outputs) {
  machine.enforce_port_rule(algorithm);
  if (outputs.detail.is_open()) machine.step_statistics().set_detail_stream(&outputs.detail.stream());
  if (outputs.messages.is_open()) machine.messages().keep_log();
  machine.fill_memory();
  if (outputs.vcd_relay) machine.open_waveform(outputs.vcd_relay->fifo_path(), config.trace_nodes);
  if (outputs.fst.is_open()) machine.open_rtl_waveform(outputs.fst.writing_path(), config.trace_nodes);
}

// Stage 7: the outputs written whole and put in place; the paths written to `summary`, a failed write to
// `err`. False when a write failed.
bool write_outputs(Machine& machine, const MachineConfig& config, const RunReport& report, RunOutputs& outputs,
                   std::ostream& out, std::ostream& summary, std::ostream& err) {
  std::vector<std::string> written, write_errors;
  auto commit = [&](OutputFile& file, const std::string& what) {
    if (!file.is_open()) return;
    const std::string path = file.path();
    if (auto error = file.try_commit()) write_errors.push_back(*error);
    else written.push_back("  " + what + ": " + path);
  };
  if (outputs.stats_to_stdout)
    out << run_document(config, report).dump(1) << "\n" << std::flush;
  else if (outputs.stats.is_open())
    outputs.stats.stream() << run_document(config, report).dump(1) << "\n";
  if (outputs.messages.is_open()) {
    std::ostream& messages = outputs.messages.stream();
    messages << "src,dst,bytes,latency_cycles,header_blocking_cycles\n";
    for (const ReceivedMessageRecord& m : machine.messages().log())
      messages << m.src << ',' << m.dst << ',' << m.bytes << ',' << m.latency_cycles << ',' << m.blocked_cycles << '\n';
  }
  machine.close_waveforms();
  if (outputs.fst.is_open() && !outputs.fst.writes_in_place())
    if (const auto problem = fst_file_problem(outputs.fst.writing_path())) {
      write_errors.push_back("output.trace_rtl = '" + config.trace_rtl + "': writing the file failed: " + *problem);
      outputs.fst.discard();
    }
  if (outputs.vcd_relay)
    if (const std::string error = outputs.vcd_relay->finish(); !error.empty()) {
      write_errors.push_back("output.vcd = '" + config.vcd + "': writing the file failed: " + error);
      outputs.vcd.discard();
    }
  commit(outputs.stats, "statistics");
  commit(outputs.vcd, "waveform");
  commit(outputs.fst, "RTL waveform");
  commit(outputs.detail, "per-node, per-step detail");
  commit(outputs.messages, "per-message records");
  for (const std::string& line : written) summary << line << "\n";
  for (const std::string& error : write_errors) err << "meshmp: error: " << error << "\n";
  return write_errors.empty();
}

}  // namespace

std::optional<RunRefusal> check_run(const MachineConfig& config) {
  RunPlan plan;
  return plan_run(config, plan);
}

// A run in stages: plan (every check before anything is built), open the outputs, build and prepare the
// machine, run it, report (verify, estimate, collect), print the summary, write the outputs.
int run_machine(const MachineConfig& config, std::ostream& out, std::ostream& err, bool quiet) {
  // The summary goes to standard output, or to standard error when the statistics go there (-o -), or
  // nowhere (--quiet); what went wrong always goes to standard error.
  RunOutputs outputs;
  outputs.stats_to_stdout = config.stats_json == kStandardOutput;
  std::ostream no_summary(nullptr);
  std::ostream& summary = quiet ? no_summary : outputs.stats_to_stdout ? err : out;

  RunPlan plan;
  if (auto refusal = plan_run(config, plan)) {
    err << "meshmp: error: " << refusal->message << "\n";
    return 2;
  }
  if (auto error = open_outputs(config, outputs)) {
    err << "meshmp: error: " << *error << "\n";
    return 2;
  }
  const Algorithm& algorithm = *plan.algorithm;
  Machine machine("machine", config, algorithm.firmware, plan.options, plan.scratch_bytes, algorithm.workload);
  prepare_machine(machine, algorithm, config, outputs);

  const RunResult result = machine.run();
  if (result.status == RunStatus::Interrupted) {
    // Nothing of this run is written: the temporary files go, the files named keep what they held.
    err << "meshmp: " << result.message << "; no output written\n";
    return stopped_exit_status();
  }
  const RunReport report = report_run(machine, algorithm, plan.options, result);
  if (stop_signal() != 0) {  // the signal came after the last cycle, while the memories were verified
    err << "meshmp: stopped by " << signal_name(stop_signal()) << " at simulated cycle " << result.completion_cycles
        << " (the run had finished; its memories were being verified); no output written\n";
    return stopped_exit_status();
  }
  print_run_summary(machine, algorithm, report, summary, err);

  const bool written = write_outputs(machine, config, report, outputs, out, summary, err);
  if (!written) return 1;
  return report.ok() ? 0 : 1;
}

}  // namespace meshmp
