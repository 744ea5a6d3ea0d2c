// `meshmp run`. See run_command.h.
#include "sims/run_command.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <memory>
#include <optional>
#include <tuple>

#include "firmware/api/algorithm_registry.h"
#include "topology/config_error.h"
#include "hw/machine/machine.h"
#include "sims/check_command.h"
#include "hw/machine/machine_settings.h"
#include "hw/machine/model_size.h"
#include "hw/network/packet_trace.h"
#include "hw/base/stop_request.h"
#include "hw/router/router_model.h"
#include "sims/child_run.h"
#include "sims/cli_options.h"
#include "sims/fst_output.h"
#include "sims/output_file.h"
#include "sims/progress_line.h"
#include "sims/run_report.h"
#include "sims/stop_signals.h"
#include "sims/temporary_paths.h"
#include "sims/waveform_relay.h"

namespace meshmp {

namespace {

// Stage 1: every check before anything is built, and the run described once (`spec`) when they pass.
std::optional<RunRefusal> plan_run(const MachineConfig& config, std::optional<RunSpec>& spec) {
  auto invalid = [](const std::string& message) { return std::optional<RunRefusal>(RunRefusal{false, message}); };
  if (auto error = beyond_node_limit(config)) return invalid(*error);
  std::optional<Topology> topology;
  try {
    topology = Topology::parse(config.topology);
  } catch (const ConfigError& e) {
    return invalid(e.what());
  }
  if (auto error = config.validate(*topology)) return invalid(*error);
  const Algorithm* found = nullptr;
  try {
    found = &find_algorithm(config.algorithm);
  } catch (const ConfigError& e) {
    return invalid(e.what());
  }
  const Algorithm& algorithm = *found;
  if (auto error = why_unsupported(algorithm, config, *topology)) return RunRefusal{true, *error};
  std::unique_ptr<Workload> workload;
  try {
    spec = make_run_spec(config, algorithm, std::move(*topology));
    workload = make_workload(algorithm.workload, spec->topology, spec->parameters);
  } catch (const ConfigError& e) {
    return invalid(e.what());
  }
  const std::uint64_t node_memory = workload->memory_bytes() + spec->scratch_bytes;
  if (node_memory > 0xffffffffull)
    return invalid(ConfigError("block_bytes", std::to_string(config.block_bytes),
                               "a node's memory (the " + std::to_string(workload->memory_bytes()) + " bytes of the " +
                                   workload->name() + " data and the " + std::to_string(spec->scratch_bytes) +
                                   " scratch bytes " + algorithm.name + " needs = " + std::to_string(node_memory) +
                                   " bytes) must fit 32-bit addresses")
                       .what());
  const std::uint64_t peers = algorithm.peers_per_node ? algorithm.peers_per_node(spec->topology)
                                                       : static_cast<std::uint64_t>(spec->topology.num_nodes());
  if (auto error = check_model_fits(spec->topology, config, NodeFootprint{node_memory, peers})) return invalid(*error);
  return std::nullopt;
}

// The run's output files, each opened before the run (a temporary file beside it: the check that it
// can be written), written after it, and put in place only then.
struct RunOutputs {
  bool stats_to_stdout = false;  // -o -
  OutputFile stats, detail, messages, vcd, fst, packet_trace;
  std::vector<TracePacket> packets;  // --record-trace: the packets the network was offered
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
                          {"output.packet_trace", config.packet_trace},
                          {"output.trace_rtl", config.trace_rtl}});
  if (!config.packet_trace.empty() && config.fidelity != NetworkFidelity::Cycle)
    return ConfigError("output.packet_trace", config.packet_trace,
                       "records the packets of the cycle-level network: needs network.fidelity cycle")
        .what();
  if (!config.packet_trace.empty() && !Topology::fabric_of(config.topology).empty())
    return ConfigError("output.packet_trace", config.packet_trace,
                       "records the packets of a router network; " + config.topology + " is joined by a fabric")
        .what();
  if (!config.trace_rtl.empty() && !find_router_model(config.router.model).verilated)
    return ConfigError("output.trace_rtl", config.trace_rtl,
                       "the RTL waveform needs router.model rtl or dual (it is " + config.router.model + ")")
        .what();
  for (auto [field, path, file] : {std::tuple{"output.stats_json", &config.stats_json, &outputs.stats},
                                   std::tuple{"output.detail_csv", &config.detail_csv, &outputs.detail},
                                   std::tuple{"output.messages_csv", &config.messages_csv, &outputs.messages},
                                   std::tuple{"output.packet_trace", &config.packet_trace, &outputs.packet_trace},
                                   std::tuple{"output.vcd", &config.vcd, &outputs.vcd},
                                   std::tuple{"output.trace_rtl", &config.trace_rtl, &outputs.fst}})
    if (!path->empty() && !(file == &outputs.stats && outputs.stats_to_stdout)) *file = OutputFile(field, *path);
  if (outputs.vcd.is_open()) outputs.vcd_relay = std::make_unique<WaveformRelay>(outputs.vcd.writing_path(), "waveform");
  if (outputs.fst.is_open()) outputs.fst_fault_guard.emplace("output.trace_rtl", config.trace_rtl, outputs.fst.writing_path());
  return std::nullopt;
}

