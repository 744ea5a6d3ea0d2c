// Complete exchange on wormhole-routed tori by gather-scatter trees (Tseng, Ni, Sheu; 001):
//  - tseng-ring: a ring of 8..128 nodes (§2; lengths other than 2^d by §5): the 2d - 2 combined phases
//    of the positive and the negative gather-scatter trees, overlapped under the one-port model (§2.4),
//    a phase split in two where an odd ring breaks the overlap's parity. The schedule (which blocks
//    each node sends to whom in each phase) is firmware/ring_exchange_plan.*; this file runs it on the
//    node: every message is one worm along the dilated logical link (a source route of up to 2^l hops in
//    the tree's direction), the blocks it carries packed in plan order (local copies at rho per byte, skipped
//    when they already lie in order), received into fresh scratch, and at the end every block is copied to
//    its place in the receive buffer.
//  - tseng-t1: a 2-D torus, sides >= 8 (§3.1, non-square by §5): the ring exchange on every row
//    (X-stage), then on every column (Y-stage), each item being the blocks one node forwards for another.
//  - tseng-t4: an n x n torus, n even, n >= 16 (§3.2): two preparation phases, then T1 on four logical
//    (n/2) x (n/2) tori of dilation 2 at once (see tseng_t4 below); non-square sides, both even and
//    >= 16, dimension by dimension (§5).
//  - tseng-c1: a 3-D torus, sides >= 8 (§4): ring stages along x, y, z with a plane's blocks per item.
//  - tseng-c64: an n x n x n torus, n a multiple of 4, n >= 32 (§4): nine preparation phases, then C1 on
//    64 logical (n/4)^3 tori of dilation 4, four groups of them in the stage slots of Table 2.
// Option sync (§7): none; barrier (the hardware barrier before every phase that is not self-synchronised:
// §7.1's 2d - 5 per stage on rings of 2^d >= 16 nodes, one before every phase and stage on the others,
// where §7.1's argument fails; see self_synchronised below); signals (§7.2 local synchronisation by null messages: before a node sends in a
// phase, it waits for a signal from the receiver of every message of the previous phase that shares a
// physical link with its own and comes from another node; the receiver signals once that message is in
// its memory).
#include <algorithm>
#include <cmath>
#include <map>

#include "firmware/algorithm_registry.h"
#include "firmware/c64_preparation.h"
#include "firmware/ring_exchange_plan.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

constexpr std::uint32_t kSignalTagBase = 1u << 20;

// Empty when dimension `dim` is a ring the gather-scatter trees are built for (8 <= n <= 128: 001 §2
// analyses d >= 3; a logical link of phase l is a worm of up to 2^l hops, and source routes hold 32);
// otherwise why not.
std::optional<std::string> unsupported_ring(const Topology& topology, int dim, const std::string& algorithm) {
  const Dimension& dimension = topology.dimension(dim);
  const int n = dimension.size;
  if (dimension.kind != DimensionKind::Ring || n < 8)
    return ConfigError("topology", topology.spec(),
                       algorithm + " needs rings of at least 8 nodes (001 analyses its gather-scatter trees for "
                                   "d = ceil(lg n) >= 3)")
        .what();
  if (n > 128)
    return ConfigError("topology", topology.spec(), algorithm + " supports rings of at most 128 nodes (its "
                       "longest logical link, 2^(d-2) hops with d = ceil(lg n), must fit a 32-hop source route)")
        .what();
  return std::nullopt;
}

std::optional<std::string> supports_ring(const Topology& topology, const ExchangeParameters&) {
  if (topology.num_dimensions() != 1 || topology.dimension(0).kind != DimensionKind::Ring)
    return ConfigError("topology", topology.spec(), "tseng-ring runs on a ring (ring:N)").what();
  return unsupported_ring(topology, 0, "tseng-ring");
}

// tseng-t1 (2 dimensions) and tseng-c1 (3): a torus whose every dimension is a ring it supports.
std::optional<std::string> supports_torus(const Topology& topology, int dimensions, const std::string& algorithm) {
  bool rings = topology.num_dimensions() == dimensions;
  for (int dim = 0; rings && dim < dimensions; ++dim) rings = topology.dimension(dim).kind == DimensionKind::Ring;
  if (!rings)
    return ConfigError("topology", topology.spec(), algorithm + " runs on a " + std::to_string(dimensions) +
                       "-D torus (001 §" + (dimensions == 2 ? "3" : "4") + "; non-square sides by §5)").what();
  for (int dim = 0; dim < dimensions; ++dim)
    if (auto error = unsupported_ring(topology, dim, algorithm)) return error;
  return std::nullopt;
}

