// The `meshmp run` options: every MachineConfig field as a command-line option, applied over the
// built-in defaults and an optional JSON config file.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "hw/machine/machine_config.h"

namespace meshmp {

class RunOptions {
 public:
  RunOptions();
  // Declares the options on `command`: every setting of hw/machine/machine_settings.h.
  void add_to(CLI::App& command);
  // Declares only the network's settings (topology, router, routing, port model): `meshmp traffic`.
  // `with_packet_limit`: also --packet-flits (the router's largest packet), which traffic sets itself.
  void add_network_options_to(CLI::App& command, bool with_packet_limit = true);
  // The configuration: defaults, then the config file, then the options given. Throws ConfigError.
  MachineConfig resolve() const;
  // The options given applied over `base` (a command that reads its config file itself: traffic).
  MachineConfig resolve_over(MachineConfig base) const;
  // --quiet: no summary. --print-config: print the configuration as a config file instead of running.
  bool quiet() const { return quiet_; }
  bool print_config() const { return print_config_; }
  // Whether the command line named the routing function (--routing).
  bool routing_given() const { return given("router.routing").given(); }

 private:
  // What the command line gave for one setting of machine_settings(), as typed.
  struct GivenSetting {
    std::optional<std::string> text;
    std::vector<std::string> items;  // an OptionMap's KEY=VALUE or a TextList's items, in order
    bool flag = false;               // an OffSwitch
    bool given() const { return text || !items.empty() || flag; }
  };
  void add_setting(CLI::App& command, std::size_t index);
  const GivenSetting& given(const std::string& key) const;
  // --cost-model 004: the settings that make tau and b the same on all six of 004's machines.
  void apply_cost_model(MachineConfig& config) const;
  // --router-rules booksim2: the settings that make the SystemC router BookSim2's input-queued router.
  void apply_router_rules(MachineConfig& config) const;
  // ConfigError when a setting a preset decides was given beside it.
  void refuse_given_beside(const std::vector<const char*>& keys, const std::string& preset) const;

  std::optional<std::string> config_file_;  // -c: given, even as '' (refused)
  std::vector<GivenSetting> given_;  // one per setting, in machine_settings()'s order
  std::optional<std::string> cost_model_;  // machine (as given) or 004
  std::optional<std::string> router_rules_;  // meshmp (as given) or booksim2
  bool quiet_ = false;
  bool print_config_ = false;
};

}  // namespace meshmp
