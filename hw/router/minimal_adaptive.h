// Minimal adaptive routing with escape channels (Duato 1993, "A new theory of deadlock-free adaptive
// routing in wormhole networks"; BookSim2's min_adapt): a head may take any output that brings it one hop
// closer, in every dimension it still has to cross (both directions of a ring when the destination is
// half-way round), on the adaptive virtual channels; and always the dimension-order output on the escape
// channels, whose own dependency graph is acyclic (dimension order, with the dateline classes on rings).
// A packet that takes an escape channel keeps to them (hw/router/routing_unit.h). Any topology, any
// number of dimensions: meshes, tori, hypercubes, generalised hypercubes and their products.
#pragma once

#include "hw/router/routing.h"

namespace meshmp {

// The minimal outputs at `node` toward `dst`, lowest dimension first.
void minimal_adaptive_choices(const Topology& topology, int node, int src, int dst, RouteChoices& out);

// The escape channels a router keeps on `topology` (the lowest-numbered VCs): 2 on a topology with rings
// and the dateline on (one per dateline class), else 1.
int escape_vcs(const Topology& topology, bool dateline);

}  // namespace meshmp
