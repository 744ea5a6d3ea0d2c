// The gather-scatter ring stages of 001 (Tseng, Ni, Sheu), shared by the tseng-* exchanges: the ring
// exchange of §2 run by every node of every logical ring along one dimension (run_ring_stage), and T1 /
// C1 on a logical torus, one ring stage per dimension (logical_torus_exchange, §3.1 and §4), with the
// sync option of §7. The algorithms: dimension_by_dimension.cpp (tseng-ring, tseng-t1, tseng-c1),
// t4.cpp, c64.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "firmware/api/algorithm_options.h"
#include "firmware/api/exchange_parameters.h"
#include "firmware/api/node_api.h"
#include "firmware/api/scratch_arena.h"
#include "firmware/paper001/ring_exchange_plan.h"
#include "topology/topology.h"

namespace meshmp {
namespace tseng {

// The sync option every tseng-* algorithm takes (001 §7).
AlgorithmOption sync_option();

// Empty when dimension `dim` is a ring the gather-scatter trees are built for (8 <= n <= 128: 001 §2
// analyses d >= 3; a logical link of phase l is a worm of up to 2^l hops, and source routes hold 32);
// otherwise why not.
std::optional<std::string> unsupported_ring(const Topology& topology, int dim, const std::string& algorithm);
// tseng-t1 (2 dimensions) and tseng-c1 (3): a torus whose every dimension is a ring it supports.
std::optional<std::string> why_unsupported_torus(const Topology& topology, int dimensions, const std::string& algorithm);

int log2_of(int n);
// 001 Theorem 1 (d >= 3) with 000 §2's step cost, for items of `item_bytes`: (2d - 2) t_s + the blocks of
// Lemmas 2-6 plus the §2.4 overlap's extra blocks, times item_bytes t_c.
double ring_theorem1_cycles(int d, double item_bytes, const ExchangeParameters& p);

// 001 §7.1's self-synchronised phases and the barriers sync=barrier takes (ring_stages.cpp says why).
bool self_synchronised(const RingExchangePlan& plan);
bool barrier_before(const RingExchangePlan& plan, std::size_t phase);
int barriers_of(const RingExchangePlan& plan);
// The largest message, and the most a node receives, in items, over the plan's phases.
std::uint64_t largest_message_items(const RingExchangePlan& plan);
std::uint64_t most_received_items(const RingExchangePlan& plan);

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

// A node's scratch during its ring stages: each received message and each gathered one takes its bytes
// from the arena; a gathered message gives them back once sent, a received one once every unit it
// brought has been sent on, in this stage or a later one (a node's own units for itself stay until
// the exchange ends). So a message reuses the bytes of those forwarded before it.
class RingScratch {
 public:
  explicit RingScratch(const ScratchArena& arena) : arena_(arena) {}
  std::uint32_t take(std::uint32_t bytes) { return arena_.take(bytes); }
  void give_back(std::uint32_t address, std::uint32_t bytes) { arena_.give_back(address, bytes); }
  // Where a received message of `bytes` goes; held until all of it has been sent on.
  std::uint32_t take_arrival(std::uint32_t bytes);
  // The units at [address, address + bytes) have been sent on (bytes outside the received messages,
  // such as the send buffer's, are the caller's).
  void sent_on(std::uint32_t address, std::uint32_t bytes);

 private:
  struct Arrival {
    std::uint32_t address, bytes, held;
  };
  ScratchArena arena_;
  std::vector<Arrival> arrivals_;  // by address
};

// Runs `stage` on this node's ring: sends and receives the plan's items, returns what it holds at the
// end (its own item and every item for it).
HeldItems run_ring_stage(NodeApi& api, const RingStage& stage, HeldItems held, RingScratch& scratch);

// A block this node forwards: where it lies, and the node it came from.
struct Unit {
  std::uint32_t address;
  int source;
};

// Algorithm T1 (001 §3.1) or C1 (§4) on the logical torus this node belongs to (every `dilation`-th node
// along each of `dims`, starting at its own offset; L nodes per ring): one ring stage per dimension, in
// the order of `dims`. `units.append(dst, blocks)` appends the addresses of the k units this node holds
// for node `dst` of its logical torus (the same k for every dst); `units.source(node, u)` says whose unit
// u is at `node`.
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

// Every arrived block (one block per unit) to its place in the receive buffer, one local operation per
// block (firmware/api/local_copy_batch.h).
void place_blocks(NodeApi& api, const std::vector<Unit>& arrived, std::uint32_t block_bytes);

template <class UnitsFor>
std::vector<Unit> logical_torus_exchange(NodeApi& api, const std::vector<int>& dims, int dilation, int first_step,
                                         int k, std::uint32_t unit_bytes, UnitsFor&& units, RingScratch& scratch,
                                         const StageSlots& slots = {}) {
  const Topology& topology = api.topology();
  const int D = static_cast<int>(dims.size());
  std::vector<int> L(D);  // logical ring length of each stage
  for (int i = 0; i < D; ++i) L[i] = topology.dimension(dims[i]).size / dilation;
  const std::vector<int> mine = topology.coordinates(api.id());
  std::vector<int> me(D);
  for (int i = 0; i < D; ++i) me[i] = mine[dims[i]] / dilation;
  std::vector<int> coordinates = mine;  // node_at's buffer: the other dimensions stay this node's
  auto node_at = [&](const std::vector<int>& position) {
    for (int i = 0; i < D; ++i) coordinates[dims[i]] = position[i] * dilation + mine[dims[i]] % dilation;
    return topology.node_at(coordinates);
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
    blocks.reserve(static_cast<std::size_t>(positions(1, D)) * static_cast<std::size_t>(k));
    std::vector<int> dst = me;
    dst[0] = t;
    for (int rest = 0; rest < positions(1, D); ++rest) {
      digits(dst, 1, D, rest);
      units.append(node_at(dst), blocks);
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
      blocks.reserve(static_cast<std::size_t>(rest_count) * static_cast<std::size_t>(prefix_count) *
                     static_cast<std::size_t>(L[i - 1]) * static_cast<std::size_t>(k));
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
  arrived.reserve(static_cast<std::size_t>(positions(0, D)) * static_cast<std::size_t>(k));
  for (int s = 0; s < L[D - 1]; ++s) {
    const ItemBlocks& blocks = held.at({s, me[D - 1]});
    std::vector<int> source(D);
    source[D - 1] = s;
    for (int prefix = 0; prefix < positions(0, D - 1); ++prefix) {
      digits(source, 0, D - 1, prefix);
      const int holder = node_at(source);
      for (int u = 0; u < k; ++u)
        arrived.push_back({blocks[static_cast<std::size_t>(prefix * k + u)], units.source(holder, u)});
    }
  }
  return arrived;
}

}  // namespace tseng
}  // namespace meshmp
