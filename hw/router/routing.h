// Routing functions, looked up by name (router.routing; `meshmp list` shows each with where it applies):
// deterministic ones give one output port (dimension-order routing: e-cube on the hypercube, 003 §3; XY
// on meshes and tori, 000 §2, 001 §1; shortest direction on rings); adaptive ones the outputs a head may
// take, among which the router's selection policy picks (hw/router/turn_models.h, and minimal adaptive
// routing with escape channels, hw/router/minimal_adaptive.h); oblivious two-phase ones route by dimension
// order to a random intermediate node and on from there (hw/router/two_phase_routing.h). Source routing is
// not a function here: the head flit carries its output ports (see Flit::route) and the router follows them.
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

// Which of an output's virtual channels a route may take (hw/router/routing_unit.h lays them out): all of
// them (split into the dateline classes on rings), or, for a function with escape channels, the adaptive
// ones or the escape ones.
enum class VcSet : std::uint8_t { All, Adaptive, Escape };

// The most outputs a head may be offered: a minimal direction in each of up to 16 dimensions (both on a
// ring at a tie), and the escape channel's.
inline constexpr int kMaxRouteChoices = 32;

// The outputs an adaptive function allows a head at `node`, bound from `src` to `dst` (never its own node),
// in the function's order of preference, each with the VCs it may take there.
struct RouteChoices {
  int count = 0;
  std::array<std::int8_t, kMaxRouteChoices> ports{};
  std::array<VcSet, kMaxRouteChoices> vc_sets{};
  void add(int port, VcSet vc_set = VcSet::All) {
    ports[count] = static_cast<std::int8_t>(port);
    vc_sets[count] = vc_set;
    ++count;
  }
};
using AdaptiveRoutingFunction = void (*)(const Topology& topology, int node, int src, int dst, RouteChoices& out);

// A two-phase oblivious function's intermediate nodes for a packet from `src` to `dst`, per dimension: the
// coordinates (first + k * step) modulo the dimension's size, k = 0..count-1.
struct IntermediateCoordinates {
  int first = 0;
  int step = 1;
  int count = 1;
};
using IntermediateRange = IntermediateCoordinates (*)(const Topology& topology, int src, int dst, int dimension);

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
  // Duato's escape channels: the adaptive function's outputs on the adaptive VCs, and the deterministic
  // function's output on the escape VCs, which a packet keeps to its destination once it has taken one
  // (router.escape_channels off: the adaptive outputs on every VC, no escape).
  bool escape_channels = false;
  // A two-phase oblivious function: by the deterministic function to an intermediate node drawn uniformly
  // from these coordinates, then to the destination, each phase on its own half of the VCs
  // (router.phase_classes off: both on every VC). Null for the others.
  IntermediateRange intermediates = nullptr;

  bool routes_by_choices() const { return adaptive != nullptr; }
  bool two_phase() const { return intermediates != nullptr; }
  // What the router decides beyond the deterministic function's one output per destination.
  bool beyond_one_route() const { return routes_by_choices() || two_phase(); }
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