// Stage 3: the machine made ready to run (it enforces its port rule from its construction): the outputs
// it feeds while it runs, every node's memory filled.
void prepare_machine(Machine& machine, const MachineConfig& config, RunOutputs& outputs) {
  if (outputs.detail.is_open()) machine.step_statistics().set_detail_stream(&outputs.detail.stream());
  if (outputs.messages.is_open()) machine.messages().keep_log();
  if (outputs.packet_trace.is_open()) machine.cycle_network().record_packets(&outputs.packets);
  machine.fill_memory();
  if (outputs.vcd_relay) machine.open_waveform(outputs.vcd_relay->fifo_path(), config.trace_nodes);
  if (outputs.fst.is_open()) machine.open_rtl_waveform(outputs.fst.writing_path(), config.trace_nodes);
}

// Stage 7: the outputs written whole and put in place; the paths written to `summary`, a failed write to
// `err`. False when a write failed.
bool write_outputs(Machine& machine, const MachineConfig& config, const RunReport& report,
                   const nlohmann::json& comparison, RunOutputs& outputs, std::ostream& out, std::ostream& summary,
                   std::ostream& err) {
  nlohmann::json document = run_document(config, report);
  if (!comparison.is_null()) document["fidelity_comparison"] = comparison;
  std::vector<std::string> written, write_errors;
  auto commit = [&](OutputFile& file, const std::string& what) {
    if (!file.is_open()) return;
    const std::string path = file.path();
    if (auto error = file.try_commit()) write_errors.push_back(*error);
    else written.push_back("  " + what + ": " + path);
  };
  if (outputs.stats_to_stdout)
    out << document.dump(1) << "\n" << std::flush;
  else if (outputs.stats.is_open())
    outputs.stats.stream() << document.dump(1) << "\n";
  if (outputs.messages.is_open()) {
    std::ostream& messages = outputs.messages.stream();
    messages << "src,dst,bytes,latency_cycles,header_blocking_cycles\n";
    for (const ReceivedMessageRecord& m : machine.messages().log())
      messages << m.src << ',' << m.dst << ',' << m.bytes << ',' << m.latency_cycles << ',' << m.blocked_cycles << '\n';
  }
  if (outputs.packet_trace.is_open()) write_packet_trace(outputs.packet_trace.stream(), outputs.packets);
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
  commit(outputs.packet_trace, "packet trace");
  for (const std::string& line : written) summary << line << "\n";
  for (const std::string& error : write_errors) err << "meshmp: error: " << error << "\n";
  return write_errors.empty();
}

