// Model size estimate. See model_size.h.
#include "hw/machine/model_size.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <new>
#include <sstream>
#include <utility>

#include "topology/config_error.h"
#include "hw/router/input_unit.h"
#include "hw/node/message_statistics.h"
#include "hw/node/peer_table.h"

namespace meshmp {

ModelSize estimate_model_size(const Topology& topology, const MachineConfig& config,
                              const std::optional<NodeFootprint>& nodes) {
  const std::uint64_t n = static_cast<std::uint64_t>(topology.num_nodes());
  const std::uint64_t net_ports = static_cast<std::uint64_t>(topology.num_ports());
  const std::uint64_t ports = net_ports + (config.port_model == PortModel::AllPort ? net_ports : 1);
  const std::uint64_t vcs = static_cast<std::uint64_t>(config.router.vcs);
  ModelSize size;
  // Per port and VC: the flit slots and the VC state; per port pair: allocator requests.
  // 004's bus, shared memory and switch (topology.fabric()) replace the routers: their state is a few
  // bytes per node, but the shared memory holds a global memory of one node memory per node.
  // The transaction-level network keeps no routers: per link its reservations and flit count.
  if (topology.fabric().empty() && config.fidelity == NetworkFidelity::Transaction)
    size.router_bytes = n * ports * 64;
  else if (topology.fabric().empty())
    size.router_bytes = n * ports * (vcs * (config.router.buffer_flits * sizeof(Flit) + sizeof(InputVirtualChannel)) +
                                     ports * 16 + 256);
  if (nodes) {
    size.memory_bytes = n * nodes->memory_bytes;
    if (!topology.fabric().empty() && find_fabric(topology.fabric()).operations.global_memory)
      size.fabric_bytes = size.memory_bytes;
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

namespace {

// The estimate of the last model checked, for the message of a run that runs out of memory anyway.
std::atomic<std::uint64_t> last_estimate_bytes{0};

std::string size_text(std::uint64_t bytes) {
  char text[32];
  if (bytes >= (std::uint64_t{1} << 30))
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
  else
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1ull << 20));
  return text;
}

// A "Key:   1234 kB" line of /proc/self/status, in bytes; 0 when absent.
std::uint64_t status_bytes(const std::string& key) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.compare(0, key.size() + 1, key + ":") == 0) {
      std::istringstream fields(line.substr(key.size() + 1));
      std::uint64_t kib = 0;
      return fields >> kib ? kib * 1024 : 0;
    }
  return 0;
}

// A cgroup limit file: "max" (v2) or a value past 2^62 (v1's "unlimited") is no limit, 0.
std::uint64_t read_limit(const std::string& path) {
  std::ifstream file(path);
  std::string text;
  if (!(file >> text) || text == "max") return 0;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value >= (std::uint64_t{1} << 62)) return 0;
  return value;
}

}  // namespace

std::uint64_t address_space_limit_bytes() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  return static_cast<std::uint64_t>(limit.rlim_cur);
}

std::uint64_t address_space_in_use_bytes() { return status_bytes("VmSize"); }
std::uint64_t resident_bytes() { return status_bytes("VmRSS"); }

std::uint64_t cgroup_memory_limit_bytes(const std::string& proc_self_cgroup, const std::string& cgroup_root) {
  std::ifstream in(proc_self_cgroup);
  std::uint64_t smallest = 0;
  std::string line;
  while (std::getline(in, line)) {
    // hierarchy-id:controllers:path; cgroup v2 is "0::path", a v1 memory controller lists "memory".
    const auto first = line.find(':'), second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string id = line.substr(0, first), controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    std::string hierarchy, file;
    if (id == "0" && controllers.empty()) {
      hierarchy = cgroup_root;
      file = "memory.max";
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      hierarchy = cgroup_root + "/memory";
      file = "memory.limit_in_bytes";
    } else {
      continue;
    }
    // The group's own limit and every ancestor's: the smallest binds.
    while (true) {
      const std::uint64_t limit = read_limit(hierarchy + (path == "/" ? "" : path) + "/" + file);
      if (limit > 0 && (smallest == 0 || limit < smallest)) smallest = limit;
      if (path.empty() || path == "/") break;
      const auto slash = path.rfind('/');
      path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
    }
  }
  return smallest;
}

