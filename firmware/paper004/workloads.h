// Paper 004's data-exchange operations as workloads whose unit is the word (004 §3: N words, a word of
// `block_bytes` bytes; workload option words = N):
//  - one-to-one (§3.1): N words from `source` to `destination`;
//  - broadcast (§3.2): the same N words from `root` to every other node;
//  - all-to-all-broadcast (§3.3): every node's N/k words to every node;
//  - all-to-one (§3.4, the gather: scatter's dual): every node's N/k words to `root`;
//  - grid-transpose (§3.5 D): on a square 2-D grid, a matrix in square blocks, block (i, j) on node (j, i):
//    node (x, y)'s N/k words to node (y, x) (the diagonal keeps its own).
// (one-to-all and complete-exchange, §3.4 and §3.5, are the block workloads of block_workloads.cpp with
// the same `words` option.) Memory: one-to-one and broadcast keep the input in region A (N words at 0) and
// the output in region B (N words after it; a relay receives there too); the all-to-all broadcast and the
// gather keep one vector of k slots of N/k words at 0, node i's own words in slot i, and every node (all-to-
// all) or the root (gather) ends with every slot filled; the grid transpose keeps a node's N/k words in
// region A and its mirror's in region B. The algorithm's scratch follows.
#pragma once

#include <cstdint>
#include <string>

#include "firmware/workloads/workload.h"

namespace meshmp {

// What 004's algorithms need of a word workload.
struct SaadWords {
  std::string operation;         // "one-to-one", "broadcast", "all-to-all-broadcast", "all-to-one", "grid-transpose"
  std::uint64_t words = 0;       // N
  std::uint32_t word_bytes = 0;  // bytes of one word
  int source = 0;                // one-to-one: the source; broadcast, all-to-one: the root
  int destination = -1;          // one-to-one only
  std::uint32_t input_base = 0;  // where the input words start (region A, or the vector)
  std::uint32_t output_base = 0; // where the output words go (region B, or the vector)
  std::uint32_t address(std::uint32_t base, std::uint64_t word) const {
    return base + static_cast<std::uint32_t>(word * word_bytes);
  }
};

// The word workload's geometry; FirmwareError-free: std::invalid_argument for other workloads.
const SaadWords& saad_words(const Workload& workload);

}  // namespace meshmp
