// `meshmp traffic`: synthetic traffic on the network alone (hw/network/traffic_generator.h), one offered load or a
// sweep of loads (each point in its own child process: SystemC elaborates one design per process), with
// the latency-vs-load curve written as CSV and PNG and, on request, compared with a reference curve
// measured by another simulator (sims/reference/).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include <CLI/CLI.hpp>

#include "hw/base/config_limits.h"
#include "hw/machine/machine_config.h"
#include "hw/network/traffic_generator.h"
#include "hw/power/technology.h"
#include "sims/cli_options.h"
#include "sims/command.h"
#include "sims/output_file.h"
#include "topology/topology.h"

namespace meshmp {

class TrafficCommand : public Command {
 public:
  void add_to(CLI::App& command) override;
  std::string name() const override { return "traffic"; }
  std::string summary() const override {
    return "Synthetic traffic on the network alone: latency and accepted load at one offered load, or a sweep.";
  }
  int run(const CommandContext& context) override;

 private:
  // A point's network and traffic, every input checked (all points of a sweep share them but the rate).
  struct Setup {
    MachineConfig config;
    Topology topology;
    TrafficParams params;
    Technology technology;  // power.technology_file's, read before the run
  };
  // Throws ConfigError naming the field, the value and the rule. `routing`, when not empty, replaces the
  // configured routing function (a curve of --routings).
  Setup prepare(double rate, const std::string& routing = "") const;
  // --routings: the routing functions named, one curve each; empty when not given. Throws ConfigError
  // naming --routings for an unknown or repeated name, or beside --routing or --compare-reference.
  std::vector<std::string> curve_routings() const;
  // --trace: the trace read into `params` for a network of `nodes` nodes, the windows spanning it unless
  // given, its offered load as the rate; the settings of drawn packets, given, are refused.
  void load_trace(TrafficParams& params, int nodes) const;
  // What the packets follow, in words: the pattern, or "trace FILE".
  std::string pattern_text() const { return trace_.empty() ? pattern_ : "trace " + trace_; }
  // The network a point runs on, in words: "mesh:8x8, uniform, 4-flit packets, 4 VCs x 8 flits, 2-cycle
  // routers, 1-cycle links" (a mix of sizes: "1/4/8-flit packets weighed 1:2:1").
  std::string network_description(const Setup& setup) const;
  // ConfigError naming --compare-reference when the reference curve names a setting (`network`: its
  // "# key: value" lines) that this run has otherwise: the curves would not compare like with like.
  void check_like_with_like(const std::map<std::string, std::string>& network, const Setup& setup) const;
  int run_point(double rate, const std::string& self_path, std::ostream& out, std::ostream& err) const;
  // --link-heatmap: the plot opened before any work (its extension checked), distinct from --stats-json.
  std::optional<OutputFile> link_heatmap_output() const;
  // "mesh:4x4, uniform, ..., offered 0.200 flits/node/cycle": a heat map's title.
  std::string heatmap_title(const Setup& setup, double rate) const;
  // --seeds N > 1 at one load: each seed's run in its own process, their results combined
  // (sims/seed_results.h).
  int run_seeds(const std::string& self_path, const std::vector<std::string>& arguments, std::ostream& out,
                std::ostream& err) const;
  // ConfigError naming --csv, --png or --compare-reference when given without a sweep of loads.
  void refuse_sweep_outputs() const;
  // traffic.seeds, checked against its rule.
  std::uint64_t seeds() const;
  // A point's summary, as `meshmp traffic` prints it (`result`: its JSON, for the links' utilisation).
  void print_point(std::ostream& out, const MachineConfig& config, const Topology& topology, const TrafficParams& params,
                   double rate, const TrafficGenerator& generator, const Interconnect& network,
                   const nlohmann::json& result) const;
  // --config: the network's keys over the defaults, and the traffic section's values for the options not
  // given on the command line. Throws ConfigError naming the key.
  void apply_config_file();
  // The configuration a result holds, as --config reads it: the network's and the traffic section (one
  // load `rate`, or the sweep's rates).
  nlohmann::json config_json(const Setup& setup, const std::optional<double>& rate) const;
  int run_sweep(const std::string& self_path, const std::vector<std::string>& arguments, std::ostream& out,
                std::ostream& err) const;

  // One setting of the traffic section (traffic_settings() in traffic_command.cpp).
  struct TrafficSetting {
    enum class Kind { Text, Number, WholeNumber, Switch, Node };
    std::string key;    // traffic.<key> in a config file
    std::string flags;  // the command line's
    Kind kind;
    std::variant<std::string TrafficCommand::*, double TrafficCommand::*, bool TrafficCommand::*, int TrafficCommand::*>
        member;
    const IntegerLimit* limit;  // a WholeNumber's rule (hw/base/config_limits.h)
    std::string help;
  };
  static const std::vector<TrafficSetting>& traffic_settings();

  std::optional<std::string> config_file_;  // -c: given, even as '' (refused)
  MachineConfig file_network_;                // the config file's network keys over the defaults
  std::map<std::string, std::string> from_file_;  // traffic keys the file set, as written
  std::map<std::string, const CLI::Option*> given_;  // each traffic key's command-line option
  RunOptions network_;
  std::string pattern_ = "uniform";
  double rate_ = 0.1;
  std::string rates_;
  std::string routings_;  // --routings: a curve per routing function, comma-separated
  // Whole numbers are kept as written and parsed against their rules (hw/base/config_limits.h).
  std::string packet_flits_ = "4", warmup_cycles_ = "10000", measure_cycles_ = "20000", drain_cycles_ = "100000",
              seed_ = "1", seeds_ = "1";
  std::string packet_sizes_, packet_size_rates_;  // a mix of sizes: empty, every packet packet_flits_
  std::string trace_;                             // a packet trace to replay (hw/network/packet_trace.h)
  bool exclude_self_ = false;
  int hotspot_node_ = 0;
  double hotspot_fraction_ = 0.2;
  std::string injection_ = "bernoulli";
  double burst_cycles_ = 10, idle_cycles_ = 10;
  std::string stats_json_, csv_ = "meshmp-traffic.csv", png_ = "meshmp-traffic.png", reference_;
  std::string link_heatmap_;  // one load's links coloured by utilisation (sims/link_utilisation.h)
  bool json_line_ = false;
  // Options that apply to one pattern or to a sweep only: given elsewhere, they are refused.
  const CLI::Option *rate_option_ = nullptr, *hotspot_node_option_ = nullptr, *hotspot_fraction_option_ = nullptr,
                    *csv_option_ = nullptr, *png_option_ = nullptr, *link_heatmap_option_ = nullptr;
};

// Saturation of a latency-vs-load curve: the load at which the average latency first reaches three times
// its value at the lowest load (linear interpolation between the points around it); negative when it
// never does within the curve.
double saturation_load(const std::vector<double>& loads, const std::vector<double>& latencies);

}  // namespace meshmp
