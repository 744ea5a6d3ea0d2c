// Oblivious two-phase routing: a packet goes by dimension order to an intermediate node drawn at its
// source, then by dimension order to its destination, the two phases on separate VC classes so that
// neither phase's channels wait on the other's in a cycle (hw/router/routing_unit.h).
//  - valiant (Valiant & Brebner 1981; BookSim2's valiant): the intermediate node uniform over every node.
//    Balances any permutation over the whole machine, at up to twice the minimal path length.
//  - romm (Nesson & Johnsson 1995, ROMM two-phase; BookSim2's romm): the intermediate node uniform over the
//    minimal quadrant, the nodes whose every coordinate lies on a minimal way from the source's to the
//    destination's (on a ring the shorter arc, + at a tie as dimension order; in a complete dimension
//    the two coordinates), so the route stays minimal.
// The intermediate node and the phase ride in the head's header (hw/router/flit.h).
#pragma once

#include <cstdint>

#include "hw/router/routing.h"

namespace meshmp {

IntermediateCoordinates valiant_intermediates(const Topology& topology, int src, int dst, int dimension);
IntermediateCoordinates romm_intermediates(const Topology& topology, int src, int dst, int dimension);

// True when `node` is one of the intermediate nodes `range` allows for a packet from src to dst.
bool is_intermediate(const Topology& topology, IntermediateRange range, int src, int dst, int node);
// An intermediate node drawn uniformly from those `range` allows, from `random` (one draw per dimension).
template <class Random>
int draw_intermediate(const Topology& topology, IntermediateRange range, int src, int dst, Random& random) {
  int node = 0;
  for (int d = topology.num_dimensions() - 1; d >= 0; --d) {
    const IntermediateCoordinates c = range(topology, src, dst, d);
    const int k = c.count > 1 ? static_cast<int>(random() % static_cast<std::uint64_t>(c.count)) : 0;
    const int size = topology.dimension(d).size;
    node = node * size + ((c.first + k * c.step) % size + size) % size;
  }
  return node;
}

}  // namespace meshmp
