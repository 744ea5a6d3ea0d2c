// `meshmp fidelity`. See fidelity_command.h.
#include "sims/fidelity_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include <nlohmann/json.hpp>

#include "firmware/api/algorithm_registry.h"
#include "hw/router/routing.h"
#include "hw/network/traffic_generator.h"
#include "sims/child_run.h"
#include "sims/output_file.h"
#include "sims/run_command.h"
#include "sims/stop_signals.h"
#include "topology/config_error.h"

namespace meshmp {

void FidelityCommand::add_to(CLI::App& c) {
  c.add_option("-t,--topologies", topologies_, "the machines (router networks)")->delimiter(',');
  c.add_option("-a,--algorithms", algorithms_, "the algorithms (default: every registered one that runs there; none: traffic alone)")
      ->delimiter(',');
  c.add_option("-m,--block-bytes", block_bytes_, "bytes per block of the algorithms' runs")->check(CLI::Range(1u, 1u << 20));
  c.add_option("--loads", load_fractions_,
               "synthetic traffic's offered loads, as fractions of each pattern's ideal saturation rate (0, 1]")
      ->delimiter(',')
      ->check(CLI::Range(1e-6, 1.0));
  c.add_option("--patterns", patterns_, "synthetic traffic patterns: uniform, transpose, hotspot, ... (none: the algorithms alone)")->delimiter(',');
  c.add_option("--markdown", markdown_, "write the table as Markdown to this file");
  c.add_option("-o,--json", json_, "write the measurements as JSON to this file");
  c.footer(R"(
DESCRIPTION
  Runs every algorithm that runs on each machine without barriers (sync=none where it has the option) at
  both levels (meshmp run --fidelity both), and synthetic traffic at loads from 10% to 100% of the cycle
  level's saturation rate (found by bisection: mean latency 3 times its low-load value; meshmp traffic at
  cycle and tlm), each in its own process. Prints the completion error (tlm / cycle - 1) of every
  algorithm, the latency error of every load and the host times, as the Markdown table docs/fidelity.md
  holds.

EXAMPLES
  meshmp fidelity --markdown fidelity.md --json fidelity.json
  meshmp fidelity -t torus:8x8 -a direct,tseng-t1 --patterns uniform --loads 0.1,0.5,1)");
}

namespace {

std::string percent(double fraction) {
  std::ostringstream s;
  s << std::showpos << std::fixed << std::setprecision(2) << 100 * fraction << "%";
  return s.str();
}

std::string fixed(double value, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << value;
  return s.str();
}

// The first of these port models a run of `config` accepts; none when the algorithm does not run there.
std::optional<MachineConfig> runnable(MachineConfig config) {
  for (PortModel ports : {PortModel::OnePort, PortModel::AllPort}) {
    config.port_model = ports;
    if (!check_run(config)) return config;
  }
  return std::nullopt;
}

std::vector<std::string> run_arguments(const MachineConfig& config) {
  std::vector<std::string> args{"-t", config.topology, "-a", config.algorithm, "-m", std::to_string(config.block_bytes),
                                "--port-model", to_string(config.port_model), "--fidelity", "both", "--quiet"};
  for (const auto& [key, value] : config.algorithm_options) args.insert(args.end(), {"--algorithm-option", key + "=" + value});
  return args;
}

// One `meshmp traffic` point in a child: its results, or none (then a failure is reported to `err`).
std::optional<nlohmann::json> traffic_point(const std::string& self_path, const std::string& spec,
                                            const std::string& pattern, double rate, const char* fidelity,
                                            std::ostream& err) {
  throw_if_stop_requested();
  const ChildRun run = run_meshmp_child(
      self_path, {"-t", spec, "--pattern", pattern, "--rate", fixed(rate, 6), "--fidelity", fidelity}, "traffic");
  if (stopped_with_this_process(run.outcome)) throw StopRequested{};
  if (!run.stats.contains("average_packet_latency_cycles") || run.outcome.exit_status != 0) {
    err << "meshmp: error: " << spec << " " << pattern << " at " << fixed(rate, 4) << " (" << fidelity
        << "): " << run.outcome.describe() << "\n";
    return std::nullopt;
  }
  return run.stats;
}

// The cycle level's saturation rate for a pattern: the highest load (to 1/64 of the ideal rate, by
// bisection) whose mean latency stays below 3 times the latency at 5 % of the ideal rate, all its measured
// packets delivered (the definition meshmp traffic's sweeps use). Negative when a run failed.
double cycle_level_saturation(const std::string& self_path, const std::string& spec, const std::string& pattern,
                              double ideal, std::ostream& err) {
  const auto low = traffic_point(self_path, spec, pattern, 0.05 * ideal, "cycle", err);
  if (!low) return -1;
  const double limit = 3 * (*low)["average_packet_latency_cycles"].get<double>();
  auto saturated = [&](double rate) -> std::optional<bool> {
    const auto point = traffic_point(self_path, spec, pattern, rate, "cycle", err);
    if (!point) return std::nullopt;
    return !(*point)["all_measured_packets_delivered"].get<bool>() ||
           (*point)["average_packet_latency_cycles"].get<double>() >= limit;
  };
  double below = 0.05 * ideal, above = ideal;
  const auto at_ideal = saturated(ideal);
  if (!at_ideal) return -1;
  if (!*at_ideal) return ideal;
  while (above - below > ideal / 64) {
    const double middle = (below + above) / 2;
    const auto is = saturated(middle);
    if (!is) return -1;
    (*is ? above : below) = middle;
  }
  return below;
}

}  // namespace

