// The traffic patterns in which every source sends to one fixed destination, with BookSim2's definitions
// (its traffic.cpp; Dally & Towles, "Principles and Practices of Interconnection Networks", §3.2): on N
// nodes numbered by their coordinates (dimension 0 fastest), b = log2 N bits for the bit patterns:
//  - transpose: (x, y) -> (y, x), square 2-D topologies;
//  - bit-complement: d_i = not s_i, N a power of two;
//  - bit-reverse: d_i = s_{b-1-i}, N a power of two;
//  - shuffle: d_i = s_{i-1 mod b} (rotate left one bit), N a power of two;
//  - tornado: in every dimension of k nodes, c -> (c + ceil(k/2) - 1) mod k, every dimension of 3 nodes or
//    more (on 2 it would not move);
//  - neighbour: +1 in dimension 0 (mod its size);
//  - random-permutation: a permutation of the nodes drawn from the traffic seed (a node may draw itself).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topology/topology.h"

namespace meshmp {

enum class PermutationPattern { Transpose, BitComplement, BitReverse, Shuffle, Tornado, Neighbour, RandomPermutation };

// Every source's destination (a permutation of 0..N-1, except where the pattern maps two sources to one).
std::vector<int> permutation_destinations(const Topology& topology, PermutationPattern pattern, std::uint64_t seed);

// Empty when `pattern` applies to `topology`; otherwise the rule it breaks (for the field traffic.pattern).
std::optional<std::string> permutation_unsupported(const Topology& topology, PermutationPattern pattern);

}  // namespace meshmp
