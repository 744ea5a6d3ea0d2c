// tseng-t4 (001 §3.2, Tseng, Ni, Sheu): on an n x n torus, n even and >= 16 (non-square sides, both even
// and >= 16, dimension by dimension: §5), two preparation phases, then T1 on four logical (n/2) x (n/2)
// tori of dilation 2 at once (Table 1, Theorem 2). The ring stages are firmware/paper001/ring_stages.*.
// Option sync (§7): none, barrier, signals.
#include <algorithm>
#include <cmath>

#include "firmware/api/algorithm_registry.h"
#include "firmware/api/local_copy_batch.h"
#include "firmware/paper001/ring_stages.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

using namespace tseng;

std::optional<std::string> why_unsupported_t4(const Topology& topology, const ExchangeParameters&) {
  if (auto error = why_unsupported_torus(topology, 2, "tseng-t4")) return error;
  for (int dim = 0; dim < 2; ++dim)
    if (topology.dimension(dim).size < 16 || topology.dimension(dim).size % 2 != 0)
      return ConfigError("topology", topology.spec(), "tseng-t4 needs both sides even and >= 16 (001 §3.2: four "
                         "logical (n/2) x (n/2) tori, whose rings need 8 or more nodes; Theorem 2: d >= 4; "
                         "non-square by §5)").what();
  return std::nullopt;
}

// tseng-t4 (001 §3.2): four logical (n/2) x (n/2) tori P_ij = {(x, y): x mod 2 = i, y mod 2 = j}, links
// dilated by two, run T1 at once (P_00 and P_11 X-stage first, P_01 and P_10 Y-stage first: Table 1),
// after two preparation phases that give every node the blocks of its three neighbours behind it:
//   Pre1: to (x+1, y) every block for P_{i+1,j} and P_{i+1,j+1} (n^2/2 blocks, in node order);
//   Pre2: to (x, y+1) every block for P_{i,j+1}, its own then those Pre1 brought (n^2/2 blocks).
// Then (x, y) holds for every node of P_ij four blocks, from itself, (x-1, y), (x, y-1), (x-1, y-1):
// T1's unit is those four.
struct NeighbourBlocks {
  const Topology& topology;
  const ExchangeLayout& layout;
  int me;
  std::uint32_t pre1, pre2;  // where the blocks of Pre1 and Pre2 arrived
  // Index of node `dst` among the nodes whose x has this node's parity (and, `same_y`, whose y has too),
  // in node order (x fastest): whole rows before dst's, then its row up to it. Counted in closed form:
  // every node asks it for every node of its torus, so a count over the nodes before dst would make the
  // firmware's bookkeeping cubic in the nodes (most of a run on torus:64x64).
  std::uint32_t rank(int dst, bool same_y) const {
    const int nx = topology.dimension(0).size;
    const int x = topology.coordinate(dst, 0), y = topology.coordinate(dst, 1);
    const int px = topology.coordinate(me, 0) % 2, py = topology.coordinate(me, 1) % 2;
    auto below = [](int c, int parity) { return (c + 1 - parity) / 2; };  // c' in [0, c) of that parity
    const int rows = same_y ? below(y, py) : y;
    const int in_row = !same_y || y % 2 == py ? below(x, px) : 0;
    return static_cast<std::uint32_t>(rows * (nx / 2) + in_row);
  }
  void append(int dst, ItemBlocks& blocks) const {
    const std::uint32_t m = layout.block_bytes;
    const std::uint32_t q = rank(dst, true);
    const std::uint32_t quarter = static_cast<std::uint32_t>(topology.num_nodes() / 4);
    blocks.insert(blocks.end(), {layout.send_block(dst), pre1 + rank(dst, false) * m, pre2 + q * m,
                                 pre2 + (quarter + q) * m});
  }
  // Unit u at `node` came from node, (x-1, y), (x, y-1), (x-1, y-1) for u = 0..3.
  int source(int node, int u) const {
    const int nx = topology.dimension(0).size, ny = topology.dimension(1).size;
    const int x = (topology.coordinate(node, 0) + nx - u % 2) % nx, y = (topology.coordinate(node, 1) + ny - u / 2) % ny;
    return topology.node_at({x, y});
  }
};

// Gathers the blocks at `addresses` (each m bytes) into one message and sends it one hop along `port`;
// receives the same number of blocks from `from` into `into`.
void preparation_phase(NodeApi& api, int step, const std::vector<std::uint32_t>& addresses, int to, int port,
                       int from, std::uint32_t into, std::uint32_t packed) {
  const std::uint32_t m = api.layout().block_bytes;
  const auto bytes = static_cast<std::uint32_t>(addresses.size()) * m;
  api.begin_step(step);
  const Handle receive = api.receive(from, into, bytes, static_cast<std::uint32_t>(step));
  LocalCopyBatch gather(api);
  for (std::size_t k = 0; k < addresses.size(); ++k) gather.add(packed + static_cast<std::uint32_t>(k) * m, addresses[k], m);
  gather.flush();
  api.wait(api.send(to, packed, bytes, static_cast<std::uint32_t>(step), {port}));
  api.wait(receive);
}

