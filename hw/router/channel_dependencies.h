// The channel dependency graph of a router network (Dally & Seitz 1987): a channel is a link's VC class
// (node, output port, the range of VCs RoutingUnit gives a packet there: a dateline class on a ring, the
// escape or the adaptive VCs, a phase's, or all of them), and a packet holding one channel while it asks for the next makes a dependency. Built by walking
// every route, from every source to every destination, through the routers' own route computation
// (hw/router/routing_unit.h): a deterministic function's one route, an adaptive function's every route its
// choices allow, a two-phase function's route through every intermediate node. An acyclic graph is
// deadlock-free (for adaptive functions, every dependency any route can make counted: the turn models'
// proof); a cycle is a configuration that can deadlock, returned as the counter-example. A function with
// escape channels (Duato 1993) may have cycles among its adaptive channels: what decides is the graph of
// its escape channels alone, each a packet keeps to once on one, so acyclic there is deadlock-free.
// Firmware source routes are chosen at run time and are not in it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/router/router_params.h"
#include "hw/router/routing.h"
#include "topology/topology.h"

namespace meshmp {

struct ChannelDependencyReport {
  std::uint64_t channels = 0;      // channels some route uses
  std::uint64_t dependencies = 0;  // distinct dependencies between them
  std::uint64_t routes = 0;        // (source, destination) pairs walked (with every intermediate node of a
                                   // two-phase function)
  // A function with escape channels: its escape channels and their dependencies, the graph whose cycle
  // decides (Duato); 0 for the others.
  std::uint64_t escape_channels = 0;
  std::uint64_t escape_dependencies = 0;
  std::vector<std::string> cycle;  // a cycle of channels, each named; empty when the graph is acyclic
  bool acyclic() const { return cycle.empty(); }
  // One line: the counts and "acyclic: deadlock-free", or the cycle.
  std::string summary() const;
};

// `params` routed as the network routes it (with_routing()), `routing` its deterministic function.
ChannelDependencyReport check_channel_dependencies(const Topology& topology, const RouterParams& params,
                                                   PortModel port_model, RoutingFunction routing);

// The largest machine checked before every run (a walk of N^2 routes: 0.04 s for torus:16x16 here, 0.6 s
// for torus:32x32, 8 s for odd-even on mesh:32x32, whose walks branch); for a two-phase function, whose
// walk takes every intermediate node too (N^3 routes: 10 s for valiant on torus:16x16), a smaller one.
inline constexpr int kChannelCheckBeforeRunMaxNodes = 256;
inline constexpr int kTwoPhaseCheckBeforeRunMaxNodes = 64;
// Whether runs and the deadlock watchdog's report make the check on `topology` routed by `params`.
inline bool checked_before_run(const Topology& topology, const RouterParams& params) {
  return topology.num_nodes() <= (params.two_phase() ? kTwoPhaseCheckBeforeRunMaxNodes : kChannelCheckBeforeRunMaxNodes);
}

}  // namespace meshmp