std::optional<std::string> supports_t4(const Topology& topology, const ExchangeParameters&) {
  if (auto error = supports_torus(topology, 2, "tseng-t4")) return error;
  for (int dim = 0; dim < 2; ++dim)
    if (topology.dimension(dim).size < 16 || topology.dimension(dim).size % 2 != 0)
      return ConfigError("topology", topology.spec(), "tseng-t4 needs both sides even and >= 16 (001 §3.2: four "
                         "logical (n/2) x (n/2) tori, whose rings need 8 or more nodes; Theorem 2: d >= 4; "
                         "non-square by §5)").what();
  return std::nullopt;
}

int log2_of(int n) {
  int d = 0;
  while ((1 << d) < n) ++d;
  return d;
}

// 001 Theorem 1 (d >= 3) with 000 §2's step cost, for items of `item_bytes`: (2d - 2) t_s + the blocks of
// Lemmas 2-6 plus the §2.4 overlap's extra blocks, times item_bytes t_c.
double ring_theorem1_cycles(int d, double item_bytes, const ExchangeParameters& p) {
  const double two_2d_1 = std::ldexp(1.0, 2 * d - 1);
  const double positive_items = d <= 5 ? two_2d_1 * 31.0 / 96.0 + std::ldexp(1.0, d - 3) - 1.0 / 3.0
                                       : two_2d_1 * 65.0 / 192.0 - std::ldexp(1.0, d - 2) - 1.0 / 3.0;
  const double items = positive_items + (d == 3 ? 3 : 2);
  return (2 * d - 2) * static_cast<double>(p.startup_cycles) + items * item_bytes / p.flit_bytes;
}

// The directed ring links a message crosses: (node it leaves, direction).
std::vector<std::pair<int, int>> links_of(const RingMessage& m, int n) {
  std::vector<std::pair<int, int>> links;
  for (int k = 0; k < m.hops; ++k) links.push_back({((m.from + k * m.direction) % n + n) % n, m.direction});
  return links;
}

bool share_a_link(const RingMessage& a, const RingMessage& b, int n) {
  const auto la = links_of(a, n);
  for (const auto& link : links_of(b, n))
    if (std::find(la.begin(), la.end(), link) != la.end()) return true;
  return false;
}

// sync=signals: `later` (next phase) waits for `earlier` to be received when they share a link, unless
// one node is both ends of the wait (it has waited for its own receive) or both come from one node (its
// worms follow each other on the same path: self-synchronised, 001 §7.1).
bool needs_signal(const RingMessage& earlier, const RingMessage& later, int n) {
  return earlier.to != later.from && earlier.from != later.from && share_a_link(earlier, later, n);
}

// 001 §7.1 drops the barriers before SP_{d-2} and SP_0 because GP_{d-2} -> SP_{d-2} and SP_1 -> SP_0 are
// self-synchronised on the trees of 2^d nodes. That holds for d >= 4 only: at d = 3, SP_1 = SP_{d-2} has
// no negative messages, so the odd nodes start SP_0 early and meet the SP_1 worms at their receivers.
// Nor does it hold on §5's wrapped trees (lengths other than 2^d), where GP_{d-2} has fewer senders than
// SP_{d-2} and phases are split in two: there the nodes idle in a phase start the next one early (ring:100
// measured 9,058 cycles against 9,074 for the steps one after the other, ring:99 9,887 against 9,900,
// tseng-t1 on torus:9x9 3,526 against 3,618) or meet its worms at their receivers (tseng-t4 on
// torus:18x18: 11,676 cycles of header blocking). So §7.1's 2d - 5 barriers on rings of 2^d >= 16 nodes,
// and a barrier before every phase on the others.
bool self_synchronised(const RingExchangePlan& plan) {
  return plan.nodes >= 16 && (plan.nodes & (plan.nodes - 1)) == 0;
}

// Whether phase `phase` of a ring stage is preceded by a barrier under sync=barrier: never the first (a
// stage boundary is decided by the caller); on the self-synchronised rings not SP_{d-2} and SP_0 (001
// §7.1); on the other rings every other phase.
bool barrier_before(const RingExchangePlan& plan, std::size_t phase) {
  if (phase == 0) return false;
  if (!self_synchronised(plan)) return true;
  const std::size_t d_minus_2 = plan.phases.size() / 2 - 1;
  return phase != d_minus_2 + 1 && phase != plan.phases.size() - 1;
}

