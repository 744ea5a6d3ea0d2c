// Schedules of whole blocks on a Boolean n-cube (firmware/paper003/block_moves.h), one block per node at the start:
//  - the transpose combined with binary <-> Gray conversion (003 §6.3): n/2 iterations of two routing
//    steps; in iteration j bits j + n/2 (row) and j (column) of every block's node are set, inside each
//    group of four nodes, by a swap across the diagonal relayed through a corner, or a rotation;
//  - the naive way (§6.3): convert the row part's code, then the column part's (n/2 - 1 steps each where
//    the codes differ), then transpose in n steps (SPT without pipelining, §8.2.1);
//  - dimension permutations by parallel swapping (003 §7, Lemma 15), each swap of dimensions (i, k)
//    an exchange at distance two through a relay (the general exchange algorithm, Definition 11).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "firmware/paper003/block_moves.h"

namespace meshmp {

// The codes of the node address's row and column parts before (of A) and after (of A^T).
struct CodeChange {
  bool rows_gray_before = false;
  bool columns_gray_before = false;
  bool rows_gray_after = false;
  bool columns_gray_after = false;
};

// Where block x must end: A's block (u, v) at (rho_b(u) || gamma_b(v)) goes to (rho_a(v) || gamma_a(u)).
int gray_transpose_destination(int x, int n, const CodeChange& codes);

// The combined algorithm: flags (R, C) of a node position in iteration j decide the move of the block
// there: its row bit j becomes R xor (its column bit j), its column bit j becomes C xor (its row bit j).
using IterationFlags = std::function<std::pair<int, int>(int position, int j)>;
MoveSchedule combined_gray_transpose_schedule(int n, const IterationFlags& flags);
// The flags that realize `codes` (derived in cube_block_schedules.cpp).
IterationFlags gray_transpose_flags(int n, const CodeChange& codes);
MoveSchedule naive_gray_transpose_schedule(int n, const CodeChange& codes);

// A dimension permutation (003 Definition 17): node x's data goes to the node whose bit i is x's bit
// delta[i]. Parallel swapping steps (Definition 18) realizing it, by Lemma 15's halving; each step's
// swaps as (i, k) pairs.
std::vector<std::vector<std::pair<int, int>>> parallel_swaps(const std::vector<int>& delta);
// The parallel swapping steps jh-permute runs: one when delta is its own inverse (bit reversal: the
// general exchange with f(i) = i, g(i) = n-1-i), otherwise parallel_swaps(delta).
std::vector<std::vector<std::pair<int, int>>> swapping_steps(const std::vector<int>& delta);
// The destination of node x under delta.
int permuted_node(int x, const std::vector<int>& delta);
// One exchange step per swap pair, two routing steps each (out on dimension i, on through dimension k).
MoveSchedule parallel_swap_schedule(int n, const std::vector<std::vector<std::pair<int, int>>>& swaps);

}  // namespace meshmp
