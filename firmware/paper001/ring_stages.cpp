// The gather-scatter ring stages of 001. See ring_stages.h.
#include "firmware/paper001/ring_stages.h"

#include <algorithm>
#include <cmath>

#include "firmware/api/local_copy_batch.h"
#include "topology/config_error.h"

namespace meshmp {
namespace tseng {
namespace {

constexpr std::uint32_t kSignalTagBase = 1u << 20;

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

const RingMessage* find_message(const RingPhase& phase, bool outgoing, int node) {
  for (const RingMessage& m : phase.messages)
    if ((outgoing ? m.from : m.to) == node) return &m;
  return nullptr;
}

// Appends a piece to a gather, as one more piece of the last strided copy when it continues that copy's
// pattern (same length, the same strides): the same bytes in the same order, a few KiB held per node
// while its gather runs instead of a LocalCopy per run of units.
void add_piece(std::vector<LocalCopy>& gather, std::uint32_t to, std::uint32_t from, std::uint32_t length) {
  if (!gather.empty()) {
    LocalCopy& last = gather.back();
    if (last.length == length && to == last.to + last.count * length && from > last.from &&
        (last.count == 1 || from == last.from + last.count * last.from_stride)) {
      if (last.count == 1) {
        last.to_stride = length;
        last.from_stride = from - last.from;
      }
      ++last.count;
      return;
    }
  }
  gather.push_back({to, from, length});
}

// Calls f(k, bytes) for each run of consecutive units in `units` (each `unit_bytes` long), starting at
// index k.
template <class F>
void for_each_run(const std::vector<std::uint32_t>& units, std::uint32_t unit_bytes, F&& f) {
  for (std::size_t k = 0; k < units.size();) {
    std::size_t run = 1;
    while (k + run < units.size() && units[k + run] == units[k] + static_cast<std::uint32_t>(run) * unit_bytes) ++run;
    f(k, static_cast<std::uint32_t>(run) * unit_bytes);
    k += run;
  }
}

}  // namespace

AlgorithmOption sync_option() {
  return {"sync", AlgorithmOption::Type::Choice, "none",
                             "none; barrier: hardware barrier between phases (001 §7.1: 2d - 5 per ring stage on rings of 2^d >= 16 "
                             "nodes, before every phase on the others); signals: null messages "
                             "between the nodes whose consecutive phases share a link (001 §7.2)",
                             {"none", "barrier", "signals"}};
}

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

// tseng-t1 (2 dimensions) and tseng-c1 (3): a torus whose every dimension is a ring it supports.
std::optional<std::string> why_unsupported_torus(const Topology& topology, int dimensions, const std::string& algorithm) {
  bool rings = topology.num_dimensions() == dimensions;
  for (int dim = 0; rings && dim < dimensions; ++dim) rings = topology.dimension(dim).kind == DimensionKind::Ring;
  if (!rings)
    return ConfigError("topology", topology.spec(), algorithm + " runs on a " + std::to_string(dimensions) +
                       "-D torus (001 §" + (dimensions == 2 ? "3" : "4") + "; non-square sides by §5)").what();
  for (int dim = 0; dim < dimensions; ++dim)
    if (auto error = unsupported_ring(topology, dim, algorithm)) return error;
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

std::uint32_t RingScratch::take_arrival(std::uint32_t bytes) {
  const std::uint32_t address = arena_.take(bytes);
  const auto at = std::lower_bound(arrivals_.begin(), arrivals_.end(), address,
                                   [](const Arrival& a, std::uint32_t x) { return a.address < x; });
  arrivals_.insert(at, {address, bytes, bytes});
  return address;
}

void RingScratch::sent_on(std::uint32_t address, std::uint32_t bytes) {
  const std::uint32_t end = address + bytes;
  // The first received message ending after `address`, then each one the range overlaps.
  auto it = std::upper_bound(arrivals_.begin(), arrivals_.end(), address,
                             [](std::uint32_t x, const Arrival& a) { return x < a.address + a.bytes; });
  while (it != arrivals_.end() && it->address < end) {
    it->held -= std::min(end, it->address + it->bytes) - std::max(address, it->address);
    if (it->held == 0) {
      arena_.give_back(it->address, it->bytes);
      it = arrivals_.erase(it);
    } else {
      ++it;
    }
  }
}

// Runs `stage` on this node's ring: sends and receives the plan's items, returns what it holds at the
// end (its own item and every item for it).
HeldItems run_ring_stage(NodeApi& api, const RingStage& stage, HeldItems held, RingScratch& scratch) {
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
    std::uint32_t arrival = 0;
    if (in) {
      const auto bytes = static_cast<std::uint32_t>(in->blocks.size()) * item_bytes;
      arrival = scratch.take_arrival(bytes);
      receive = api.receive(node_at(in->from), arrival, bytes, tag);
    }
    std::uint32_t packed = 0, packed_bytes = 0;
    std::vector<std::uint32_t> blocks;  // the units of the message sent
    if (out) {
      // The message's units in order: sent in place when they already lie so, else gathered (one local
      // operation, a piece per run of consecutive units, at rho per byte).
      blocks.reserve(out->blocks.size() * stage.item_blocks);
      for (const RingBlock& item : out->blocks) {
        const ItemBlocks& units = held.at(item);
        blocks.insert(blocks.end(), units.begin(), units.end());
      }
      std::uint32_t from = blocks.front();
      bool in_order = true;
      for (std::size_t k = 0; k < blocks.size(); ++k)
        in_order = in_order && blocks[k] == from + static_cast<std::uint32_t>(k) * m;
      if (!in_order) {
        packed_bytes = static_cast<std::uint32_t>(blocks.size()) * m;
        packed = scratch.take(packed_bytes);
        std::vector<LocalCopy> gather;
        for_each_run(blocks, m, [&](std::size_t k, std::uint32_t length) {
          add_piece(gather, packed + static_cast<std::uint32_t>(k) * m, blocks[k], length);
        });
        api.local_copies(gather);
        from = packed;
      }
      const std::vector<int> route(static_cast<std::size_t>(out->hops * stage.dilation), out->direction > 0 ? plus : minus);
      send = api.send(node_at(out->to), from, static_cast<std::uint32_t>(blocks.size()) * m, tag, route);
    }
    if (send >= 0) {
      api.wait(send);
      if (packed_bytes > 0) scratch.give_back(packed, packed_bytes);
      for_each_run(blocks, m, [&](std::size_t k, std::uint32_t length) { scratch.sent_on(blocks[k], length); });
      for (const RingBlock& item : out->blocks) held.erase(item);
    }
    if (receive >= 0) {
      api.wait(receive);
      for (std::size_t k = 0; k < in->blocks.size(); ++k) {
        ItemBlocks& units = held[in->blocks[k]];
        units.reserve(stage.item_blocks);
        for (std::uint32_t b = 0; b < stage.item_blocks; ++b)
          units.push_back(arrival + static_cast<std::uint32_t>(k) * item_bytes + b * m);
      }
    }
    if (sync == "signals" && in && p + 1 < plan.phases.size())
      for (const RingMessage& later : plan.phases[p + 1].messages)
        if (needs_signal(*in, later, n)) api.signal(node_at(later.from), kSignalTagBase + tag + 1);
  }
  return held;
}

void place_blocks(NodeApi& api, const std::vector<Unit>& arrived, std::uint32_t block_bytes) {
  LocalCopyBatch place(api);
  for (const Unit& u : arrived) place.add(api.layout().receive_block(u.source), u.address, block_bytes);
  place.flush();
}

}  // namespace tseng
}  // namespace meshmp