// The barriers a ring stage takes under sync=barrier.
int barriers_of(const RingExchangePlan& plan) {
  int barriers = 0;
  for (std::size_t p = 0; p < plan.phases.size(); ++p) barriers += barrier_before(plan, p) ? 1 : 0;
  return barriers;
}

const RingMessage* find_message(const RingPhase& phase, bool outgoing, int node) {
  for (const RingMessage& m : phase.messages)
    if ((outgoing ? m.from : m.to) == node) return &m;
  return nullptr;
}

std::uint64_t largest_message_items(const RingExchangePlan& plan) {
  std::uint64_t largest = 0;
  for (const RingPhase& p : plan.phases)
    for (const RingMessage& m : p.messages) largest = std::max<std::uint64_t>(largest, m.blocks.size());
  return largest;
}

std::uint64_t most_received_items(const RingExchangePlan& plan) {
  std::vector<std::uint64_t> received(plan.nodes, 0);
  for (const RingPhase& p : plan.phases)
    for (const RingMessage& m : p.messages) received[m.to] += m.blocks.size();
  return *std::max_element(received.begin(), received.end());
}

// An item of a ring stage: what ring position s has for ring position t (one block on a ring; on a torus
// the blocks one node forwards for another, 001 §3.1), as the addresses of its blocks in item order.
using ItemBlocks = std::vector<std::uint32_t>;
using HeldItems = std::map<RingBlock, ItemBlocks>;

// One ring stage: every logical ring along `dimension` runs the gather-scatter schedule (001 §2) at
// once. A logical ring takes every `dilation`-th node (001 §3.2: dilation 2, the four logical tori);
// ring position = coordinate / dilation, and a logical hop is `dilation` physical hops.
struct RingStage {
  int dimension;
  int dilation;
  int first_step;             // the step mark of its first phase
  std::uint32_t item_blocks;  // units per item
  std::uint32_t unit_bytes;   // bytes per unit: a block, or C64's 64 blocks
  bool barrier_first = false;  // sync=barrier: a barrier before its first phase too (a stage boundary)
  bool barrier_every_phase = false;  // sync=barrier: before every other phase too (logical tori of different rings)
};

// Scratch of a node: the outgoing message when its blocks must be gathered, then the received messages
// one after the other (never reused: the plan is short).
struct TsengScratch {
  std::uint32_t packed;
  std::uint32_t next_free;
};

// Runs `stage` on this node's ring: sends and receives the plan's items, returns what it holds at the
// end (its own item and every item for it).
HeldItems run_ring_stage(NodeApi& api, const RingStage& stage, HeldItems held, TsengScratch& scratch) {
  const Topology& topology = api.topology();
  const int n = topology.dimension(stage.dimension).size / stage.dilation;
  const int me = api.coordinate(stage.dimension) / stage.dilation;
  const int offset = api.coordinate(stage.dimension) % stage.dilation;
  const std::uint32_t m = stage.unit_bytes;
  const RingExchangePlan& plan = ring_exchange_plan(n);
  const std::string& sync = api.options().text("sync");
  const int plus = topology.port_of(stage.dimension, +1);
  const int minus = topology.port_of(stage.dimension, -1);
  std::vector<int> coordinates = topology.coordinates(api.id());
  auto node_at = [&](int position) {
    coordinates[stage.dimension] = position * stage.dilation + offset;
    return topology.node_at(coordinates);
  };
  const std::uint32_t item_bytes = stage.item_blocks * m;

  for (std::size_t p = 0; p < plan.phases.size(); ++p) {
    const RingPhase& phase = plan.phases[p];
    const int step = stage.first_step + static_cast<int>(p);
    const auto tag = static_cast<std::uint32_t>(step);
    api.begin_step(step);
    if (sync == "barrier" && (p == 0 ? stage.barrier_first : stage.barrier_every_phase || barrier_before(plan, p)))
      api.hardware_barrier();
    const RingMessage* out = find_message(phase, true, me);
    const RingMessage* in = find_message(phase, false, me);
    if (sync == "signals" && out && p > 0)
      for (const RingMessage& earlier : plan.phases[p - 1].messages)
        if (needs_signal(earlier, *out, n)) api.wait_signal(node_at(earlier.to), kSignalTagBase + tag);

    Handle receive = -1, send = -1;
    const std::uint32_t arrival = scratch.next_free;
    if (in) {
      const auto bytes = static_cast<std::uint32_t>(in->blocks.size()) * item_bytes;
      receive = api.receive(node_at(in->from), arrival, bytes, tag);
      scratch.next_free += bytes;
    }
    if (out) {
      // The message's units in order: sent in place when they already lie so, else gathered (one local
      // operation, a piece per run of consecutive units, at rho per byte).
      std::vector<std::uint32_t> blocks;
      for (const RingBlock& item : out->blocks)
        for (std::uint32_t a : held.at(item)) blocks.push_back(a);
      std::uint32_t from = blocks.front();
      bool in_order = true;
      for (std::size_t k = 0; k < blocks.size(); ++k)
        in_order = in_order && blocks[k] == from + static_cast<std::uint32_t>(k) * m;
      if (!in_order) {
        std::vector<LocalCopy> gather;
        for (std::size_t k = 0; k < blocks.size();) {
          std::size_t run = 1;
          while (k + run < blocks.size() && blocks[k + run] == blocks[k] + static_cast<std::uint32_t>(run) * m) ++run;
          gather.push_back({scratch.packed + static_cast<std::uint32_t>(k) * m, blocks[k], static_cast<std::uint32_t>(run) * m});
          k += run;
        }
        api.local_copies(gather);
        from = scratch.packed;
      }
      const std::vector<int> route(static_cast<std::size_t>(out->hops * stage.dilation), out->direction > 0 ? plus : minus);
      send = api.send(node_at(out->to), from, static_cast<std::uint32_t>(blocks.size()) * m, tag, route);
    }
    if (send >= 0) api.wait(send);
    if (out)
      for (const RingBlock& item : out->blocks) held.erase(item);
    if (receive >= 0) {
      api.wait(receive);
      for (std::size_t k = 0; k < in->blocks.size(); ++k) {
        ItemBlocks& blocks = held[in->blocks[k]];
        for (std::uint32_t b = 0; b < stage.item_blocks; ++b)
          blocks.push_back(arrival + static_cast<std::uint32_t>(k) * item_bytes + b * m);
      }
    }
    if (sync == "signals" && in && p + 1 < plan.phases.size())
      for (const RingMessage& later : plan.phases[p + 1].messages)
        if (needs_signal(*in, later, n)) api.signal(node_at(later.from), kSignalTagBase + tag + 1);
  }
  return held;
}

