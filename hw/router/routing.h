// Routing functions, looked up by name (router.routing; `meshmp list` shows each with where it applies):
// deterministic ones give one output port (dimension-order routing: e-cube on the hypercube, 003 §3; XY
// on meshes and tori, 000 §2, 001 §1; shortest direction on rings), adaptive ones the outputs a head may
// take, among which the router's selection policy picks (hw/router/turn_models.h). Source routing is not
// a function here: the head flit carries its output ports (see Flit::route) and the router follows them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topology/topology.h"

namespace meshmp {

// The output port to take at `node` for a packet to `dst`; -1 when node == dst (eject).
using RoutingFunction = int (*)(const Topology& topology, int node, int dst);

// Dimension-order routing, lowest dimension first (e-cube on hypercubes, XY on meshes and tori); on an
// even ring a message exactly half-way round takes the + direction (the documented default).
int dimension_order_port(const Topology& topology, int node, int dst);
// The same, but half-way ties on even rings go + from an even coordinate and - from an odd one, so both
// directions of every ring carry the same load under uniform traffic. Deadlock-free with the dateline
// classes: each direction of a ring is its own channel cycle, broken at its own wrap-around link.
int dimension_order_split_ties_port(const Topology& topology, int node, int dst);

// The outputs an adaptive function allows a head at `node`, bound from `src` to `dst` (never its own node),
// in the function's order of preference.
struct RouteChoices {
  int count = 0;
  std::array<std::int8_t, 4> ports{};
};
using AdaptiveRoutingFunction = void (*)(const Topology& topology, int node, int src, int dst, RouteChoices& out);

// A routing function of the registry.
struct RoutingFunctionInfo {
  const char* name;
  // The one output of a deterministic function; for an adaptive one, a deterministic route of the same
  // length (dimension order: the functions are minimal), which what needs one route per pair counts (the
  // zero-load model, ideal saturation rates, an all-port node's injection channel).
  RoutingFunction deterministic;
  AdaptiveRoutingFunction adaptive;  // null for a deterministic function
  const char* applies_to;
  const char* virtual_channels;  // what it needs of router.vcs
  const char* source;
  // Empty when the function applies to `topology`; otherwise the rule it breaks.
  std::optional<std::string> (*unsupported)(const Topology& topology);
};

// Throws ConfigError("router.routing", name, ...) for an unknown name.
const RoutingFunctionInfo& find_routing(const std::string& name);
// find_routing(name).deterministic.
RoutingFunction find_routing_function(const std::string& name);
const std::vector<RoutingFunctionInfo>& routing_functions();
std::vector<std::string> routing_function_names();

// The ports a packet takes from src to dst under `routing` (empty when src == dst).
std::vector<int> route_ports(const Topology& topology, RoutingFunction routing, int src, int dst);

// A router port's name in reports: d0+ / d0- along a path or ring, d1+2 in a complete dimension, local0..
// for the injection and ejection channels (ports from topology.num_ports() on).
std::string port_name(const Topology& topology, int port);

}  // namespace meshmp
