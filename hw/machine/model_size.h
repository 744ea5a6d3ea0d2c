// How much host memory a machine's model takes, estimated from its configuration before it is built, so
// that a machine that would not fit is refused with the numbers instead of dying in an allocation.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>

#include "hw/machine/machine_config.h"
#include "topology/topology.h"

namespace meshmp {

struct ModelSize {
  std::uint64_t router_bytes = 0;   // input buffers (flit slots), allocator and credit state (tlm: link
                                    // reservations); none on a fabric
  std::uint64_t fabric_bytes = 0;   // the shared-memory machine's global memory (one region per node)
  std::uint64_t memory_bytes = 0;   // the nodes' local memories
  std::uint64_t node_bytes = 0;     // processors (thread stacks), DMA engines, per-peer bookkeeping
  std::uint64_t total() const { return router_bytes + fabric_bytes + memory_bytes + node_bytes; }
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

// The limits on this process's memory besides the host's: 0 where there is none (or it is unknown).
// RLIMIT_AS (`ulimit -v`) bounds its address space, which already holds address_space_in_use_bytes().
std::uint64_t address_space_limit_bytes();
std::uint64_t address_space_in_use_bytes();  // VmSize of /proc/self/status
std::uint64_t resident_bytes();              // VmRSS of /proc/self/status
// The memory limit of this process's control group: the smallest memory.max (cgroup v2) or
// memory.limit_in_bytes (v1 memory controller) on its path from its own group up to the root, read from
// `proc_self_cgroup` (the lines of /proc/self/cgroup) and the hierarchy mounted at `cgroup_root`.
std::uint64_t cgroup_memory_limit_bytes(const std::string& proc_self_cgroup = "/proc/self/cgroup",
                                        const std::string& cgroup_root = "/sys/fs/cgroup");
// Address space a run maps besides the model (heap growth, SystemC's kernel), on top of what the process
// maps already, its host threads' stacks and arenas, and its processors' thread stacks (SystemC's
// default stack of 256 KiB and a guard page each).
inline constexpr std::uint64_t kOtherAddressSpaceBytes = std::uint64_t{256} << 20;
inline constexpr std::uint64_t kProcessorStackAddressSpaceBytes = (std::uint64_t{256} << 10) + 4096;

// The memory a process may use and where that bound comes from, the tightest of: 80% of the host's
// physical memory, its cgroup's limit less what it holds already, its address-space limit less what it
// maps already and the stacks of its threads (kOtherAddressSpaceBytes on top). bytes == 0: no bound
// is known.
struct MemoryBound {
  std::uint64_t bytes = 0;
  std::string what;  // e.g. "80% of this machine's 23.4 GiB"
};
MemoryBound memory_bound(int host_threads = 1, std::uint64_t processor_threads = 0);

// Empty when the model fits in memory_bound() and its processors' thread stacks within the host's
// memory-mapping limit; otherwise the error (field topology, the estimate and what it is made of, the
// limit it would exceed).
std::optional<std::string> check_model_fits(const Topology& topology, const MachineConfig& config,
                                            const std::optional<NodeFootprint>& nodes);

// A router network with more nodes than Topology::kMaxNodes, refused with what its run would need (the
// node memories of its data, 2 x nodes^2 x block_bytes at least; its processors' thread stacks and their
// memory mappings) and what would make it run; none for a topology within the limit.
std::optional<std::string> beyond_node_limit(const MachineConfig& config);

// What a run that failed to allocate memory reports (std::bad_alloc, raised directly or carried by the
// simulation kernel's report): "out of memory: ..." with the last model estimate check_model_fits()
// made and the memory this process may use.
std::string out_of_memory_message();
// Whether `error` is an allocation failure: a std::bad_alloc, or SystemC's report of one thrown inside a
// simulation process (which SystemC rethrows as an sc_report naming std::bad_alloc).
bool is_out_of_memory(const std::exception& error);

}  // namespace meshmp
