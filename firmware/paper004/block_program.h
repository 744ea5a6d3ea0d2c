// Turns a schedule of whole-block moves into a step program (step_program.h) with the addresses
// filled in: each message is sent straight from where its blocks lie when they lie there in order, and
// otherwise gathered first into an out-buffer in the node's scratch (one local copy operation at the start
// of the step, rho per byte); it is received straight into the blocks' final places when they are all
// this node's and consecutive there, and otherwise into an in-buffer in scratch. After the last step every
// block not yet in its final place is copied there. A relay receives into its home place for the blocks
// when the schedule gives one and they are consecutive there. 004's scatter, gather and multiscatter (§3.4, §3.5)
// are written as such schedules; copies are outside 004's model (its tables run with rho = 0).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "firmware/paper004/step_program.h"

namespace meshmp {

struct SaadBlockMove {
  int from = 0;
  int to = 0;
  std::vector<int> blocks;  // block ids, in message order
};

struct SaadSpot {
  int node = 0;
  std::uint32_t address = 0;
};

struct SaadBlockSchedule {
  std::uint32_t block_bytes = 0;
  std::vector<SaadSpot> start;                 // per block: where it starts
  std::vector<std::vector<SaadSpot>> finish;   // per block: every place it must end in
  // Where a relay keeps block b when it is not one of b's final places (its send buffer's slot, the
  // vector's slot); empty or no value: an in-buffer in scratch.
  std::function<std::optional<std::uint32_t>(int node, int block)> home;
  std::vector<std::vector<SaadBlockMove>> steps;
};

// The program; its scratch_bytes is what it uses from `scratch_base` on the busiest node.
SaadProgram compile_block_schedule(const SaadBlockSchedule& schedule, int nodes, std::uint32_t scratch_base);

}  // namespace meshmp