// A block this node forwards: where it lies, and the node it came from.
struct Unit {
  std::uint32_t address;
  int source;
};

// Algorithm T1 (001 §3.1) or C1 (§4) on the logical torus this node belongs to (every `dilation`-th node
// along each of `dims`, starting at its own offset; L nodes per ring): one ring stage per dimension, in
// the order of `dims`. `units(dst)` lists the k blocks this node holds for node `dst` of its logical
// torus (the same k for every dst); `units.sources_at(node)` says whose blocks those are at `node`.
// Returns every unit for this node, from every source.
// Before stage i a node holds, for every destination that agrees with it along dims[0..i-1], the units
// of every source that agrees with it along dims[i..]. An item of stage i (all of it for one position t
// along dims[i]) lists them by destination along dims[i+1..], then source along dims[0..i-1] (both in
// lexicographic order, the earlier dimension first), then unit: sender and receiver derive the same order.
// `unit_bytes`: the size of a unit (a block; C64's 64 blocks). `slots` fits the exchange to the logical
// tori running beside it:
//  - stage_barriers (tseng-c64 under sync=barrier, else 0): logical tori that run a stage or idle at once
//    pad each stage to this many barriers and meet at one more barrier before the next stage, so that no
//    torus starts a stage while another still runs the previous one;
//  - idle_slot (tseng-c64, 001 Table 2): the stage slot, 0..dims.size(), in which this torus idles while
//    the other groups run theirs (its step marks pass, its barriers are taken; no message);
//  - slot_steps (tseng-t4 on a non-square torus, 001 §5, else 0): the logical tori run rings of
//    different lengths in the same stage slot (an X-stage beside a Y-stage), so the schedule's steps are
//    global: step k of a slot is phase k of every torus's ring, and a slot has as many steps as the
//    longer ring has phases (the torus on the shorter ring idles through the rest: its step marks pass,
//    no message). The step marks say which global step each phase belongs to, so the machine's counts
//    are the schedule's (per step the largest message of either ring). Under sync=barrier every global
//    step after the first is preceded by a barrier: 001 §7.1's self-synchronised phases are a property
//    of one ring and do not order the phases of another torus's ring, and the tori meet between slots.
struct StageSlots {
  int stage_barriers = 0;
  int idle_slot = -1;
  int slot_steps = 0;
};

