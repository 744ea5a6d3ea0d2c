// `meshmp check`: whether a router network's configuration (topology, routing function, VC classes,
// dateline) is deadlock-free before anything runs: the channel dependency graph of every route
// (hw/router/channel_dependencies.h), acyclic, or a cycle of channels as the counter-example (exit 1).
// `meshmp run` and `meshmp traffic` make the same check before they start, on machines of up to
// kChannelCheckBeforeRunMaxNodes nodes (checked_before_run: fewer for a two-phase function), and warn of a
// cycle; they still run (deadlock can be studied).
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "hw/machine/machine_config.h"
#include "hw/router/channel_dependencies.h"
#include "sims/cli_options.h"
#include "sims/command.h"

namespace meshmp {

class CheckCommand : public Command {
 public:
  std::string name() const override { return "check"; }
  std::string summary() const override {
    return "Check a network's routing for deadlock before running it: its channel dependency graph.";
  }
  void add_to(CLI::App& command) override;
  int run(const CommandContext& context) override;

 private:
  RunOptions options_;
};

// The check of a valid configuration's router network, if it has one (not a fabric's machine, the cycle
// level).
std::optional<ChannelDependencyReport> check_network_routing(const MachineConfig& config);
// Before a run: on machines checked_before_run() admits, a warning on `err` when the
// channel dependency graph has a cycle.
void warn_of_a_dependency_cycle(const MachineConfig& config, std::ostream& err);

}  // namespace meshmp
