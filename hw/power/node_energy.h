// The energy of the nodes and of 004's fabrics from what they did: each start-up, each byte a DMA engine
// moved, each byte read or written in a node's memory, each byte a processor copied, and each node's static
// power over the run; on 004's machines (paper 004 §2 A, B, F) each byte driven onto the bus, read or
// written in the global memory's banks, or passed through a stage of the Omega switch. Priced by the
// technology's node keys (hw/power/technology.h); docs/energy.md gives each equation and its source.
#pragma once

#include <cstdint>

#include "hw/power/technology.h"

namespace meshmp {

// What the nodes and the fabric did over a run.
struct NodeActivity {
  int nodes = 0;
  std::uint64_t memory_bytes_per_node = 0;  // a node's local memory, which leaks as SRAM
  std::uint64_t startup_cycles = 0;         // t_s: a start-up's instructions, one a cycle
  std::uint64_t startups = 0;
  std::uint64_t dma_bytes = 0;     // read from a local memory by a DMA engine, or written into one
  std::uint64_t copied_bytes = 0;  // copied by a processor within its memory (each read and written)
  std::uint64_t bus_bytes = 0;           // driven onto 004's bus (once for a broadcast)
  std::uint64_t bank_bytes = 0;          // read or written in 004's global memory
  std::uint64_t switch_stage_bytes = 0;  // bytes times the Omega switch's stages they passed
};

// Joules, by event.
struct NodeEnergy {
  double startups = 0, dma = 0, memory = 0, copies = 0, idle = 0;
  double bus = 0, banks = 0, switch_stages = 0;

  double nodes() const { return startups + dma + memory + copies + idle; }
  double fabric() const { return bus + banks + switch_stages; }
  double dynamic() const { return startups + dma + memory + copies + fabric(); }
  double total() const { return dynamic() + idle; }
};

// `activity` priced by `technology`, the static power over `seconds`.
NodeEnergy node_energy(const Technology& technology, const NodeActivity& activity, double seconds);

}  // namespace meshmp