int FidelityCommand::compare_algorithms(const CommandContext& context, nlohmann::json& results,
                                        std::ostream& table) const {
  const std::string& self_path = context.self_path;
  std::ostream& out = context.out;
  std::ostream& err = context.err;
  int status = 0;
  auto failed = [&](const std::string& what, const ChildOutcome& outcome) {
    err << "meshmp: error: " << what << ": " << outcome.describe() << "\n";
    status = 1;
  };
  for (const std::string& spec : topologies_) {
    for (const Algorithm& algorithm : algorithms()) {
      if (!algorithms_.empty() && std::find(algorithms_.begin(), algorithms_.end(), algorithm.name) == algorithms_.end())
        continue;
      MachineConfig config;
      config.topology = spec;
      config.algorithm = algorithm.name;
      config.block_bytes = block_bytes_;
      for (const AlgorithmOption& option : algorithm.options)
        if (option.name == "sync") config.algorithm_options["sync"] = "none";
      const std::optional<MachineConfig> point = runnable(config);
      if (!point) continue;
      throw_if_stop_requested();
      const ChildRun run = run_meshmp_child(self_path, run_arguments(*point));
      if (stopped_with_this_process(run.outcome)) throw StopRequested{};
      const std::string what = spec + " " + algorithm.name;
      if (!run.stats.contains("fidelity_comparison")) {
        failed(what, run.outcome);
        continue;
      }
      const nlohmann::json& c = run.stats["fidelity_comparison"];
      if (run.outcome.exit_status != 0) failed(what + " (a level was not verified)", run.outcome);
      results["algorithms"].push_back({{"topology", spec},
                                       {"algorithm", algorithm.name},
                                       {"port_model", to_string(point->port_model)},
                                       {"block_bytes", block_bytes_},
                                       {"comparison", c}});
      table << "| " << spec << (point->port_model == PortModel::AllPort ? " (all-port)" : "") << " | "
            << algorithm.name << " | " << c["cycle_completion_cycles"] << " | " << c["tlm_completion_cycles"] << " | "
            << percent(c["tlm_over_cycle_minus_one"].get<double>()) << " | "
            << fixed(c["cycle_host_seconds"].get<double>(), 3) << " | " << fixed(c["tlm_host_seconds"].get<double>(), 3)
            << " | " << fixed(c["cycle_over_tlm_host_time"].get<double>(), 1) << "x |\n";
      out << "  " << what << ": " << percent(c["tlm_over_cycle_minus_one"].get<double>()) << "\n" << std::flush;
    }
  }
  return status;
}

