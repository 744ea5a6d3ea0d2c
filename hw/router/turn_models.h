// The turn models on 2-D meshes: adaptive routing functions that stay deadlock-free without virtual
// channels by forbidding enough turns to break every cycle of channel dependencies. Minimal: every output
// they offer brings the packet one hop closer. Dimension 0 is x (east = +), dimension 1 is y (north = +).
//  - west-first (Glass & Ni 1992): a packet that must go west goes west first; then any of east, north,
//    south it still needs.
//  - north-last (Glass & Ni 1992): a packet goes north only when north is all that is left.
//  - negative-first (Glass & Ni 1992): the negative directions it needs (west, south) first, adaptively,
//    then the positive ones.
//  - odd-even (Chiu 2000, ROUTE of Fig. 4): no east-to-north or east-to-south turn in an even column, no
//    north-to-west or south-to-west turn in an odd column.
#pragma once

#include "hw/router/routing.h"

namespace meshmp {

void west_first_choices(const Topology& topology, int node, int src, int dst, RouteChoices& out);
void north_last_choices(const Topology& topology, int node, int src, int dst, RouteChoices& out);
void negative_first_choices(const Topology& topology, int node, int src, int dst, RouteChoices& out);
void odd_even_choices(const Topology& topology, int node, int src, int dst, RouteChoices& out);

// Empty when `topology` is a 2-D mesh (two path dimensions); otherwise why the turn models do not apply.
std::optional<std::string> turn_model_unsupported(const Topology& topology);

}  // namespace meshmp
