// `meshmp run`: builds the machine from a configuration, runs the algorithm's firmware on every node,
// verifies every node's memory, prints a summary, writes the statistics JSON and the waveform.
#pragma once

#include <ostream>

#include "hw/machine_config.h"

namespace meshmp {

// Exit codes: 0 completed and verified; 1 the run failed (deadlock, stall, firmware error, wrong data);
// 2 bad input (the message names the field, the value and the rule).
int run_machine(const MachineConfig& config, std::ostream& out, std::ostream& err);

}  // namespace meshmp
