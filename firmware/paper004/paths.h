// Parallel (edge-disjoint) paths between two nodes, 004 §3.1 (Saad & Schultz, "Data communication in
// parallel architectures"): (D) Proposition 3.1, four paths on a 2-D wraparound grid, and (E)
// Proposition 3.2, n paths on the Boolean n-cube. Pure functions of the topology and the two nodes; what
// was reconstructed (the paper's Figures 7 and 8 are lost) and where the paper's length claims fail on
// small grids is in paths.cpp's top comment.
#pragma once

#include <vector>

#include "topology/topology.h"

namespace meshmp {

// A path: the nodes from a to b inclusive, consecutive nodes neighbours in the topology.
using NodePath = std::vector<int>;

// 004 §3.1 (D), Proposition 3.1: four edge-disjoint paths from a to b (a != b) on a 2-D wraparound grid
// (Topology "torus:PxQ", P, Q >= 3). Longest path as short as possible.
std::vector<NodePath> grid_four_paths(const Topology& grid, int a, int b);

// 004 §3.1 (E), Proposition 3.2: n edge-disjoint paths from a to b (a != b) on "hypercube:n":
// the i = H(a,b) paths correcting the differing bits in rotated order (length i), and n - i paths of
// length i + 2 (flip a bit where they agree, correct the differing bits, flip it back), as the text says.
std::vector<NodePath> hypercube_parallel_paths(const Topology& cube, int a, int b);

// The paper's claimed length bound for the longest path: grid: dist+2 (not aligned), dist+4 (aligned, not
// neighbours), 7 = dist+6 (neighbours); hypercube: i + 2 when i < n, else i.
int grid_paths_claimed_longest(const Topology& grid, int a, int b);
int hypercube_paths_claimed_longest(const Topology& cube, int a, int b);

}  // namespace meshmp
