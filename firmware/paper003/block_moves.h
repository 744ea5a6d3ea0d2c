// Whole blocks moved across cube links step by step (003 §6.3, §7: non-pipelined routing steps): a
// schedule lists, for every routing step, which node's block crosses which link. Every node runs the
// same schedule: in each step it posts the receives of the blocks coming to it, sends the blocks leaving
// it, waits for both and, when asked, meets the others at the hardware barrier. Blocks are named by the
// node they started at; a node keeps the blocks it holds in buffers of its scratch.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "firmware/api/node_api.h"

namespace meshmp {

struct BlockMove {
  int block = 0;  // the node it started at
  int from = 0;
  int to = 0;     // a neighbour of `from`
};
using MoveSchedule = std::vector<std::vector<BlockMove>>;  // per routing step

// Where every block is after the schedule, starting from block b at node b. Throws std::logic_error
// naming the step when a move takes a block from a node that does not hold it.
std::vector<int> final_positions(const MoveSchedule& schedule, int nodes);
// The most blocks any node holds at once under the schedule.
int most_blocks_held(const MoveSchedule& schedule, int nodes);

struct BlockBuffers {
  std::uint32_t own_address = 0;   // where this node's own block starts
  std::uint32_t base = 0;          // buffers for the blocks passing through, each block_bytes
  int count = 0;
  std::uint32_t block_bytes = 0;
  std::uint32_t packet_bytes = 0;  // packets of at most this (0: one message per block)
  bool barrier = true;             // close every step with the hardware barrier
  int first_step = 0;              // the statistics' step number of the schedule's first step
  bool first_step_begun = false;   // the caller already marked it (its own work belongs to that step)
};

// One node's moves under a schedule, in the order it takes them: per step the moves reaching it, then
// those leaving it, each as its index in the step. Found for every node in one pass over the schedule
// (node_moves), so that a node runs in time proportional to its own moves instead of reading every
// node's at every step.
struct NodeMove {
  std::uint32_t step = 0;
  std::uint32_t index = 0;
  bool leaving = false;
};
std::vector<std::vector<NodeMove>> node_moves(const MoveSchedule& schedule, int nodes);

// Runs the schedule at this node (`mine`: node_moves' list for it); returns the blocks it holds at the end
// and where they are.
std::map<int, std::uint32_t> run_block_moves(NodeApi& api, const MoveSchedule& schedule,
                                             const std::vector<NodeMove>& mine, const BlockBuffers& buffers);

}  // namespace meshmp