// --fidelity both, first half: the same machine at transaction level in a child process (SystemC elaborates
// one machine per process), from this configuration written to a temporary config file; its results, or
// none (then `failure` says why).
std::optional<nlohmann::json> run_at_transaction_level(const MachineConfig& config, std::string& failure) {
  MachineConfig tlm = config;
  tlm.fidelity = NetworkFidelity::Transaction;
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/meshmp-config-XXXXXX.json";
  const int fd = mkstemps(path.data(), 5);
  if (fd < 0) {
    failure = "no temporary config file could be made in " + path.substr(0, path.rfind('/'));
    return std::nullopt;
  }
  close(fd);
  const TemporaryPath registered(path);
  std::ofstream file(path);
  file << tlm.to_json().dump(1) << "\n";
  file.close();
  if (!file) {  // a full $TMPDIR: said as such, not found later as a broken config the user never gave
    failure = "the temporary config file of the transaction-level run could not be written in " +
              path.substr(0, path.rfind('/')) + " ($TMPDIR): " + (errno != 0 ? std::strerror(errno) : "the write failed");
    std::remove(path.c_str());
    return std::nullopt;
  }
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  self[length > 0 ? length : 0] = '\0';
  ChildRun run;
  try {
    run = run_meshmp_child(self, {"--config", path, "--quiet"});
  } catch (const std::exception& e) {
    failure = e.what();
  }
  std::remove(path.c_str());
  if (!failure.empty()) return std::nullopt;
  if (stopped_with_this_process(run.outcome)) throw StopRequested{};
  if (!run.stats.contains("statistics")) {
    failure = "the transaction-level run wrote no results (" + run.outcome.describe() + ")";
    return std::nullopt;
  }
  return std::move(run.stats);
}

// --fidelity both, second half: the two runs side by side, for the summary and the results.
nlohmann::json compare_fidelities(const nlohmann::json& tlm, const RunReport& cycle) {
  const nlohmann::json& t = tlm["statistics"];
  const nlohmann::json& c = cycle.statistics;
  const double cycle_completion = std::max<double>(1, c["completion_cycles"].get<double>());
  const double tlm_seconds = std::max(1e-9, t["simulation"]["host_seconds"].get<double>());
  bool links_equal = c.contains("network") && t.contains("network") &&
                     c["network"]["links"].size() == t["network"]["links"].size();
  for (std::size_t i = 0; links_equal && i < c["network"]["links"].size(); ++i)
    links_equal = c["network"]["links"][i]["flits"] == t["network"]["links"][i]["flits"];
  return {{"cycle_completion_cycles", c["completion_cycles"]},
          {"tlm_completion_cycles", t["completion_cycles"]},
          {"tlm_over_cycle_minus_one", t["completion_cycles"].get<double>() / cycle_completion - 1},
          {"cycle_host_seconds", c["simulation"]["host_seconds"]},
          {"tlm_host_seconds", t["simulation"]["host_seconds"]},
          {"cycle_over_tlm_host_time", c["simulation"]["host_seconds"].get<double>() / tlm_seconds},
          {"link_flits_equal", links_equal},
          {"schedule_equal", c["schedule"] == t["schedule"]},
          {"tlm_verification_passed", tlm["verification"]["ok"]}};
}

void print_comparison(const nlohmann::json& comparison, std::ostream& summary) {
  summary << "  fidelity: cycle level " << comparison["cycle_completion_cycles"] << " cycles, transaction level "
          << comparison["tlm_completion_cycles"] << " cycles: error (tlm / cycle - 1) " << std::showpos << std::fixed
          << std::setprecision(2) << 100 * comparison["tlm_over_cycle_minus_one"].get<double>() << std::noshowpos
          << "%; link flits " << (comparison["link_flits_equal"].get<bool>() ? "equal" : "differ") << ", schedule "
          << (comparison["schedule_equal"].get<bool>() ? "equal" : "differs") << ", transaction level "
          << (comparison["tlm_verification_passed"].get<bool>() ? "verified" : "NOT verified") << "; host time: cycle level "
          << std::setprecision(3) << comparison["cycle_host_seconds"].get<double>() << " s, transaction level "
          << comparison["tlm_host_seconds"].get<double>() << " s (the transaction level " << std::setprecision(1)
          << comparison["cycle_over_tlm_host_time"].get<double>() << "x as fast)\n";
}

}  // namespace

std::optional<RunRefusal> check_run(const MachineConfig& config) {
  std::optional<RunSpec> spec;
  return plan_run(config, spec);
}

