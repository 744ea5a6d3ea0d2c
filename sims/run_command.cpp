// `meshmp run`. See run_command.h.
#include "sims/run_command.h"

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <tuple>

#include "firmware/algorithm_registry.h"
#include "topology/config_error.h"
#include "hw/machine.h"
#include "hw/model_size.h"
#include "hw/run_statistics.h"

namespace meshmp {

int run_machine(const MachineConfig& config, std::ostream& out, std::ostream& err) {
  if (auto error = config.validate()) {
    err << "meshmp: error: " << *error << "\n";
    return 2;
  }
  const Topology topology = Topology::parse(config.topology);
  const Algorithm* algorithm = nullptr;
  try {
    algorithm = &find_algorithm(config.algorithm);
  } catch (const ConfigError& e) {
    err << "meshmp: error: " << e.what() << "\n";
    return 2;
  }
  if (auto error = algorithm->supports(topology, exchange_parameters(config))) {
    err << "meshmp: error: " << *error << "\n";
    return 2;
  }
  AlgorithmOptions options;
  std::uint64_t scratch_bytes = 0;
  std::unique_ptr<Workload> workload;
  try {
    options = AlgorithmOptions(algorithm->name, algorithm->options, config.algorithm_options);
    workload = make_workload(algorithm->workload, topology, exchange_parameters(config));
    scratch_bytes = algorithm->scratch_bytes(topology, exchange_parameters(config), options);
  } catch (const ConfigError& e) {
    err << "meshmp: error: " << e.what() << "\n";
    return 2;
  }
  const std::uint64_t node_memory = workload->memory_bytes() + scratch_bytes;
  if (node_memory > 0xffffffffull) {
    err << "meshmp: error: "
        << ConfigError("block_bytes", std::to_string(config.block_bytes),
                       "a node's memory (the " + std::to_string(workload->memory_bytes()) + " bytes of the " +
                           workload->name() + " data and the " + std::to_string(scratch_bytes) + " scratch bytes " +
                           algorithm->name + " needs = " + std::to_string(node_memory) +
                           " bytes) must fit 32-bit addresses")
               .what()
        << "\n";
    return 2;
  }
  const std::uint64_t peers = algorithm->peers_per_node ? algorithm->peers_per_node(topology)
                                                        : static_cast<std::uint64_t>(topology.num_nodes());
  if (auto error = check_model_fits(topology, config, NodeFootprint{node_memory, peers})) {
    err << "meshmp: error: " << *error << "\n";
    return 2;
  }
  // Output files: each named file is written exactly as named, and no two outputs share a path.
  const std::pair<const char*, const std::string*> outputs[] = {
      {"output.stats_json", &config.stats_json}, {"output.vcd", &config.vcd}, {"output.detail_csv", &config.detail_csv},
      {"output.messages_csv", &config.messages_csv}, {"output.trace_rtl", &config.trace_rtl}};
  for (std::size_t i = 0; i < std::size(outputs); ++i)
    for (std::size_t j = i + 1; j < std::size(outputs); ++j)
      if (!outputs[i].second->empty() && *outputs[i].second == *outputs[j].second) {
        err << "meshmp: error: "
            << ConfigError(outputs[j].first, *outputs[j].second,
                           std::string("is also ") + outputs[i].first + ": every output needs its own file")
                   .what()
            << "\n";
        return 2;
      }
  if (!config.vcd.empty() && (config.vcd.size() <= 4 || config.vcd.compare(config.vcd.size() - 4, 4, ".vcd") != 0)) {
    err << "meshmp: error: "
        << ConfigError("output.vcd", config.vcd, "a waveform file name must end in .vcd").what() << "\n";
    return 2;
  }
  if (!config.trace_rtl.empty()) {
    std::string rule;
    if (config.trace_rtl.size() <= 4 || config.trace_rtl.compare(config.trace_rtl.size() - 4, 4, ".fst") != 0)
      rule = "an FST waveform file name must end in .fst";
    else if (config.router.model != "rtl" && config.router.model != "dual")
      rule = "the RTL waveform needs router.model rtl or dual (it is " + config.router.model + ")";
    else if (!std::ofstream(config.trace_rtl))
      rule = "the file cannot be written";
    if (!rule.empty()) {
      err << "meshmp: error: " << ConfigError("output.trace_rtl", config.trace_rtl, rule).what() << "\n";
      return 2;
    }
  }
  std::ofstream stats_file, detail_file, messages_file;
  for (auto [field, path, file] : {std::tuple{"output.stats_json", &config.stats_json, &stats_file},
                                   std::tuple{"output.detail_csv", &config.detail_csv, &detail_file},
                                   std::tuple{"output.messages_csv", &config.messages_csv, &messages_file}}) {
    if (path->empty()) continue;
    file->open(*path);
    if (!*file) {
      err << "meshmp: error: " << ConfigError(field, *path, "the file cannot be written").what() << "\n";
      return 2;
    }
  }
  if (!config.vcd.empty()) {
    std::ofstream probe(config.vcd);
    if (!probe) {
      err << "meshmp: error: " << ConfigError("output.vcd", config.vcd, "the file cannot be written").what() << "\n";
      return 2;
    }
  }

  Machine machine("machine", config, algorithm->firmware, options, scratch_bytes, algorithm->workload);
  if (detail_file.is_open()) machine.step_statistics().set_detail_stream(&detail_file);
  if (messages_file.is_open()) machine.messages().keep_log();
  machine.fill_memory();
  if (!config.vcd.empty()) machine.open_waveform(config.vcd, config.trace_nodes);
  if (!config.trace_rtl.empty()) machine.open_rtl_waveform(config.trace_rtl, config.trace_nodes);
  const RunResult result = machine.run();

  VerificationReport verification;
  if (result.status == RunStatus::Completed)
    verification = machine.verify();
  const nlohmann::json stats = collect_statistics(machine, result);

  const std::uint32_t unit_bytes = machine.workload().unit_bytes();
  const std::string power_on = config.router.rtl_power_on_seed == 0
                                   ? ""
                                   : ", powered up at random (seed " + std::to_string(config.router.rtl_power_on_seed) + ")";
  const std::string router_model = config.router.model == "rtl"    ? "verilated RTL routers" + power_on + ", "
                                   : config.router.model == "dual" ? "SystemC and RTL routers in lockstep" + power_on + ", "
                                                                   : "";
  out << "meshmp: " << topology.spec() << " (" << topology.num_nodes() << " nodes), algorithm " << algorithm->name
      << " [" << algorithm->source << "]\n"
      << "  workload: " << machine.workload().describe() << "\n"
      << "  router: " << router_model << to_string(config.router.switching) << ", " << config.router.vcs << " VCs x "
      << config.router.buffer_flits << " flits, " << config.router.pipeline_depth << "-cycle routers, "
      << config.router.flit_bytes << "-byte flits, link latency " << config.router.link_latency_cycles
      << "; nodes: " << to_string(config.port_model) << ", t_s = " << config.processor.startup_cycles
      << " cycles, rho = " << config.processor.copy_cycles_per_byte << " cycles/byte\n";
  bool ok = result.status == RunStatus::Completed && verification.ok();
  if (result.status != RunStatus::Completed) {
    out << "  FAILED (" << to_string(result.status) << "): " << result.message << "\n";
    const std::size_t shown = std::min<std::size_t>(result.details.size(), 40);
    for (std::size_t i = 0; i < shown; ++i) out << "    " << result.details[i] << "\n";
    if (result.details.size() > shown) out << "    ... and " << result.details.size() - shown << " more\n";
  } else {
    out << "  completed in " << result.completion_cycles << " cycles\n";
    if (verification.ok()) {
      out << "  verified: all " << verification.units_checked << " " << verification.unit << "s ("
          << verification.units_checked * unit_bytes << " bytes) in place on every node\n";
    } else {
      out << "  VERIFICATION FAILED: " << verification.error_count << " error(s), "
          << verification.units_correct << " of " << verification.units_checked << " " << verification.unit
          << "s in place\n";
      for (const auto& e : verification.errors) out << "    " << e << "\n";
    }
    const auto& lat = stats["messages"]["latency_cycles"];
    out << "  start-ups: " << stats["startups"]["max_per_node"] << " per node (max), " << stats["startups"]["total"]
        << " in total\n";
    if (lat["count"].get<std::uint64_t>() > 0)
      out << "  messages: " << lat["count"] << ", latency mean " << std::fixed << std::setprecision(1)
          << lat["mean"].get<double>() << " / p99 " << lat["p99"] << " / max " << lat["max"]
          << " cycles, header blocking mean " << stats["messages"]["header_blocking_cycles"]["mean"].get<double>()
          << " cycles\n";
    const double estimate = algorithm->estimate_cycles(topology, exchange_parameters(config));
    const auto zero_load = static_cast<double>(machine.step_statistics().zero_load_prediction_cycles());
    out << "  predictions: paper " << std::setprecision(0) << estimate << " cycles by " << algorithm->estimate_formula
        << " (measured / paper = " << std::setprecision(3) << result.completion_cycles / estimate << ");\n"
        << "               zero-load model of this machine for the schedule run " << std::setprecision(0) << zero_load
        << " cycles (measured / zero-load = " << std::setprecision(3) << result.completion_cycles / zero_load
        << "; the model puts the marked steps one after the other: exact on synchronised, contention-free "
           "schedules, too long where steps overlap)\n";
    out << "  contention: header blocking " << stats["network"]["header_blocking_cycles"] << " cycles, body-flit stalls "
        << stats["network"]["body_flit_stall_cycles"] << " cycles\n";
    const auto& schedule = stats["schedule"];
    out << "  schedule: " << schedule["synchronized_steps"] << " synchronized steps, " << schedule["sum_of_step_max_blocks"]
        << " " << machine.workload().unit() << "s as the sum of each step's largest message, " << schedule["contention_free_steps"]
        << " steps contention-free and " << schedule["steps_with_blocking"] << " with blocking; busiest node "
        << schedule["max_messages_per_node"] << " start-ups, " << schedule["rearrangement_bytes_max_per_node"]
        << " bytes copied locally\n";
    const auto& bounds = stats["bounds"];
    out << "  bounds (002 §3, steps of one block over one link): status AS(G) = " << std::setprecision(2)
        << bounds["average_status"].get<double>() << " (single-port), cut " << bounds["cut"]["parts"][0] << " x "
        << bounds["cut"]["parts"][1] << " / " << bounds["cut"]["edges"] << " edges = " << bounds["cut_bound"].get<double>()
        << " (multiport; " << bounds["cut"]["description"].get<std::string>() << ");\n"
        << "          synchronized steps / bound " << std::setprecision(3)
        << bounds["measured_steps_over_status_bound"].get<double>() << " (status) and "
        << bounds["measured_steps_over_cut_bound"].get<double>()
        << " (cut): below 1 where a step's messages cross several links, as wormhole routing allows\n";
    out << "  network: " << stats["network"]["flit_hops"] << " flit-hops, link utilisation max " << std::setprecision(1)
        << 100 * stats["network"]["max_link_utilization"].get<double>() << "% mean "
        << 100 * stats["network"]["mean_link_utilization"].get<double>() << "%\n";
  }
  const auto& speed = stats["simulation"];
  out << "  simulation: " << std::defaultfloat << std::setprecision(3) << result.host_seconds << " s host on "
      << speed["host_threads"] << " thread(s); the clock stepped " << speed["cycles_stepped"] << " of "
      << result.completion_cycles << " cycles (it stops while the network is idle): " << std::fixed
      << std::setprecision(0) << speed["stepped_cycles_per_second"].get<double>() << " stepped cycles/s, "
      << speed["simulated_cycles_per_second"].get<double>() << " simulated cycles/s\n";
  if (stats_file.is_open()) {
    nlohmann::json doc = {{"config", config.to_json()},
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
                             {{"formula", algorithm->estimate_formula},
                              {"estimate_cycles", algorithm->estimate_cycles(topology, exchange_parameters(config))},
                              {"measured_over_estimate",
                               result.completion_cycles / algorithm->estimate_cycles(topology, exchange_parameters(config))}}},
                            {"zero_load",
                             {{"model", "per step, the slowest node: t_s per message, messages injected one after the "
                                        "other per channel, each arriving flits + hops (pipeline_depth + link "
                                        "latency) + pipeline_depth + 1 cycles after its injection starts, rho per "
                                        "copied byte; steps one after the other"},
                              {"prediction_cycles", machine.step_statistics().zero_load_prediction_cycles()},
                              {"measured_over_prediction",
                               result.completion_cycles /
                                   std::max(1.0, static_cast<double>(machine.step_statistics().zero_load_prediction_cycles()))}}}}},
                          {"statistics", stats}};
    stats_file << doc.dump(1) << "\n";
    out << "  statistics: " << config.stats_json << "\n";
  }
  if (!config.vcd.empty()) out << "  waveform: " << config.vcd << "\n";
  if (!config.trace_rtl.empty()) out << "  RTL waveform: " << config.trace_rtl << "\n";
  if (detail_file.is_open()) out << "  per-node, per-step detail: " << config.detail_csv << "\n";
  if (messages_file.is_open()) {
    messages_file << "src,dst,bytes,latency_cycles,header_blocking_cycles\n";
    for (const ReceivedMessageRecord& m : machine.messages().log())
      messages_file << m.src << ',' << m.dst << ',' << m.bytes << ',' << m.latency_cycles << ',' << m.blocked_cycles << '\n';
    out << "  per-message records: " << config.messages_csv << "\n";
  }
  return ok ? 0 : 1;
}

}  // namespace meshmp