int FidelityCommand::compare_traffic(const CommandContext& context, nlohmann::json& results,
                                     std::ostream& table) const {
  const std::string& self_path = context.self_path;
  std::ostream& out = context.out;
  std::ostream& err = context.err;
  int status = 0;
  if (std::any_of(patterns_.begin(), patterns_.end(), [](const std::string& p) { return p != "none"; })) {
    table << "\n| machine | traffic | offered, flits/node/cycle (of the cycle level's saturation) | cycle level: "
             "accepted, mean latency | tlm: accepted, mean latency | latency error | cycle level, s | tlm, s |\n"
             "|---|---|---:|---:|---:|---:|---:|---:|\n";
  }
  for (const std::string& spec : topologies_) {
    const Topology topology = Topology::parse(spec);
    for (const std::string& pattern : patterns_) {
      if (pattern == "none") continue;
      TrafficParams params;
      params.pattern = parse_traffic_pattern(pattern);
      if (params.validate(topology)) continue;  // a pattern this machine cannot take (transpose off a square)
      const double ideal = ideal_saturation_rate(topology, find_routing_function("dimension-order"), params);
      const double saturation = cycle_level_saturation(self_path, spec, pattern, ideal, err);
      if (saturation < 0) {
        status = 1;
        continue;
      }
      out << "  " << spec << " " << pattern << ": saturates at " << fixed(saturation, 3) << " flits/node/cycle at cycle "
          << "level (ideal " << fixed(ideal, 3) << ")\n" << std::flush;
      for (double fraction : load_fractions_) {
        const double rate = saturation * fraction;
        const auto cycle = traffic_point(self_path, spec, pattern, rate, "cycle", err);
        const auto tlm = cycle ? traffic_point(self_path, spec, pattern, rate, "tlm", err) : std::nullopt;
        if (!cycle || !tlm) {
          status = 1;
          continue;
        }
        const nlohmann::json level[2] = {*cycle, *tlm};
        const double seconds[2] = {level[0]["host_seconds"].get<double>(), level[1]["host_seconds"].get<double>()};
        const double cycle_latency = level[0]["average_packet_latency_cycles"].get<double>();
        const double error = cycle_latency > 0 ? level[1]["average_packet_latency_cycles"].get<double>() / cycle_latency - 1 : 0;
        const bool saturated = !level[0]["all_measured_packets_delivered"].get<bool>();
        results["traffic"].push_back({{"topology", spec},
                                      {"pattern", pattern},
                                      {"ideal_saturation_flits_per_node_per_cycle", ideal},
                                      {"cycle_level_saturation_flits_per_node_per_cycle", saturation},
                                      {"offered_flits_per_node_per_cycle", rate},
                                      {"fraction_of_cycle_level_saturation", fraction},
                                      {"cycle", level[0]},
                                      {"tlm", level[1]},
                                      {"latency_tlm_over_cycle_minus_one", error}});
        table << "| " << spec << " | " << pattern << " | " << fixed(rate, 3) << " (" << fixed(100 * fraction, 0)
              << "%) | " << fixed(level[0]["accepted_flits_per_node_per_cycle"].get<double>(), 3) << ", "
              << fixed(cycle_latency, 1) << (saturated ? " (saturated)" : "") << " | "
              << fixed(level[1]["accepted_flits_per_node_per_cycle"].get<double>(), 3) << ", "
              << fixed(level[1]["average_packet_latency_cycles"].get<double>(), 1) << " | " << percent(error) << " | "
              << fixed(seconds[0], 2) << " | " << fixed(seconds[1], 2) << " |\n";
        out << "  " << spec << " " << pattern << " at " << fixed(100 * fraction, 0) << "% of saturation: "
            << percent(error) << "\n" << std::flush;
      }
    }
  }
  return status;
}

int FidelityCommand::run(const CommandContext& context) {
  check_distinct_outputs({{"--markdown", markdown_}, {"--json", json_}});
  std::optional<OutputFile> markdown_file, json_file;
  if (!markdown_.empty()) markdown_file.emplace("--markdown", markdown_);
  if (!json_.empty()) json_file.emplace("--json", json_);
  for (const std::string& spec : topologies_)
    if (!Topology::fabric_of(spec).empty())
      throw ConfigError("--topologies", spec, "has no router network to model at two levels");
  // Every name is known and given once: a misspelt one would leave its rows out of the table unsaid.
  for (const auto& [field, names] : {std::pair{"--topologies", &topologies_}, std::pair{"--algorithms", &algorithms_},
                                     std::pair{"--patterns", &patterns_}})
    for (auto name = names->begin(); name != names->end(); ++name)
      if (std::find(names->begin(), name, *name) != name)
        throw ConfigError(field, *name, "is listed twice; give each once");
  for (const std::string& name : algorithms_)
    if (name != "none") find_algorithm(name);
  for (const std::string& pattern : patterns_)
    if (pattern != "none") parse_traffic_pattern(pattern);
  nlohmann::json results = {{"algorithms", nlohmann::json::array()}, {"traffic", nlohmann::json::array()}};
  std::ostringstream table;
  table << "| machine | algorithm (sync=none) | cycle level, cycles | tlm, cycles | error | cycle level, s | tlm, s | "
           "speed-up |\n|---|---|---:|---:|---:|---:|---:|---:|\n";
  int status = compare_algorithms(context, results, table);
  status = std::max(status, compare_traffic(context, results, table));
  std::ostream& out = context.out;
  out << "\n" << table.str();
  if (markdown_file) {
    markdown_file->stream() << table.str();
    if (auto error = markdown_file->try_commit()) throw OutputError(*error);
  }
  if (json_file) {
    json_file->stream() << results.dump(1) << "\n";
    if (auto error = json_file->try_commit()) throw OutputError(*error);
  }
  return status;
}

}  // namespace meshmp
