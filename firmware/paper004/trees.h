// Trees and coordinates 004 §3's nearest-neighbour algorithms share: root-relative coordinates on the
// wraparound grid (-size/2 < x <= size/2), the ring's one- and two-way chains, the grid's trees of (3.18)
// and (3.19), the grid's lines, and the hypercube's spanning binomial tree (3.21). A tree is given by
// children[v], v's children in the order they are served.
#pragma once

#include <vector>

#include "topology/topology.h"

namespace meshmp {

using Children = std::vector<std::vector<int>>;

// The root-relative coordinate of v in ring dimension d: -size/2 < x <= size/2.
int relative(const Topology& t, int v, int root, int d);
// The node at root-relative (x, y) (y ignored on a ring).
int at_relative(const Topology& t, int root, int x, int y);
// A ring's tree: one way (+) round the whole ring, or both ways to the farthest node.
Children ring_tree(const Topology& t, int root, bool both);
// The grid's tree of (3.18) with `column_first` (the root's column outward along y, its nodes into their
// rows), or transposed; `skip_axis` leaves out the other axis's nodes (3.19's flows).
Children grid_tree(const Topology& t, int root, bool column_first, bool skip_axis);
// The line through `from` along dimension d, both ways outward.
Children grid_line(const Topology& t, int from, int d);
// The spanning binomial tree of the hypercube rooted at `root` (node r relative to it sends to r + 2^j for
// every j above r's highest one bit).
Children hypercube_tree(const Topology& t, int root);

}  // namespace meshmp
