// `meshmp check`. See check_command.h.
#include "sims/check_command.h"

#include "hw/router/channel_dependencies.h"

namespace meshmp {

void CheckCommand::add_to(CLI::App& c) {
  options_.add_network_options_to(c);
  c.footer(
      "Walks every route from every node to every other through the routers' route computation (an adaptive "
      "function's every route its choices allow) and builds the channel dependency graph: a channel is a link's "
      "dateline class of VCs (or all its VCs), a dependency a packet holding one while asking for the next "
      "(Dally & Seitz). Exit 0: acyclic, deadlock-free; 1: a cycle, printed channel by channel; 2: bad input.\n\n"
      "Examples:\n  meshmp check -t torus:8x8\n  meshmp check -t torus:8x8 --no-dateline\n"
      "  meshmp check -t mesh:8x8 --routing odd-even");
}

std::optional<ChannelDependencyReport> check_network_routing(const MachineConfig& config) {
  const Topology topology = Topology::parse(config.topology);
  if (!topology.fabric().empty() || config.fidelity != NetworkFidelity::Cycle) return std::nullopt;
  return check_channel_dependencies(topology, with_routing(config.router, config.routing), config.port_model,
                                    find_routing_function(config.routing));
}

void warn_of_a_dependency_cycle(const MachineConfig& config, std::ostream& err) {
  if (!checked_before_run(Topology::parse(config.topology), with_routing(config.router, config.routing))) return;
  const auto report = check_network_routing(config);
  if (report && !report->acyclic())
    err << "meshmp: warning: " << report->summary() << " (running as asked; `meshmp check` says the same)\n";
}

int CheckCommand::run(const CommandContext& context) {
  const MachineConfig config = options_.resolve();
  if (auto error = config.validate()) {
    context.err << "meshmp: error: " << *error << "\n";
    return 2;
  }
  const auto report = check_network_routing(config);
  if (!report) {
    context.out << "meshmp check: " << config.topology << " has no router network to check ("
                << (config.fidelity != NetworkFidelity::Cycle ? "network.fidelity " + to_string(config.fidelity) + " builds no routers"
                                                              : std::string("a machine joined by a fabric"))
                << ")\n";
    return 0;
  }
  context.out << "meshmp check: " << config.topology << ", routing " << config.routing << ", " << config.router.vcs
              << " VCs"
              << (!Topology::parse(config.topology).has_rings() ? "" : config.router.dateline ? ", dateline classes" : ", no dateline")
              << "\n  "
              << report->summary() << "\n";
  return report->acyclic() ? 0 : 1;
}

}  // namespace meshmp
