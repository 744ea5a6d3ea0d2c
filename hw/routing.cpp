// Routing functions and their registry. See routing.h.
#include "hw/routing.h"

#include <utility>

#include "hw/config_error.h"

namespace meshmp {

int dimension_order_port(const Topology& topology, int node, int dst) {
  for (int d = 0; d < topology.num_dimensions(); ++d) {
    int c = topology.coordinate(node, d);
    int t = topology.coordinate(dst, d);
    if (c == t) continue;
    const Dimension& dim = topology.dimension(d);
    switch (dim.kind) {
      case DimensionKind::Path: return topology.port_of(d, t > c ? +1 : -1);
      case DimensionKind::Ring: {
        int forward = ((t - c) % dim.size + dim.size) % dim.size;
        return topology.port_of(d, 2 * forward <= dim.size ? +1 : -1);
      }
      case DimensionKind::Complete: return topology.port_of(d, ((t - c) % dim.size + dim.size) % dim.size);
    }
  }
  return -1;
}

namespace {
const std::pair<const char*, RoutingFunction> kRoutingFunctions[] = {
    {"dimension-order", &dimension_order_port},
};
}  // namespace

RoutingFunction find_routing_function(const std::string& name) {
  for (const auto& [n, f] : kRoutingFunctions)
    if (name == n) return f;
  std::string names;
  for (const auto& n : routing_function_names()) names += (names.empty() ? "" : ", ") + n;
  throw ConfigError("router.routing", name, "unknown routing function; known: " + names);
}

std::vector<std::string> routing_function_names() {
  std::vector<std::string> names;
  for (const auto& entry : kRoutingFunctions) names.push_back(entry.first);
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

}  // namespace meshmp