template <class UnitsFor>
std::vector<Unit> logical_torus_exchange(NodeApi& api, const std::vector<int>& dims, int dilation, int first_step,
                                         int k, std::uint32_t unit_bytes, UnitsFor&& units, TsengScratch& scratch,
                                         const StageSlots& slots = {}) {
  const Topology& topology = api.topology();
  const int D = static_cast<int>(dims.size());
  std::vector<int> L(D);  // logical ring length of each stage
  for (int i = 0; i < D; ++i) L[i] = topology.dimension(dims[i]).size / dilation;
  const std::vector<int> mine = topology.coordinates(api.id());
  std::vector<int> me(D);
  for (int i = 0; i < D; ++i) me[i] = mine[dims[i]] / dilation;
  auto node_at = [&](const std::vector<int>& position) {
    std::vector<int> c = mine;
    for (int i = 0; i < D; ++i) c[dims[i]] = position[i] * dilation + mine[dims[i]] % dilation;
    return topology.node_at(c);
  };
  // The number of logical positions over stages [from, to).
  auto positions = [&](int from, int to) {
    int p = 1;
    for (int i = from; i < to; ++i) p *= L[i];
    return p;
  };
  // Writes `index` as mixed-radix digits into position[from..to-1], the first most significant.
  auto digits = [&](std::vector<int>& position, int from, int to, int index) {
    for (int i = to - 1; i >= from; --i) {
      position[i] = index % L[i];
      index /= L[i];
    }
  };

  // Stage 0's items: for destination (t, rest), this node's k units.
  HeldItems held;
  for (int t = 0; t < L[0]; ++t) {
    ItemBlocks& blocks = held[{me[0], t}];
    std::vector<int> dst = me;
    dst[0] = t;
    for (int rest = 0; rest < positions(1, D); ++rest) {
      digits(dst, 1, D, rest);
      for (const Unit& u : units(node_at(dst))) blocks.push_back(u.address);
    }
  }
  const bool barrier = api.options().text("sync") == "barrier";
  const int slot_count = D + (slots.idle_slot >= 0 ? 1 : 0);
  int step = first_step;
  for (int slot = 0, i = 0; slot < slot_count; ++slot) {
    const bool idle = slot == slots.idle_slot;
    const RingExchangePlan& plan = ring_exchange_plan(L[idle ? 0 : i]);
    const bool aligned = slots.slot_steps > 0;
    const int slot_steps = aligned ? slots.slot_steps : static_cast<int>(plan.phases.size());
    if (idle) {
      for (std::size_t p = 0; p < plan.phases.size(); ++p) {
        api.begin_step(step + static_cast<int>(p));
        if (barrier && barrier_before(plan, p)) api.hardware_barrier();
      }
    } else {
      const auto item_units = static_cast<std::uint32_t>(positions(0, D) / L[i] * k);
      // A stage boundary under sync=barrier: 001 §7.1's barriers sit between the phases of one ring; the
      // last phase of one stage and the first of the next are self-synchronised only between rings of
      // 2^d >= 16 nodes (the nodes idle in a split last phase start the next stage early otherwise).
      // Tori that meet between stages (stage_barriers) have met already.
      const bool boundary = i > 0 && slots.stage_barriers == 0 &&
                            (aligned || !(self_synchronised(ring_exchange_plan(L[i - 1])) && self_synchronised(plan)));
      held = run_ring_stage(api, {dims[i], dilation, step, item_units, unit_bytes, boundary, aligned}, std::move(held),
                            scratch);
      // The global steps of the slot this torus idles through while a longer ring runs (slot_steps).
      for (int p = static_cast<int>(plan.phases.size()); p < slot_steps; ++p) {
        api.begin_step(step + p);
        if (barrier) api.hardware_barrier();
      }
    }
    step += slot_steps;
    if (slots.stage_barriers > 0) {  // (every node takes the same number of barriers)
      for (int b = barriers_of(plan); b < slots.stage_barriers; ++b) api.hardware_barrier();
      if (slot < slot_count - 1) api.hardware_barrier();
    }
    if (idle || i++ == D - 1) continue;
    // Stage i's item (me, t) (i now the next stage): by destination along dims[i+1..], then source along
    // dims[0..i-1], then unit, taken from the previous stage's item of the source's position along dims[i-1].
    HeldItems next;
    const int rest_count = positions(i + 1, D), prefix_count = positions(0, i - 1);
    for (int t = 0; t < L[i]; ++t) {
      ItemBlocks& blocks = next[{me[i], t}];
      for (int rest = 0; rest < rest_count; ++rest)
        for (int prefix = 0; prefix < prefix_count; ++prefix)
          for (int s = 0; s < L[i - 1]; ++s) {
            const ItemBlocks& from = held.at({s, me[i - 1]});
            const int index = ((t * rest_count + rest) * prefix_count + prefix) * k;
            for (int u = 0; u < k; ++u) blocks.push_back(from[static_cast<std::size_t>(index + u)]);
          }
    }
    held = std::move(next);
  }
  // The last stage's item (s, me): by source along dims[0..D-2], then unit; s is the source along dims[D-1].
  std::vector<Unit> arrived;
  for (int s = 0; s < L[D - 1]; ++s) {
    const ItemBlocks& blocks = held.at({s, me[D - 1]});
    std::vector<int> source(D);
    source[D - 1] = s;
    for (int prefix = 0; prefix < positions(0, D - 1); ++prefix) {
      digits(source, 0, D - 1, prefix);
      const std::vector<int> whose = units.sources_at(node_at(source));
      for (int u = 0; u < k; ++u)
        arrived.push_back({blocks[static_cast<std::size_t>(prefix * k + u)], whose[static_cast<std::size_t>(u)]});
    }
  }
  return arrived;
}

