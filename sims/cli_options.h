// The `meshmp run` options: every MachineConfig field as a command-line option, applied over the
// built-in defaults and an optional JSON config file.
#pragma once

#include <CLI/CLI.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hw/machine_config.h"

namespace meshmp {

class RunOptions {
 public:
  // Declares the options on `command`.
  void add_to(CLI::App& command);
  // Declares only the machine's network options (topology, router, routing, port model): `meshmp traffic`.
  // `with_packet_limit`: also --packet-flits (the router's largest packet), which traffic sets itself.
  void add_network_options_to(CLI::App& command, bool with_packet_limit = true);
  // The configuration: defaults, then the config file, then the options given. Throws ConfigError.
  MachineConfig resolve() const;
  // The options given applied over `base` (a command that reads its config file itself: traffic).
  MachineConfig resolve_over(MachineConfig base) const;
  // --quiet: no summary. --print-config: print the configuration as a config file instead of running.
  bool quiet() const { return quiet_; }
  bool print_config() const { return print_config_; }

 private:
  void add_node_options_to(CLI::App& command);
  // --cost-model 004: the settings that make tau and b the same on all six of 004's machines.
  void apply_cost_model(MachineConfig& config) const;

  std::string config_file_;
  std::optional<std::string> dateline_classes_, head_pipeline_, vc_allocator_, router_model_, topology_, algorithm_, switching_, port_model_, routing_, stats_json_, vcd_, detail_csv_,
      messages_csv_, trace_rtl_;
  // Numbers are kept as written and parsed against their real rules (hw/config_limits.h).
  std::optional<std::string> block_bytes_, vcs_, buffer_flits_, pipeline_depth_, link_latency_, credit_latency_,
      credit_processing_, flit_bytes_,
      packet_flits_, rtl_power_on_seed_, startup_cycles_, barrier_latency_, fabric_startup_cycles_, fabric_bytes_per_cycle_, concurrent_transfers_, memory_banks_, unexpected_buffer_bytes_, watchdog_cycles_, host_threads_, max_cycles_, copy_cycles_per_byte_;
  std::optional<std::string> trace_nodes_;  // as typed: parse_trace_nodes() gives its rule
  std::vector<std::string> algorithm_options_;  // key=value
  std::vector<std::string> workload_options_;   // key=value
  std::optional<std::string> startup_on_;
  std::optional<std::string> cost_model_;  // machine (as given) or 004
  bool no_dateline_ = false;
  bool quiet_ = false;
  bool print_config_ = false;
};

}  // namespace meshmp
