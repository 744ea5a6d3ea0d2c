// tseng-c64 (001 §4, Tseng, Ni, Sheu): on an n x n x n torus, n a multiple of 4 and >= 32, nine
// preparation phases (firmware/paper001/c64_preparation.*), then C1 on 64 logical (n/4)^3 tori of dilation 4, four
// groups of them in the stage slots of Table 2 (Theorem 3). The ring stages are firmware/paper001/ring_stages.*.
// Option sync (§7): none, barrier, signals.
#include <algorithm>
#include <cmath>

#include "firmware/api/algorithm_registry.h"
#include "firmware/paper001/c64_preparation.h"
#include "firmware/paper001/ring_stages.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

using namespace tseng;

// tseng-c64 (001 §4): the nine preparation phases (firmware/paper001/c64_preparation.*), then C1 on the 64
// logical (n/4)^3 tori C_ijk = {(x, y, z): x mod 4 = i, y mod 4 = j, z mod 4 = k} of dilation 4 at once,
// the tori of group G_s (s = (i + j + k) mod 4) running in stage slot q the axis (s - q) mod 4 of
// Table 2 (3: idle). A unit is the 64 blocks a node holds for one node of its logical torus.
std::optional<std::string> why_unsupported_c64(const Topology& topology, const ExchangeParameters&) {
  if (auto error = why_unsupported_torus(topology, 3, "tseng-c64")) return error;
  const int n = topology.dimension(0).size;
  if (topology.dimension(1).size != n || topology.dimension(2).size != n || n % 4 != 0 || n < 32)
    return ConfigError("topology", topology.spec(), "tseng-c64 needs an n x n x n torus, n a multiple of 4 and "
                       ">= 32 (001 §4: 64 cubic logical tori of side n/4, whose rings need 8 or more nodes; "
                       "Theorem 3: d >= 5)").what();
  return std::nullopt;
}

// C64's node memory beyond the send and receive buffers: the units, then a work area for the
// preparation's messages, reused by the ring stages' once the units are filled. The sizes are the
// bounds the memory is declared with; both reuse the bytes of what they have sent (ScratchArena).
struct C64Sizes {
  std::uint64_t units = 0, packed = 0, work = 0;  // blocks
  explicit C64Sizes(const Topology& topology) {
    const int n = topology.dimension(0).size;
    const RingExchangePlan& plan = ring_exchange_plan(n / 4);
    const std::uint64_t item = static_cast<std::uint64_t>(n / 4) * (n / 4) * 64;  // blocks per ring item
    units = static_cast<std::uint64_t>(topology.num_nodes());
    packed = largest_message_items(plan) * item;
    const C64Memory memory{n, 1, 0, 0, 0};
    work = std::max(memory.preparation_work_blocks(), packed + 3 * most_received_items(plan) * item);
  }
};

// The unit this node holds for `dst`: its 64 blocks came from the nodes behind this one (the holder
// stands for them; the final scatter names each block's source).
struct C64Units {
  const Topology& topology;
  std::uint32_t units, unit_bytes;
  void append(int dst, ItemBlocks& blocks) const {
    blocks.push_back(units + static_cast<std::uint32_t>(logical_index(topology, dst)) * unit_bytes);
  }
  int source(int node, int) const { return node; }
};

void tseng_c64(NodeApi& api) {
  const ExchangeLayout& l = api.layout();
  const Topology& topology = api.topology();
  const std::uint32_t m = l.block_bytes;
  const int n = topology.dimension(0).size;
  const C64Sizes sizes(topology);
  const C64Memory memory{n, m, l.receive_base(), l.scratch_base(),
                         l.scratch_base() + static_cast<std::uint32_t>(sizes.units) * m};
  const bool barrier = api.options().text("sync") == "barrier";
  {
    ScratchArena preparation_scratch(memory.work, static_cast<std::uint32_t>(memory.preparation_work_blocks()) * m);
    c64_preparation(api, memory, 1, barrier, preparation_scratch);
  }

  // Table 2: group s runs in slot q the axis (s - q) mod 4; axis 3 is the idle slot.
  const int group = (api.coordinate(0) + api.coordinate(1) + api.coordinate(2)) % 4;
  std::vector<int> dims;
  StageSlots slots;
  for (int q = 0; q < 4; ++q) {
    const int axis = ((group - q) % 4 + 4) % 4;
    if (axis == 3) slots.idle_slot = q;
    else dims.push_back(axis);
  }
  if (barrier) slots.stage_barriers = barriers_of(ring_exchange_plan(n / 4));
  // The preparation's work area is dead: the ring stages take it again.
  RingScratch scratch(ScratchArena(memory.work, static_cast<std::uint32_t>(sizes.work) * m));
  const std::vector<Unit> arrived =
      logical_torus_exchange(api, dims, 4, 10, 1, 64 * m, C64Units{topology, memory.units, 64 * m}, scratch, slots);

  // Every unit's 64 blocks to their places in the receive buffer: block j of the unit held at w came
  // from w - offset(j). A local operation per few units.
  std::vector<LocalCopy> copies;
  for (std::size_t u = 0; u < arrived.size(); ++u) {
    const std::vector<int> holder = topology.coordinates(arrived[u].source);
    for (int j = 0; j < 64; ++j) {
      const SourceOffset o = unit_block_offset(j);
      const int source = topology.node_at({(holder[0] + n - o.x) % n, (holder[1] + n - o.y) % n, (holder[2] + n - o.z) % n});
      copies.push_back({l.receive_block(source), arrived[u].address + static_cast<std::uint32_t>(j) * m, m});
    }
    if (copies.size() >= 512 || u + 1 == arrived.size()) {
      api.local_copies(copies);
      copies.clear();
    }
  }
}

std::vector<Algorithm> tseng_c64_algorithms() {
  const AlgorithmOption sync = sync_option();
  Algorithm c64;
  c64.name = "tseng-c64";
  c64.summary = "nine preparation phases, then C1 on 64 logical (n/4)^3 tori of dilation 4, four groups in turn";
  c64.source = "001 §4 (Table 2, Theorem 3), §7 (sync)";
  c64.why_unsupported = why_unsupported_c64;
  c64.firmware = tseng_c64;
  c64.estimate_cycles = [](const Topology& topology, const ExchangeParameters& p) {
    const int n = topology.dimension(0).size;
    return 9.0 * static_cast<double>(p.startup_cycles) +
           4.5 * topology.num_nodes() * p.block_bytes / p.flit_bytes +
           4 * ring_theorem1_cycles(log2_of(n / 4), 4.0 * n * n * p.block_bytes, p);
  };
  c64.estimate_formula = "001 Theorem 3: 9 t_s + 9 2^(3d-1) m t_c + 4 T_1D(d-2, 64 2^(2(d-2)) m)";
  c64.options = {sync};
  c64.scratch_bytes = [](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions&) -> std::uint64_t {
    if (why_unsupported_c64(topology, {})) return 0;  // not a torus it supports
    const C64Sizes sizes(topology);
    return (sizes.units + sizes.work) * parameters.block_bytes;
  };
  // A neighbour each way per axis, and per ring phase at most a receiver, a sender and a signal partner.
  c64.peers_per_node = [](const Topology& topology) -> std::uint64_t {
    return 6 + 9 * ring_exchange_plan(std::max(8, topology.dimension(0).size / 4)).phases.size();
  };
  return {c64};
}

const AlgorithmFamilyRegistration kRegistration{32, tseng_c64_algorithms};

}  // namespace

}  // namespace meshmp