// tseng-ring (001 §2), tseng-t1 (§3.1) and tseng-c1 (§4): the ring exchange along x (then y, then z)
// on every ring of the torus; an item is the blocks one node forwards for another along that ring (N / n_i of them).
// Non-square tori by the dimension-by-dimension construction of §5: each stage has its ring's length.
struct OwnBlocks {
  const ExchangeLayout& layout;
  int me;
  std::vector<Unit> operator()(int dst) const { return {{layout.send_block(dst), me}}; }
  std::vector<int> sources_at(int node) const { return {node}; }
};

// Blocks of the scratch a dimension-by-dimension exchange over every dimension of `topology` needs: the
// largest message it gathers, and every message it receives.
struct StageScratch {
  std::uint64_t packed = 0, received = 0;
};
StageScratch ring_stages_scratch(const Topology& topology) {
  StageScratch scratch;
  for (int dim = 0; dim < topology.num_dimensions(); ++dim) {
    const RingExchangePlan& plan = ring_exchange_plan(topology.dimension(dim).size);
    const std::uint64_t item = static_cast<std::uint64_t>(topology.num_nodes()) / topology.dimension(dim).size;
    scratch.packed = std::max(scratch.packed, largest_message_items(plan) * item);
    scratch.received += most_received_items(plan) * item;
  }
  return scratch;
}

