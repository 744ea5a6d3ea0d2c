// 004 (3.38)'s ring scatter as whole-block moves (block_program.h), the piece the scatter, the gather and
// the grid transposition share: from a root both ways at once along a ring (a row or a column of the
// wraparound grid), the block for the farthest node first, every relay forwarding the blocks not its own
// one hop per step, all arriving in step floor(size / 2); run backwards in time it is the gather ("an
// algorithm for scatter can be derived from an algorithm for gathering simply reversing the data paths",
// 004 §3.4).
#pragma once

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "firmware/paper004/block_program.h"
#include "topology/topology.h"

namespace meshmp {

using BlockSteps = std::vector<std::vector<SaadBlockMove>>;

// The nodes at distance 1, 2, ... from `from` along dimension d (0 or 1 of a ring or a 2-D grid): the +
// way (size / 2 of them) and the - way ((size - 1) / 2).
std::pair<std::vector<int>, std::vector<int>> ring_sides(const Topology& t, int from, int d);

// The scatter from `root` along `plus` and `minus` (ring_sides), the blocks `items(node)` for each node,
// from step `start` of `steps` (grown as needed).
void ring_scatter(BlockSteps& steps, int root, const std::vector<int>& plus, const std::vector<int>& minus,
                  const std::function<std::vector<int>(int)>& items, std::size_t start);

// The moves run backwards in time, every message reversed: a scatter becomes the gather.
void reverse_in_time(BlockSteps& steps);

}  // namespace meshmp
