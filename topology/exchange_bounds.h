// Lower bounds on the time of a total (complete) exchange, in steps of 002's model (a message is one
// block and crosses one link per step), computed from the topology alone (002 §3):
//   the status bound (3): single-port, at most n link traversals per step, so at least
//     S_G / n = AS(G) steps (Corollary 2 gives AS(G) from the dimensions);
//   the cut bound (4): for any cut (V1, V2) crossed by C edges, the |V1||V2| blocks from V1 to V2 need
//     at least |V1||V2| / C steps when every edge carries one block each way per step (multiport).
// The cut bound here is the best bisection of a single dimension (for a path or a ring of size a, the
// two contiguous halves; any split of a complete graph gives the same value); best_cut_exhaustive
// searches every cut of a small machine, as the check.
#pragma once

#include <cstdint>
#include <string>

#include "topology/topology.h"

namespace meshmp {

struct Cut {
  double steps = 0;             // |V1| |V2| / C
  std::uint64_t part1 = 0, part2 = 0, edges = 0;
  int dimension = -1;           // the bisected dimension (-1 for a cut found by the exhaustive search)
  std::string description;
};

struct ExchangeBounds {
  double average_status = 0;            // AS(G): the status bound (3), exact
  std::uint64_t status_bound_steps = 0; // ceil(AS(G))
  Cut cut;                              // the best single-dimension bisection: the cut bound (4)
  std::uint64_t cut_bound_steps = 0;    // ceil(cut.steps)
};

ExchangeBounds exchange_bounds(const Topology& topology);

// The best cut over all 2^(n-1) - 1 partitions (n <= kMaxExhaustiveNodes).
constexpr int kMaxExhaustiveNodes = 22;
Cut best_cut_exhaustive(const Topology& topology);

}  // namespace meshmp