void tseng_dimension_by_dimension(NodeApi& api) {
  const ExchangeLayout& l = api.layout();
  const Topology& topology = api.topology();
  const StageScratch need = ring_stages_scratch(topology);
  TsengScratch scratch{l.scratch_base(), l.scratch_base() + static_cast<std::uint32_t>(need.packed) * l.block_bytes};
  std::vector<int> dims(static_cast<std::size_t>(topology.num_dimensions()));
  for (int dim = 0; dim < topology.num_dimensions(); ++dim) dims[static_cast<std::size_t>(dim)] = dim;
  for (const Unit& u : logical_torus_exchange(api, dims, 1, 1, 1, l.block_bytes, OwnBlocks{l, api.id()}, scratch))
    api.local_copy(l.receive_block(u.source), u.address, l.block_bytes);
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
  // Index of node `dst` among the nodes of its parity class `keep`, in node order.
  template <class Keep>
  std::uint32_t rank(int dst, Keep keep) const {
    std::uint32_t r = 0;
    for (int v = 0; v < dst; ++v) r += keep(v) ? 1 : 0;
    return r;
  }
  std::vector<Unit> operator()(int dst) const {
    const std::uint32_t m = layout.block_bytes;
    const int x = topology.coordinate(me, 0) % 2;
    auto same_x = [&](int v) { return topology.coordinate(v, 0) % 2 == x; };
    auto same_torus = [&](int v) { return same_x(v) && topology.coordinate(v, 1) % 2 == topology.coordinate(me, 1) % 2; };
    const std::uint32_t q = rank(dst, same_torus);
    const std::uint32_t quarter = static_cast<std::uint32_t>(topology.num_nodes() / 4);
    const std::vector<int> from = sources_at(me);
    return {{layout.send_block(dst), from[0]},
            {pre1 + rank(dst, same_x) * m, from[1]},
            {pre2 + q * m, from[2]},
            {pre2 + (quarter + q) * m, from[3]}};
  }
  std::vector<int> sources_at(int node) const {
    const int nx = topology.dimension(0).size, ny = topology.dimension(1).size;
    const int x = topology.coordinate(node, 0), y = topology.coordinate(node, 1);
    auto at = [&](int cx, int cy) { return topology.node_at({(cx + nx) % nx, (cy + ny) % ny}); };
    return {node, at(x - 1, y), at(x, y - 1), at(x - 1, y - 1)};
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
  for (std::size_t k = 0; k < addresses.size(); ++k)
    api.local_copy(packed + static_cast<std::uint32_t>(k) * m, addresses[k], m);
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
  const auto packed_blocks = static_cast<std::uint32_t>(sizes.packed);
  const std::uint32_t pre1 = l.scratch_base() + packed_blocks * m;
  const std::uint32_t pre2 = pre1 + half * m;
  TsengScratch scratch{l.scratch_base(), pre2 + half * m};
  const bool barrier = api.options().text("sync") == "barrier";

  // Pre1: the blocks for the other x parity, to (x+1, y).
  std::vector<std::uint32_t> out;
  for (int dst = 0; dst < topology.num_nodes(); ++dst)
    if (topology.coordinate(dst, 0) % 2 != x % 2) out.push_back(l.send_block(dst));
  preparation_phase(api, 1, out, at(x + 1, y), topology.port_of(0, +1), at(x - 1, y), pre1, scratch.packed);
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
  preparation_phase(api, 2, out, at(x, y + 1), topology.port_of(1, +1), at(x, y - 1), pre2, scratch.packed);
  if (barrier) api.hardware_barrier();

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
  for (const Unit& u : logical_torus_exchange(api, dims, 2, 3, 4, m, units, scratch, slots))
    api.local_copy(l.receive_block(u.source), u.address, m);
}

// tseng-c64 (001 §4): the nine preparation phases (firmware/c64_preparation.*), then C1 on the 64
// logical (n/4)^3 tori C_ijk = {(x, y, z): x mod 4 = i, y mod 4 = j, z mod 4 = k} of dilation 4 at once,
// the tori of group G_s (s = (i + j + k) mod 4) running in stage slot q the axis (s - q) mod 4 of
// Table 2 (3: idle). A unit is the 64 blocks a node holds for one node of its logical torus.
std::optional<std::string> supports_c64(const Topology& topology, const ExchangeParameters&) {
  if (auto error = supports_torus(topology, 3, "tseng-c64")) return error;
  const int n = topology.dimension(0).size;
  if (topology.dimension(1).size != n || topology.dimension(2).size != n || n % 4 != 0 || n < 32)
    return ConfigError("topology", topology.spec(), "tseng-c64 needs an n x n x n torus, n a multiple of 4 and "
                       ">= 32 (001 §4: 64 cubic logical tori of side n/4, whose rings need 8 or more nodes; "
                       "Theorem 3: d >= 5)").what();
  return std::nullopt;
}

// C64's node memory beyond the send and receive buffers: the units, then a work area for the
// preparation's messages, reused by the ring stages' once the units are filled.
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
  int me;
  std::uint32_t units, unit_bytes;
  std::vector<Unit> operator()(int dst) const {
    return {{units + static_cast<std::uint32_t>(logical_index(topology, dst)) * unit_bytes, me}};
  }
  std::vector<int> sources_at(int node) const { return {node}; }
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
  c64_preparation(api, memory, 1, barrier);

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
  TsengScratch scratch{memory.work, memory.work + static_cast<std::uint32_t>(sizes.packed) * m};
  const std::vector<Unit> arrived =
      logical_torus_exchange(api, dims, 4, 10, 1, 64 * m, C64Units{topology, api.id(), memory.units, 64 * m}, scratch, slots);

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

// Lemma 7 / §4 for any sides: each dimension's stage costs T_1D(d_i, (N / n_i) m).
double dimension_by_dimension_estimate(const Topology& topology, const ExchangeParameters& p) {
  double cycles = 0;
  for (int dim = 0; dim < topology.num_dimensions(); ++dim) {
    const int n = topology.dimension(dim).size;
    cycles += ring_theorem1_cycles(log2_of(n), static_cast<double>(topology.num_nodes()) / n * p.block_bytes, p);
  }
  return cycles;
}

std::uint64_t dimension_by_dimension_scratch(const Topology& topology, const ExchangeParameters& parameters,
                                             const AlgorithmOptions&) {
  const std::uint32_t block_bytes = parameters.block_bytes;
  for (int dim = 0; dim < topology.num_dimensions(); ++dim)
    if (topology.dimension(dim).kind != DimensionKind::Ring || unsupported_ring(topology, dim, "")) return 0;
  const StageScratch need = ring_stages_scratch(topology);
  return (need.packed + need.received) * block_bytes;
}

}  // namespace

