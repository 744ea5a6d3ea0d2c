// Deterministic routing functions, looked up by name: dimension-order routing (e-cube on the hypercube,
// 003 §3; XY on meshes and tori, 000 §2, 001 §1), shortest direction on rings. Source routing is not a
// function here: the head flit carries its output ports (see Flit::route) and the router follows them.
#pragma once

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

// Throws ConfigError("router.routing", name, ...) for an unknown name.
RoutingFunction find_routing_function(const std::string& name);
std::vector<std::string> routing_function_names();

// The ports a packet takes from src to dst under `routing` (empty when src == dst).
std::vector<int> route_ports(const Topology& topology, RoutingFunction routing, int src, int dst);

// A router port's name in reports: d0+ / d0- along a path or ring, d1+2 in a complete dimension, local0..
// for the injection and ejection channels (ports from topology.num_ports() on).
std::string port_name(const Topology& topology, int port);

}  // namespace meshmp
