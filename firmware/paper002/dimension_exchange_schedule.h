// Total exchange inside one dimension of a Cartesian product, in 002's model (a message is one block and
// crosses one link per step), for each kind of dimension the machine has: the 2-node graph, the complete
// graph K_m, the ring C_k and the path P_k; single-port (a node sends one message and receives one per
// step) or multiport (every directed link carries one message per step). 002 cites these but does not
// give them (§4: "single-port total exchange algorithms for graphs A and B take T_A and T_B steps").
//   K_m single-port: step t = 1..m-1, node x sends its block for x + t (mod m): m - 1 = AS(K_m) steps.
//   K_m multiport (and the 2-node graph): one step, every block straight to its destination.
//   C_k single-port: a block goes the shorter way round (half-way blocks clockwise); first every node
//     forwards clockwise, one block per step, the one with the farthest to go, until no clockwise block
//     is left, then counter-clockwise. The ring is vertex-transitive, so every node holds as many blocks
//     as every other and each step carries n blocks one link: floor(k^2 / 4) = AS(C_k) steps, the
//     status bound (3).
//   C_k multiport: both directions in every step, farthest first; on even rings the half-way blocks of
//     even positions go clockwise and of odd ones counter-clockwise, so both directions carry the same
//     load: the cut bound (4), ceil(floor(k/2) ceil(k/2) / 2) steps.
//   P_k multiport: every directed link forwards the block with the farthest to go; the middle link carries
//     floor(k^2/4) blocks each way, the cut bound, and the schedule meets it (tests).
//   P_k single-port: AS(P_k) = (k^2 - 1) / 3 cannot be met for k >= 3: it needs all k nodes to send in
//     every step, but an end node only ever sends its own k - 1 blocks. Node i must receive every block
//     whose way crosses it, i (k - i) from the left and (k - 1 - i)(i + 1) from the right, one per step:
//     the largest of these (about k^2 / 2, the middle node's) bounds the steps from below, and the
//     schedule meets it (k = 2..40, tests): each step, a node sending one block and receiving one, the
//     moves of the busiest nodes go first (the sender's blocks still to send plus the receiver's blocks
//     still to receive), then the block with the farthest to go. Farthest-first alone takes 8 steps on 4
//     nodes against 7, the optimum an exhaustive search finds.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/topology.h"

namespace meshmp {

// One block over one link: from position `from` to its neighbour `to`; the block is the one `source`
// wrote for `destination` (positions along the dimension).
struct BlockTransfer {
  int from, to;
  int source, destination;
};
using ExchangeStep = std::vector<BlockTransfer>;

// The steps of a total exchange among the `size` positions of a dimension of `kind`.
std::vector<ExchangeStep> dimension_exchange_schedule(DimensionKind kind, int size, bool multiport);

// The same schedule as each position takes part in it: steps[s] is step s whole, and of_position[p][s]
// the transfers of step s that leave or reach position p, in the step's order. A node plans from its
// own positions' transfers alone, in time proportional to its own messages.
struct PositionSchedule {
  std::vector<ExchangeStep> steps;
  std::vector<std::vector<ExchangeStep>> of_position;
};
// Built once per (kind, size, multiport) in a process and shared, immutable, by every node that asks.
const PositionSchedule& shared_position_schedule(DimensionKind kind, int size, bool multiport);

// The largest number of blocks a node must receive in a single-port total exchange on a path of k
// nodes (its middle node): a lower bound on the steps, tighter than AS(P_k) for k >= 3, which the
// schedule meets.
std::uint64_t path_receive_bound(int size);

}  // namespace meshmp