MemoryBound memory_bound(int host_threads, std::uint64_t processor_threads) {
  MemoryBound bound;
  auto consider = [&bound](std::uint64_t bytes, std::string what) {
    if (bound.bytes == 0 || bytes < bound.bytes) bound = {bytes, std::move(what)};
  };
  if (const std::uint64_t physical = physical_memory_bytes(); physical > 0)
    consider(physical / 10 * 8, "80% of this machine's " + size_text(physical));
  if (const std::uint64_t limit = cgroup_memory_limit_bytes(); limit > 0) {
    const std::uint64_t held = resident_bytes();
    consider(limit > held ? limit - held : 1, "its control group's memory limit (memory.max) of " + size_text(limit) +
                                                  " less the " + size_text(held) + " it holds already");
  }
  if (const std::uint64_t limit = address_space_limit_bytes(); limit > 0) {
    // Each host thread maps a stack and may map a heap arena of its own; each processor's SystemC thread
    // maps its whole stack (the estimate counts only the part a processor touches).
    const std::uint64_t threads = static_cast<std::uint64_t>(std::max(host_threads, 1)) * (std::uint64_t{72} << 20) +
                                  processor_threads * kProcessorStackAddressSpaceBytes;
    const std::uint64_t used = address_space_in_use_bytes() + kOtherAddressSpaceBytes + threads;
    consider(limit > used ? limit - used : 1,
             "its address-space limit (ulimit -v) of " + size_text(limit) + " less the " + size_text(used) +
                 " its program, thread stacks and simulation kernel map");
  }
  return bound;
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
  const ModelSize size = estimate_model_size(topology, config, nodes);
  last_estimate_bytes = size.total();
  const MemoryBound bound =
      memory_bound(config.host_threads, nodes ? static_cast<std::uint64_t>(topology.num_nodes()) : 0);
  if (bound.bytes == 0 || size.total() <= bound.bytes) return std::nullopt;
  return std::string(ConfigError("topology", topology.spec(),
                                 "the model would need about " + size_text(size.total()) + " of memory (" +
                                     (topology.fabric().empty()
                                          ? "routers " + size_text(size.router_bytes) + ": " +
                                                std::to_string(topology.num_nodes()) + " routers of " +
                                                std::to_string(topology.num_ports()) + " network ports x " +
                                                std::to_string(config.router.vcs) + " VCs x " +
                                                std::to_string(config.router.buffer_flits) + " flits"
                                          : "the " + topology.fabric() + "'s global memory " +
                                                size_text(size.fabric_bytes)) +
                                     "; node memories " +
                                     size_text(size.memory_bytes) + "; processors and interfaces " +
                                     size_text(size.node_bytes) + "), more than the " + size_text(bound.bytes) +
                                     " this process may use: " + bound.what)
                         .what());
}

std::optional<std::string> beyond_node_limit(const MachineConfig& config) {
  const std::int64_t count = Topology::nodes_in(config.topology);
  if (count <= Topology::kMaxNodes) return std::nullopt;
  const auto nodes = static_cast<std::uint64_t>(count);
  const std::uint64_t memories = 2 * nodes * nodes * std::uint64_t{config.block_bytes};
  const std::uint64_t stacks = nodes * kProcessorStackAddressSpaceBytes;
  const std::uint64_t mappings = 2 * nodes + kOtherMemoryMappings;
  const MemoryBound bound = memory_bound();
  return std::string(
      ConfigError("topology", config.topology,
                  "has " + std::to_string(nodes) + " nodes; at most " + std::to_string(Topology::kMaxNodes) +
                      " nodes are supported (node numbers are 16 bits in a head flit). Its run would need at least " +
                      size_text(memories) + " of node memories (2 x nodes^2 x block_bytes), " + size_text(stacks) +
                      " of address space for its processors' thread stacks and " + std::to_string(mappings) +
                      " memory mappings; it would run with node numbers wider than 16 bits (hw/router/flit_wire.h and the "
                      "RTL router), a host with that memory" +
                      (bound.bytes > 0 ? " (this process may use " + size_text(bound.bytes) + ": " + bound.what + ")" : "") +
                      " and vm.max_map_count of at least " + std::to_string(mappings) + " (this host: " +
                      std::to_string(memory_map_limit()) + ")")
          .what());
}

std::string out_of_memory_message() {
  std::string text = "out of memory: the run could not allocate the memory it needs";
  const std::uint64_t estimate = last_estimate_bytes;
  const MemoryBound bound = memory_bound();
  if (estimate > 0) text += " (the model was estimated at about " + size_text(estimate) + " of memory";
  if (bound.bytes > 0)
    text += std::string(estimate > 0 ? "; " : " (") + "this process may use " + size_text(bound.bytes) + ": " + bound.what;
  if (estimate > 0 || bound.bytes > 0) text += ")";
  return text + "; a smaller machine, block size or message log needs less";
}

bool is_out_of_memory(const std::exception& error) {
  if (dynamic_cast<const std::bad_alloc*>(&error)) return true;
  const std::string what = error.what();
  return what.find("std::bad_alloc") != std::string::npos;
}

}  // namespace meshmp