// The machine's run, with a progress line while it lasts on a terminal (sims/progress_line.h).
RunResult run_showing_progress(Machine& machine, const RunSpec& spec, std::ostream& err, bool quiet) {
  const double estimate = paper_estimate(*spec.algorithm, spec.topology, spec.parameters, spec.options).cycles;
  const ProgressLine progress(machine, estimate, err, quiet);
  return machine.run();
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

  std::optional<RunSpec> spec;
  if (auto refusal = plan_run(config, spec)) {
    err << "meshmp: error: " << refusal->message << "\n";
    return 2;
  }
  if (auto error = open_outputs(config, outputs)) {
    err << "meshmp: error: " << *error << "\n";
    return 2;
  }
  warn_of_a_dependency_cycle(config, err);
  // --fidelity both: the transaction level first, in a child; then the cycle level here, as any run.
  nlohmann::json transaction_level;
  if (config.fidelity == NetworkFidelity::Both) {
    std::string failure;
    if (auto results = run_at_transaction_level(config, failure)) transaction_level = std::move(*results);
    else {
      err << "meshmp: error: network.fidelity both: " << failure << "\n";
      return 1;
    }
  }
  if (config.fidelity == NetworkFidelity::Both) spec->config.fidelity = NetworkFidelity::Cycle;
  const Algorithm& algorithm = *spec->algorithm;
  Machine machine("machine", *spec);
  prepare_machine(machine, config, outputs);

  const RunResult result = run_showing_progress(machine, *spec, err, quiet);
  if (result.status == RunStatus::Interrupted) {
    // Nothing of this run is written: the temporary files go, the files named keep what they held.
    err << "meshmp: " << result.message << "; no output written\n";
    return stopped_exit_status();
  }
  const RunReport report = report_run(machine, algorithm, spec->options, result);
  if (stop_signal() != 0) {  // the signal came after the last cycle, while the memories were verified
    err << "meshmp: stopped by " << signal_name(stop_signal()) << " at simulated cycle " << result.completion_cycles
        << " (the run had finished; its memories were being verified); no output written\n";
    return stopped_exit_status();
  }
  print_run_summary(machine, algorithm, report, summary, err);
  nlohmann::json comparison;
  if (!transaction_level.is_null()) {
    comparison = compare_fidelities(transaction_level, report);
    print_comparison(comparison, summary);
  }

  const bool written = write_outputs(machine, config, report, comparison, outputs, out, summary, err);
  if (!written) return 1;
  const bool tlm_ok = comparison.is_null() || comparison["tlm_verification_passed"].get<bool>();
  return report.ok() && tlm_ok ? 0 : 1;
}

void RunCommand::add_to(CLI::App& command) {
  options_.add_to(command);
  command.footer(R"(
DESCRIPTION
  Builds the machine (one router, DMA engine, memory and processor per node), fills every node's send
  buffer with N blocks of m bytes (block i->j at j*m, a pattern of i, j and the byte index), runs the
  algorithm's firmware on every processor, then checks every node's receive buffer and reports each
  lost, duplicated or misplaced block by source, destination and place.

EXAMPLES
  meshmp run --topology torus:8x8 --algorithm direct --vcd wave.vcd --trace-nodes 0,9
  meshmp run --topology hypercube:6 --algorithm pairwise --port-model all-port -m 256
  meshmp run --config sims/examples/hypercube6_pairwise.json --startup-cycles 50

CONFIG FILE
  )" + config_file_help() + R"(
  Unknown keys and keys given twice are errors.

EXIT STATUS
  0 completed and verified; 1 the run failed (deadlock: the blocked channels are listed; stall: what each
  node waits for; firmware error; wrong data); 2 bad input (the message names field, value and rule).)");
}

int RunCommand::run(const CommandContext& context) {
  const MachineConfig config = options_.resolve();
  if (options_.print_config()) {
    // Printed only when the run would start: every check it makes (the algorithm on the machine included).
    if (auto refusal = check_run(config)) {
      context.err << "meshmp: error: " << refusal->message << "\n";
      return 2;
    }
    context.out << config.to_json().dump(1) << "\n";
    return 0;
  }
  return run_machine(config, context.out, context.err, options_.quiet());
}

}  // namespace meshmp
