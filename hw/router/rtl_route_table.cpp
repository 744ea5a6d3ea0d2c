// The RTL router's routing table under an adaptive function. See rtl_route_table.h.
#include "hw/router/rtl_route_table.h"

#include "hw/router/minimal_adaptive.h"
#include "topology/config_error.h"

namespace meshmp {

namespace {

// The outputs `unit` offers a head injected at `node` from `src` to `dst`.
RouteChoices offered(const RoutingUnit& unit, const Topology& topology, const Flit& head, int src) {
  RouteChoices choices;
  unit.adaptive_choices(head, topology.num_ports(), src, choices);
  return choices;
}

}  // namespace

std::optional<std::string> rtl_routing_unsupported(const Topology& topology, const RouterParams& params) {
  const RoutingFunctionInfo* function = params.routing_function;
  if (function == nullptr) return std::nullopt;
  const std::string name = function->name;
  auto refuse = [&](const std::string& field, const std::string& value, const std::string& rule) {
    return std::optional<std::string>(ConfigError(field, value, rule).what());
  };
  if (params.two_phase())
    return refuse("router.routing", name,
                  "is oblivious, through a random intermediate node: the RTL router routes the adaptive functions "
                  "only, by its table's outputs per destination; needs router.model cpp");
  if (topology.has_rings())
    return refuse("router.routing", name,
                  "on the RTL router needs a topology without rings (meshes, hypercubes): its table gives the "
                  "adaptive outputs no dateline classes; needs router.model cpp on " + topology.spec());
  const int escape = function->escape_channels && params.escape_channels ? 1 : 0;
  if (topology.num_dimensions() + escape > RtlModelPort::kTableChoices)
    return refuse("router.routing", name,
                  "offers up to " + std::to_string(topology.num_dimensions() + escape) + " outputs per destination on " +
                      topology.spec() + ": the RTL router's table holds " +
                      std::to_string(RtlModelPort::kTableChoices) + "; needs router.model cpp");
  if (params.selection == RouteSelection::Random)
    return refuse("router.selection", "random",
                  "the RTL router selects first or most-credits (it has no random generator); needs router.model cpp");
  return std::nullopt;
}

int rtl_escape_vcs(const Topology& topology, const RouterParams& params) {
  const RoutingFunctionInfo* function = params.routing_function;
  if (function == nullptr || !function->escape_channels || !params.escape_channels) return 0;
  return escape_vcs(topology, params.dateline);
}

RtlModelPort::TableChoices rtl_table_choices(const RoutingUnit& unit, const RouterParams& params, const Topology& topology, int node,
                                             int dst) {
  RtlModelPort::TableChoices table;
  if (!unit.adaptive() || dst == node) return table;
  Flit head{};
  head.head = true;
  head.dst = static_cast<std::uint16_t>(dst);
  // From this column (the source router itself) and, where there is one, from another column.
  const RouteChoices here = offered(unit, topology, head, node);
  RouteChoices elsewhere = here;
  if (topology.dimension(0).size > 1) {
    int port = topology.port_of(0, +1);
    if (port < 0 || topology.neighbor(node, port) < 0) port = topology.port_of(0, -1);  // a path's last node
    elsewhere = offered(unit, topology, head, topology.neighbor(node, port));
  }
  const std::string name = params.routing_function->name;
  if (here.count > RtlModelPort::kTableChoices)
    throw ConfigError("router.routing", name,
                      "offers " + std::to_string(here.count) + " outputs from node " + std::to_string(node) +
                          " to node " + std::to_string(dst) + ": the RTL router's table holds " +
                          std::to_string(RtlModelPort::kTableChoices));
  // The outputs from another column must be those from this one less the marked ones, in the same order.
  int kept = 0;
  for (int k = 0; k < here.count; ++k) {
    const bool also_elsewhere = kept < elsewhere.count && elsewhere.ports[kept] == here.ports[k] &&
                                elsewhere.vc_sets[kept] == here.vc_sets[k];
    if (also_elsewhere) ++kept;
    const RouteDecision d = unit.to_output(head, here.ports[k], here.vc_sets[k]);
    table.entries[k] = {d.out_port, d.vc_begin, d.vc_end, here.vc_sets[k] == VcSet::Escape, !also_elsewhere};
  }
  if (kept != elsewhere.count)
    throw ConfigError("router.routing", name,
                      "offers outputs from node " + std::to_string(node) + " to node " + std::to_string(dst) +
                          " that depend on the source beyond its column: the RTL router's table cannot hold them");
  table.count = here.count;
  return table;
}

}  // namespace meshmp
