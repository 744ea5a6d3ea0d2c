// Routing functions and their registry. See routing.h.
#include "hw/router/routing.h"

#include <utility>

#include "hw/router/minimal_adaptive.h"
#include "hw/router/turn_models.h"
#include "hw/router/two_phase_routing.h"
#include "topology/config_error.h"

namespace meshmp {

namespace {

// Dimension-order routing; on a ring a message exactly half-way round goes + when `split_ties` is off, and
// + from an even coordinate, - from an odd one when it is on. Only the first node of a dimension can see
// the tie (afterwards the rest of the way is shorter than half), and there the node's coordinate in that
// dimension is the source's.
int dimension_order(const Topology& topology, int node, int dst, bool split_ties) {
  for (int d = 0; d < topology.num_dimensions(); ++d) {
    int c = topology.coordinate(node, d);
    int t = topology.coordinate(dst, d);
    if (c == t) continue;
    const Dimension& dim = topology.dimension(d);
    switch (dim.kind) {
      case DimensionKind::Path: return topology.port_of(d, t > c ? +1 : -1);
      case DimensionKind::Ring: {
        int forward = ((t - c) % dim.size + dim.size) % dim.size;
        if (2 * forward == dim.size && split_ties) return topology.port_of(d, c % 2 == 0 ? +1 : -1);
        return topology.port_of(d, 2 * forward <= dim.size ? +1 : -1);
      }
      case DimensionKind::Complete: return topology.port_of(d, ((t - c) % dim.size + dim.size) % dim.size);
    }
  }
  return -1;
}

}  // namespace

int dimension_order_port(const Topology& topology, int node, int dst) {
  return dimension_order(topology, node, dst, false);
}

int dimension_order_split_ties_port(const Topology& topology, int node, int dst) {
  return dimension_order(topology, node, dst, true);
}

namespace {

std::optional<std::string> applies_everywhere(const Topology&) { return std::nullopt; }

std::optional<std::string> few_enough_dimensions(const Topology& topology) {
  if (2 * topology.num_dimensions() < kMaxRouteChoices) return std::nullopt;
  return "offers up to two outputs per dimension: at most " + std::to_string(kMaxRouteChoices / 2 - 1) +
         " dimensions, not " + std::to_string(topology.num_dimensions());
}

}  // namespace

const std::vector<RoutingFunctionInfo>& routing_functions() {
  static const std::vector<RoutingFunctionInfo> functions{
      {"dimension-order", &dimension_order_port, nullptr, "every topology", "1; 2 on rings (the dateline classes)",
       "e-cube / XY routing (003 §3, 000 §2); Dally & Seitz 1987 with the dateline classes on rings", &applies_everywhere},
      {"dimension-order-split-ties", &dimension_order_split_ties_port, nullptr, "every topology",
       "1; 2 on rings (the dateline classes)",
       "dimension order, half-way ties on even rings split by the source's parity", &applies_everywhere},
      {"west-first", &dimension_order_port, &west_first_choices, "2-D meshes", "1", "Glass & Ni 1992, the turn model",
       &turn_model_unsupported},
      {"north-last", &dimension_order_port, &north_last_choices, "2-D meshes", "1", "Glass & Ni 1992, the turn model",
       &turn_model_unsupported},
      {"negative-first", &dimension_order_port, &negative_first_choices, "2-D meshes", "1",
       "Glass & Ni 1992, the turn model", &turn_model_unsupported},
      {"odd-even", &dimension_order_port, &odd_even_choices, "2-D meshes", "1", "Chiu 2000, the odd-even turn model",
       &turn_model_unsupported},
      {"min-adaptive", &dimension_order_port, &minimal_adaptive_choices, "every topology",
       "2: 1 escape + the adaptive rest; 3 on rings: 2 escape (the dateline classes) + the adaptive rest",
       "Duato 1993, escape channels (BookSim2's min_adapt)", &few_enough_dimensions, true},
      {"valiant", &dimension_order_port, nullptr, "every topology",
       "2: a half per phase; 4 on rings: a quarter per phase and dateline class",
       "Valiant & Brebner 1981, a random intermediate node (BookSim2's valiant)", &applies_everywhere, false,
       &valiant_intermediates},
      {"romm", &dimension_order_port, nullptr, "every topology",
       "2: a half per phase; 4 on rings: a quarter per phase and dateline class",
       "Nesson & Johnsson 1995, ROMM two-phase: an intermediate node in the minimal quadrant (BookSim2's romm)",
       &applies_everywhere, false, &romm_intermediates},
  };
  return functions;
}

const RoutingFunctionInfo& find_routing(const std::string& name) {
  for (const auto& f : routing_functions())
    if (name == f.name) return f;
  std::string names;
  for (const auto& n : routing_function_names()) names += (names.empty() ? "" : ", ") + n;
  throw ConfigError("router.routing", name, "unknown routing function; known: " + names);
}

RoutingFunction find_routing_function(const std::string& name) { return find_routing(name).deterministic; }

std::vector<std::string> routing_function_names() {
  std::vector<std::string> names;
  for (const auto& f : routing_functions()) names.push_back(f.name);
  return names;
}

std::vector<int> route_ports(const Topology& topology, RoutingFunction routing, int src, int dst) {
  std::vector<int> ports;
  for (int node = src; node != dst;) {
    int p = routing(topology, node, dst);
    ports.push_back(p);
    node = topology.neighbor(node, p);
  }
  return ports;
}

std::string port_name(const Topology& topology, int port) {
  if (port >= topology.num_ports()) return "local" + std::to_string(port - topology.num_ports());
  const Port& p = topology.port(port);
  if (topology.dimension(p.dimension).kind == DimensionKind::Complete)
    return "d" + std::to_string(p.dimension) + "+" + std::to_string(p.offset);
  return "d" + std::to_string(p.dimension) + (p.offset > 0 ? "+" : "-");
}

}  // namespace meshmp
