// `meshmp run`. See run_command.h.
#include "sims/run_command.h"

#include "sims/build_identity.h"

#include <cstdio>
#include <iomanip>
#include <memory>
#include <optional>
#include <tuple>

#include "firmware/algorithm_registry.h"
#include "topology/config_error.h"
#include "hw/machine.h"
#include "hw/model_size.h"
#include "hw/run_statistics.h"
#include "hw/stop_request.h"
#include "sims/fst_output.h"
#include "sims/output_file.h"
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
  if (auto error = algorithm.supports(topology, exchange_parameters(config))) return RunRefusal{true, *error};
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

}  // namespace

std::optional<RunRefusal> check_run(const MachineConfig& config) {
  RunPlan plan;
  return plan_run(config, plan);
}

int run_machine(const MachineConfig& config, std::ostream& out, std::ostream& err, bool quiet) {
  // The summary goes to standard output, or to standard error when the statistics go there (-o -), or
  // nowhere (--quiet); what went wrong always goes to standard error.
  const bool stats_to_stdout = config.stats_json == kStandardOutput;
  std::ostream no_summary(nullptr);
  std::ostream& summary = quiet ? no_summary : stats_to_stdout ? err : out;
  RunPlan plan;
  if (auto refusal = plan_run(config, plan)) {
    err << "meshmp: error: " << refusal->message << "\n";
    return 2;
  }
  const Topology& topology = *plan.topology;
  const Algorithm* algorithm = plan.algorithm;
  const AlgorithmOptions& options = plan.options;
  const std::uint64_t scratch_bytes = plan.scratch_bytes;
  // Output files: each checked before the run (a temporary file is created beside it), written whole
  // after it, and put in place only then; no two outputs are one file, however they are spelt.
  check_distinct_outputs({{"output.stats_json", stats_to_stdout ? "" : config.stats_json},
                          {"output.vcd", config.vcd},
                          {"output.detail_csv", config.detail_csv},
                          {"output.messages_csv", config.messages_csv},
                          {"output.trace_rtl", config.trace_rtl}});
  if (!config.trace_rtl.empty() && config.router.model != "rtl" && config.router.model != "dual") {
    err << "meshmp: error: "
        << ConfigError("output.trace_rtl", config.trace_rtl,
                       "the RTL waveform needs router.model rtl or dual (it is " + config.router.model + ")")
               .what()
        << "\n";
    return 2;
  }
  OutputFile stats_file, detail_file, messages_file, vcd_file, fst_file;
  for (auto [field, path, file] : {std::tuple{"output.stats_json", &config.stats_json, &stats_file},
                                   std::tuple{"output.detail_csv", &config.detail_csv, &detail_file},
                                   std::tuple{"output.messages_csv", &config.messages_csv, &messages_file},
                                   std::tuple{"output.vcd", &config.vcd, &vcd_file},
                                   std::tuple{"output.trace_rtl", &config.trace_rtl, &fst_file}})
    if (!path->empty() && !(file == &stats_file && stats_to_stdout)) *file = OutputFile(field, *path);
  std::unique_ptr<WaveformRelay> vcd_relay;
  if (vcd_file.is_open()) vcd_relay = std::make_unique<WaveformRelay>(vcd_file.writing_path(), "waveform");
  std::optional<FstWriteFaultGuard> fst_fault_guard;
  if (fst_file.is_open()) fst_fault_guard.emplace("output.trace_rtl", config.trace_rtl, fst_file.writing_path());

  Machine machine("machine", config, algorithm->firmware, options, scratch_bytes, algorithm->workload);
  machine.enforce_port_rule(*algorithm);
  if (detail_file.is_open()) machine.step_statistics().set_detail_stream(&detail_file.stream());
  if (messages_file.is_open()) machine.messages().keep_log();
  machine.fill_memory();
  if (vcd_relay) machine.open_waveform(vcd_relay->fifo_path(), config.trace_nodes);
  if (fst_file.is_open()) machine.open_rtl_waveform(fst_file.writing_path(), config.trace_nodes);
  const RunResult result = machine.run();
  if (result.status == RunStatus::Interrupted) {
    // Nothing of this run is written: the temporary files go, the files named keep what they held.
    err << "meshmp: " << result.message << "; no output written\n";
    return stopped_exit_status();
  }

  const Algorithm::OptionEstimate paper = paper_estimate(*algorithm, topology, exchange_parameters(config), options);
  VerificationReport verification;
  if (result.status == RunStatus::Completed)
    verification = machine.verify();
  if (stop_signal() != 0) {  // the signal came after the last cycle, while the memories were verified
    err << "meshmp: stopped by " << signal_name(stop_signal()) << " at simulated cycle " << result.completion_cycles
        << " (the run had finished; its memories were being verified); no output written\n";
    return stopped_exit_status();
  }
  const nlohmann::json stats = collect_statistics(machine, result);

  const std::uint32_t unit_bytes = machine.workload().unit_bytes();
  const std::string power_on = config.router.rtl_power_on_seed == 0
                                   ? ""
                                   : ", powered up at random (seed " + std::to_string(config.router.rtl_power_on_seed) + ")";
  const std::string router_model = config.router.model == "rtl"    ? "verilated RTL routers" + power_on + ", "
                                   : config.router.model == "dual" ? "SystemC and RTL routers in lockstep" + power_on + ", "
                                                                   : "";
  summary << "meshmp: " << topology.spec() << " (" << topology.num_nodes() << " nodes), algorithm " << algorithm->name
      << " [" << algorithm->source << "]\n"
      << "  workload: " << machine.workload().describe() << "\n";
  if (topology.fabric() != Fabric::None)
    summary << "  " << describe_fabric(config, topology) << "; nodes: one channel each, t_s = " << config.processor.startup_cycles
        << " cycles, rho = " << config.processor.copy_cycles_per_byte << " cycles/byte\n";
  else
    summary << "  router: " << router_model << to_string(config.router.switching) << ", " << config.router.vcs << " VCs x "
      << config.router.buffer_flits << " flits, " << config.router.pipeline_depth << "-cycle routers, "
      << config.router.flit_bytes << "-byte flits, link latency " << config.router.link_latency_cycles
      << " (a credit counted " << config.router.credit_wire_cycles() + config.router.credit_processing_cycles
      << " cycles after it is sent)"
      << "; nodes: " << to_string(config.port_model) << ", t_s = " << config.processor.startup_cycles
      << " cycles, rho = " << config.processor.copy_cycles_per_byte << " cycles/byte\n";
  bool ok = result.status == RunStatus::Completed && verification.ok();
  if (result.status != RunStatus::Completed) {
    err << "  FAILED (" << to_string(result.status) << "): " << result.message << "\n";
    const std::size_t shown = std::min<std::size_t>(result.details.size(), 40);
    for (std::size_t i = 0; i < shown; ++i) err << "    " << result.details[i] << "\n";
    if (result.details.size() > shown) err << "    ... and " << result.details.size() - shown << " more\n";
  } else {
    summary << "  completed in " << result.completion_cycles << " cycles\n";
    if (verification.ok()) {
      summary << "  verified: all " << verification.units_checked << " " << verification.unit << "s ("
          << verification.units_checked * unit_bytes << " bytes) in place on every node\n";
    } else {
      err << "  VERIFICATION FAILED: " << verification.error_count << " error(s), "
          << verification.units_correct << " of " << verification.units_checked << " " << verification.unit
          << "s in place\n";
      for (const auto& e : verification.errors) err << "    " << e << "\n";
    }
    summary << "  start-ups: " << stats["startups"]["max_per_node"] << " per node (max), " << stats["startups"]["total"]
        << " in total\n";
    const auto& lat = machine.has_network() ? stats["messages"]["latency_cycles"] : nlohmann::json{{"count", 0}};
    if (lat["count"].get<std::uint64_t>() > 0)
      summary << "  messages: " << lat["count"] << ", latency mean " << std::fixed << std::setprecision(1)
          << lat["mean"].get<double>() << " / p99 " << lat["p99"] << " / max " << lat["max"]
          << " cycles, header blocking mean " << stats["messages"]["header_blocking_cycles"]["mean"].get<double>()
          << " cycles\n";
    const double estimate = paper.cycles;
    const auto zero_load = static_cast<double>(machine.step_statistics().zero_load_prediction_cycles());
    if (!paper.choices.empty()) summary << "  choices: " << paper.choices << "\n";
    summary << "  predictions: paper " << std::fixed << std::setprecision(0) << estimate << " cycles by " << paper.formula
        << " (measured / paper = " << std::setprecision(3) << result.completion_cycles / estimate << ");\n"
        << "               zero-load model of this machine for the schedule run " << std::setprecision(0) << zero_load
        << " cycles (measured / zero-load = " << std::setprecision(3) << result.completion_cycles / zero_load
        << "; the model puts the marked steps one after the other: exact when every step is synchronised and "
           "none meets header blocking (the schedule line below says), too long where steps overlap, too short "
           "where messages contend)\n";
    if (machine.has_network())
      summary << "  contention: header blocking " << stats["network"]["header_blocking_cycles"] << " cycles, body-flit stalls "
          << stats["network"]["body_flit_stall_cycles"] << " cycles\n";
    else
      summary << "  " << describe_fabric_statistics(stats["fabric"]) << "\n";
    const auto& schedule = stats["schedule"];
    summary << "  schedule: " << schedule["synchronized_steps"] << " synchronized steps, " << schedule["sum_of_step_max_blocks"]
        << " " << (machine.workload().unit_bytes() == config.block_bytes ? machine.workload().unit() : std::string("word"))
        << "s as the sum of each step's largest message, " << schedule["contention_free_steps"]
        << " steps contention-free and " << schedule["steps_with_blocking"] << " with blocking; busiest node "
        << schedule["max_messages_per_node"] << " start-ups, " << schedule["rearrangement_bytes_max_per_node"]
        << " bytes copied locally\n";
    const auto& bounds = stats["bounds"];
    summary << "  bounds (002 §3, steps of one block over one link): status AS(G) = " << std::setprecision(2)
        << bounds["average_status"].get<double>() << " (single-port), cut " << bounds["cut"]["parts"][0] << " x "
        << bounds["cut"]["parts"][1] << " / " << bounds["cut"]["edges"] << " edges = " << bounds["cut_bound_unrounded_steps"].get<double>()
        << " (multiport; " << bounds["cut"]["description"].get<std::string>() << ");\n"
        << "          synchronized steps / bound " << std::setprecision(3)
        << bounds["measured_steps_over_status_bound"].get<double>() << " (status) and "
        << bounds["measured_steps_over_cut_bound"].get<double>()
        << " (cut): below 1 where a step's messages cross several links, as wormhole routing allows\n";
    if (machine.has_network())
      summary << "  network: " << stats["network"]["flit_hops"] << " flit-hops, link utilisation max " << std::setprecision(1)
          << 100 * stats["network"]["max_link_utilization_fraction"].get<double>() << "% mean "
          << 100 * stats["network"]["mean_link_utilization_fraction"].get<double>() << "%\n";
  }
  const auto& speed = stats["simulation"];
  summary << "  simulation: " << std::defaultfloat << std::setprecision(3) << result.host_seconds << " s host on "
      << speed["host_threads"] << " thread(s); ";
  if (machine.has_network())
    summary << "the clock stepped " << speed["cycles_stepped"] << " of " << result.completion_cycles
        << " cycles (it stops while the network is idle): " << std::fixed << std::setprecision(0)
        << speed["stepped_cycles_per_second"].get<double>() << " stepped cycles/s, ";
  else
    summary << "the " << fabric_name(machine.topology().fabric()) << " steps no clock (it acts at its transfers' grants "
        << "and completions): " << std::fixed << std::setprecision(0);
  summary << speed["simulated_cycles_per_second"].get<double>() << " simulated cycles/s\n";
  std::vector<std::string> written, write_errors;
  auto commit = [&](OutputFile& file, const std::string& what) {
    if (!file.is_open()) return;
    const std::string path = file.path();
    if (auto error = file.try_commit()) write_errors.push_back(*error);
    else written.push_back("  " + what + ": " + path);
  };
  if (stats_file.is_open() || stats_to_stdout) {
    nlohmann::json doc = {{"meshmp", build_identity()},
                          {"config", config.to_json()},
                          {"verification",
                           {{"ok", ok && verification.ok()},
                            {"unit", verification.unit},
                            {"units_checked", verification.units_checked},
                            {"units_correct", verification.units_correct},
                            {"error_count", verification.error_count},
                            {"errors", verification.errors}}},
                          {"failure", {{"message", result.message}, {"details", result.details}}},
                          {"analytic",
                           {{"paper",
                             {{"formula", paper.formula},
                              {"choices", paper.choices},
                              {"estimate_cycles", paper.cycles},
                              {"measured_over_estimate", result.completion_cycles / paper.cycles}}},
                            {"zero_load",
                             {{"model", "per step, the slowest node: t_s per message, messages injected one after the "
                                        "other per channel, each arriving flits + hops (pipeline_depth + link "
                                        "latency) + pipeline_depth + 1 cycles after its injection starts, rho per "
                                        "copied byte; steps one after the other"},
                              {"estimate_cycles", machine.step_statistics().zero_load_prediction_cycles()},
                              {"measured_over_estimate",
                               result.completion_cycles /
                                   std::max(1.0, static_cast<double>(machine.step_statistics().zero_load_prediction_cycles()))}}}}},
                          {"statistics", stats}};
    if (stats_to_stdout)
      out << doc.dump(1) << "\n" << std::flush;
    else
      stats_file.stream() << doc.dump(1) << "\n";
  }
  if (messages_file.is_open()) {
    std::ostream& messages = messages_file.stream();
    messages << "src,dst,bytes,latency_cycles,header_blocking_cycles\n";
    for (const ReceivedMessageRecord& m : machine.messages().log())
      messages << m.src << ',' << m.dst << ',' << m.bytes << ',' << m.latency_cycles << ',' << m.blocked_cycles << '\n';
  }
  machine.close_waveforms();
  if (fst_file.is_open() && !fst_file.writes_in_place())
    if (const auto problem = fst_file_problem(fst_file.writing_path())) {
      write_errors.push_back("output.trace_rtl = '" + config.trace_rtl + "': writing the file failed: " + *problem);
      fst_file.discard();
    }
  if (vcd_relay)
    if (const std::string error = vcd_relay->finish(); !error.empty()) {
      write_errors.push_back("output.vcd = '" + config.vcd + "': writing the file failed: " + error);
      vcd_file.discard();
    }
  commit(stats_file, "statistics");
  commit(vcd_file, "waveform");
  commit(fst_file, "RTL waveform");
  commit(detail_file, "per-node, per-step detail");
  commit(messages_file, "per-message records");
  for (const std::string& line : written) summary << line << "\n";
  for (const std::string& error : write_errors) err << "meshmp: error: " << error << "\n";
  if (!write_errors.empty()) return 1;
  return ok ? 0 : 1;
}

}  // namespace meshmp
