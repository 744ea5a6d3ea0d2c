// Model size estimate. See model_size.h.
#include "hw/model_size.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "topology/config_error.h"
#include "hw/input_unit.h"
#include "hw/message_statistics.h"
#include "hw/peer_table.h"

namespace meshmp {

ModelSize estimate_model_size(const Topology& topology, const MachineConfig& config,
                              const std::optional<NodeFootprint>& nodes) {
  const std::uint64_t n = static_cast<std::uint64_t>(topology.num_nodes());
  const std::uint64_t net_ports = static_cast<std::uint64_t>(topology.num_ports());
  const std::uint64_t ports = net_ports + (config.port_model == PortModel::AllPort ? net_ports : 1);
  const std::uint64_t vcs = static_cast<std::uint64_t>(config.router.vcs);
  ModelSize size;
  // Per port and VC: the flit slots and the VC state; per port pair: allocator requests.
  size.router_bytes = n * ports * (vcs * (config.router.buffer_flits * sizeof(Flit) + sizeof(InputVirtualChannel)) +
                                   ports * 16 + 256);
  if (nodes) {
    size.memory_bytes = n * nodes->memory_bytes;
    // A processor's thread stack and modules; the network interface's table of peers (a pointer per 64
    // nodes, and a page of 64 peers' sequence numbers and posted-receive heads for each peer talked to,
    // at most every page); with a per-message log, a record per message of the exchange.
    const std::uint64_t pages = (n + PeerTable::kPageEntries - 1) / PeerTable::kPageEntries;
    const std::uint64_t peer_pages = std::min(pages, nodes->peers);
    size.node_bytes = n * (128 * 1024 + pages * sizeof(void*) + peer_pages * PeerTable::kPageEntries * sizeof(PeerState));
    if (!config.messages_csv.empty()) size.node_bytes += n * (n - 1) * sizeof(ReceivedMessageRecord);
  }
  return size;
}

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

std::uint64_t memory_map_limit() {
  std::ifstream file("/proc/sys/vm/max_map_count");
  std::uint64_t limit = 0;
  return file >> limit ? limit : 0;
}

std::optional<std::string> check_model_fits(const Topology& topology, const MachineConfig& config,
                                            const std::optional<NodeFootprint>& nodes) {
  // Every processor's SystemC thread has its own stack and guard page: two memory mappings each.
  const std::uint64_t limit = memory_map_limit();
  const std::uint64_t mappings = 2ull * static_cast<std::uint64_t>(topology.num_nodes()) + kOtherMemoryMappings;
  if (nodes && limit > 0 && mappings > limit)
    return std::string(ConfigError("topology", topology.spec(),
                                   "its " + std::to_string(topology.num_nodes()) + " processors' thread stacks need about " +
                                       std::to_string(mappings) + " memory mappings, more than this host's vm.max_map_count of " +
                                       std::to_string(limit) + " (raise it: sysctl -w vm.max_map_count=" +
                                       std::to_string(std::max<std::uint64_t>(262144, 2 * mappings)) + ")")
                           .what());
  const std::uint64_t physical = physical_memory_bytes();
  const ModelSize size = estimate_model_size(topology, config, nodes);
  if (physical == 0 || size.total() <= physical / 10 * 8) return std::nullopt;
  auto gib = [](std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
    return std::string(text);
  };
  return std::string(ConfigError("topology", topology.spec(),
                                 "the model would need about " + gib(size.total()) + " (routers " +
                                     gib(size.router_bytes) + ": " + std::to_string(topology.num_nodes()) +
                                     " routers of " + std::to_string(topology.num_ports()) + " network ports x " +
                                     std::to_string(config.router.vcs) + " VCs x " +
                                     std::to_string(config.router.buffer_flits) + " flits; node memories " +
                                     gib(size.memory_bytes) + "; processors and interfaces " + gib(size.node_bytes) +
                                     "), more than the 80% of this machine's " + gib(physical) + " it may use")
                         .what());
}

}  // namespace meshmp