// tseng-t4's logical rings (half of each side) and the blocks of the largest message it packs and
// receives: a ring item along one dimension carries four blocks for each of the other dimension's
// logical nodes.
struct T4Sizes {
  std::uint64_t half = 0, packed = 0, received = 0;
  explicit T4Sizes(const Topology& topology) {
    const int nx = topology.dimension(0).size, ny = topology.dimension(1).size;
    half = static_cast<std::uint64_t>(topology.num_nodes()) / 2;
    packed = half;
    for (int dim = 0; dim < 2; ++dim) {
      const RingExchangePlan& plan = ring_exchange_plan(topology.dimension(dim).size / 2);
      const std::uint64_t item_blocks = 2ull * static_cast<std::uint64_t>(dim == 0 ? ny : nx);
      packed = std::max<std::uint64_t>(packed, largest_message_items(plan) * item_blocks);
      received = std::max<std::uint64_t>(received, most_received_items(plan) * item_blocks);
    }
  }
  // The scratch it declares: the gathered messages, Pre1's and Pre2's arrivals, every ring message.
  std::uint64_t scratch_blocks() const { return packed + 2 * half + 2 * received; }
};

void tseng_t4(NodeApi& api) {
  const ExchangeLayout& l = api.layout();
  const Topology& topology = api.topology();
  const std::uint32_t m = l.block_bytes;
  const int nx = topology.dimension(0).size, ny = topology.dimension(1).size;
  const int me = api.id();
  const int x = api.coordinate(0), y = api.coordinate(1);
  auto at = [&](int cx, int cy) { return topology.node_at({(cx + nx) % nx, (cy + ny) % ny}); };
  const T4Sizes sizes(topology);
  const auto half = static_cast<std::uint32_t>(sizes.half);
  RingScratch scratch(ScratchArena(static_cast<std::uint32_t>(l.scratch_base()),
                                   static_cast<std::uint32_t>(sizes.scratch_blocks() * m)));
  // The preparation's gathered message, then where Pre1 and Pre2 arrive (T1's units, held to the end).
  const std::uint32_t packed = scratch.take(half * m);
  const std::uint32_t pre1 = scratch.take(half * m);
  const std::uint32_t pre2 = scratch.take(half * m);
  const bool barrier = api.options().text("sync") == "barrier";

  // Pre1: the blocks for the other x parity, to (x+1, y).
  std::vector<std::uint32_t> out;
  for (int dst = 0; dst < topology.num_nodes(); ++dst)
    if (topology.coordinate(dst, 0) % 2 != x % 2) out.push_back(l.send_block(dst));
  preparation_phase(api, 1, out, at(x + 1, y), topology.port_of(0, +1), at(x - 1, y), pre1, packed);
  if (barrier) api.hardware_barrier();

  // Pre2: the blocks for this x parity and the other y parity, own then Pre1's, to (x, y+1).
  out.clear();
  std::uint32_t pre1_rank = 0;
  std::vector<std::uint32_t> forwarded;
  for (int dst = 0; dst < topology.num_nodes(); ++dst) {
    if (topology.coordinate(dst, 0) % 2 != x % 2) continue;
    if (topology.coordinate(dst, 1) % 2 != y % 2) {
      out.push_back(l.send_block(dst));
      forwarded.push_back(pre1 + pre1_rank * m);
    }
    ++pre1_rank;
  }
  out.insert(out.end(), forwarded.begin(), forwarded.end());
  preparation_phase(api, 2, out, at(x, y + 1), topology.port_of(1, +1), at(x, y - 1), pre2, packed);
  if (barrier) api.hardware_barrier();
  scratch.give_back(packed, half * m);

  // T1 on this node's logical torus, X-stage first on P_00 and P_11, Y-stage first on P_01 and P_10.
  const bool x_first = x % 2 == y % 2;
  const std::vector<int> dims = {x_first ? 0 : 1, x_first ? 1 : 0};
  const NeighbourBlocks units{topology, l, me, pre1, pre2};
  // On a non-square torus (001 §5) the X- and Y-stages run at once on rings of different lengths: the
  // steps are global, each slot as long as the longer ring (StageSlots::slot_steps).
  StageSlots slots;
  if (nx != ny)
    slots.slot_steps = static_cast<int>(
        std::max(ring_exchange_plan(nx / 2).phases.size(), ring_exchange_plan(ny / 2).phases.size()));
  place_blocks(api, logical_torus_exchange(api, dims, 2, 3, 4, m, units, scratch, slots), m);
}

std::vector<Algorithm> tseng_t4_algorithms() {
  const AlgorithmOption sync = sync_option();
  Algorithm t4;
  t4.name = "tseng-t4";
  t4.summary = "two preparation phases, then T1 on four logical (n/2)x(n/2) tori of dilation 2 at once";
  t4.source = "001 §3.2 (Table 1, Theorem 2), §7 (sync)";
  t4.why_unsupported = why_unsupported_t4;
  t4.firmware = tseng_t4;
  t4.estimate_cycles = [](const Topology& topology, const ExchangeParameters& p) {
    const int nx = topology.dimension(0).size, ny = topology.dimension(1).size;
    return 2.0 * static_cast<double>(p.startup_cycles) +
           static_cast<double>(topology.num_nodes()) * p.block_bytes / p.flit_bytes +
           ring_theorem1_cycles(log2_of(nx / 2), 2.0 * ny * p.block_bytes, p) +
           ring_theorem1_cycles(log2_of(ny / 2), 2.0 * nx * p.block_bytes, p);
  };
  t4.estimate_formula = "001 Theorem 2: 2 t_s + n^2 m t_c + T_2D,T1(d-1, 4m) (non-square: each side's stage)";
  t4.options = {sync};
  t4.scratch_bytes = [](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions&) -> std::uint64_t {
    const std::uint32_t block_bytes = parameters.block_bytes;
    if (why_unsupported_t4(topology, {})) return 0;  // not a torus it supports
    return T4Sizes(topology).scratch_blocks() * block_bytes;
  };
  return {t4};
}

const AlgorithmFamilyRegistration kRegistration{31, tseng_t4_algorithms};

}  // namespace

}  // namespace meshmp
