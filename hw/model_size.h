// How much host memory a machine's model takes, estimated from its configuration before it is built, so
// that a machine that would not fit is refused with the numbers instead of dying in an allocation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hw/machine_config.h"
#include "topology/topology.h"

namespace meshmp {

struct ModelSize {
  std::uint64_t router_bytes = 0;   // input buffers (flit slots), allocator and credit state
  std::uint64_t memory_bytes = 0;   // the nodes' local memories
  std::uint64_t node_bytes = 0;     // processors (thread stacks), DMA engines, per-peer bookkeeping
  std::uint64_t total() const { return router_bytes + memory_bytes + node_bytes; }
};

// What each node of a machine with processors adds: its local memory (the workload's regions and the
// algorithm's scratch) and the number of distinct peers it talks to.
struct NodeFootprint {
  std::uint64_t memory_bytes = 0;
  std::uint64_t peers = 0;
};

// The model of `topology` under `config`; `nodes` empty for a bare network (traffic runs).
ModelSize estimate_model_size(const Topology& topology, const MachineConfig& config,
                              const std::optional<NodeFootprint>& nodes);
std::uint64_t physical_memory_bytes();
// This host's limit on a process's memory mappings (vm.max_map_count); 0 when unknown.
std::uint64_t memory_map_limit();
// Mappings a run needs besides its processors' stacks (libraries, heap arenas, the node memories).
inline constexpr std::uint64_t kOtherMemoryMappings = 4096;
// Empty when the model fits in 80% of this machine's physical memory and its processors' thread stacks
// within the host's memory-mapping limit; otherwise the error (field topology, the estimate and what it
// is made of, the limit it would exceed).
std::optional<std::string> check_model_fits(const Topology& topology, const MachineConfig& config,
                                            const std::optional<NodeFootprint>& nodes);

}  // namespace meshmp