std::vector<Algorithm> tseng_exchange_algorithms() {
  const AlgorithmOption sync{"sync", AlgorithmOption::Type::Choice, "none",
                             "none; barrier: hardware barrier between phases (001 §7.1: 2d - 5 per ring stage on rings of 2^d >= 16 "
                             "nodes, before every phase on the others); signals: null messages "
                             "between the nodes whose consecutive phases share a link (001 §7.2)",
                             {"none", "barrier", "signals"}};
  Algorithm ring;
  ring.name = "tseng-ring";
  ring.summary = "positive and negative gather-scatter trees on a ring of 8..128 nodes, one-port overlapped";
  ring.source = "001 §2.1-2.4 (Theorem 1), §7 (sync)";
  ring.supports = supports_ring;
  ring.firmware = tseng_dimension_by_dimension;  // one dimension: items are single blocks
  ring.estimate_cycles = dimension_by_dimension_estimate;
  ring.estimate_formula = "001 Theorem 1: (2d-2) t_s + (Lemma 6 blocks + 3 if d = 3, + 2 if d >= 4) m t_c, "
                          "d = ceil(lg n) (for n not a power of two the bound 001 §5 conjectures)";
  ring.options = {sync};
  ring.scratch_bytes = dimension_by_dimension_scratch;

  Algorithm t1;
  t1.name = "tseng-t1";
  t1.summary = "the ring exchange along x, then along y, with a row's blocks per item (2-D torus, sides >= 8)";
  t1.source = "001 §3.1 (Lemma 7), §5 (non-square), §7 (sync)";
  t1.supports = [](const Topology& topology, const ExchangeParameters&) { return supports_torus(topology, 2, "tseng-t1"); };
  t1.firmware = tseng_dimension_by_dimension;
  t1.estimate_cycles = dimension_by_dimension_estimate;
  t1.estimate_formula = "001 Lemma 7: sum over the dimensions of T_1D(d_i, N/n_i m) by Theorem 1 (2 T_1D(d, n m) on n x n)";
  t1.options = {sync};
  t1.scratch_bytes = dimension_by_dimension_scratch;

  Algorithm t4;
  t4.name = "tseng-t4";
  t4.summary = "two preparation phases, then T1 on four logical (n/2)x(n/2) tori of dilation 2 at once";
  t4.source = "001 §3.2 (Table 1, Theorem 2), §7 (sync)";
  t4.supports = supports_t4;
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
    if (supports_t4(topology, {})) return 0;  // not a torus it supports
    const T4Sizes sizes(topology);
    return (sizes.packed + 2 * sizes.half + 2 * sizes.received) * block_bytes;
  };

  Algorithm c1;
  c1.name = "tseng-c1";
  c1.summary = "the ring exchange along x, then y, then z, with a plane's blocks per item (3-D torus, sides >= 8)";
  c1.source = "001 §4 (C1), §5 (non-cubic), §7 (sync)";
  c1.supports = [](const Topology& topology, const ExchangeParameters&) { return supports_torus(topology, 3, "tseng-c1"); };
  c1.firmware = tseng_dimension_by_dimension;
  c1.estimate_cycles = dimension_by_dimension_estimate;
  c1.estimate_formula = "001 §4: sum over the dimensions of T_1D(d_i, N/n_i m) by Theorem 1 (3 T_1D(d, n^2 m) on n^3)";
  c1.options = {sync};
  c1.scratch_bytes = dimension_by_dimension_scratch;

  Algorithm c64;
  c64.name = "tseng-c64";
  c64.summary = "nine preparation phases, then C1 on 64 logical (n/4)^3 tori of dilation 4, four groups in turn";
  c64.source = "001 §4 (Table 2, Theorem 3), §7 (sync)";
  c64.supports = supports_c64;
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
    if (supports_c64(topology, {})) return 0;  // not a torus it supports
    const C64Sizes sizes(topology);
    return (sizes.units + sizes.work) * parameters.block_bytes;
  };
  // A neighbour each way per axis, and per ring phase at most a receiver, a sender and a signal partner.
  c64.peers_per_node = [](const Topology& topology) -> std::uint64_t {
    return 6 + 9 * ring_exchange_plan(std::max(8, topology.dimension(0).size / 4)).phases.size();
  };
  return {ring, t1, t4, c1, c64};
}

}  // namespace meshmp
