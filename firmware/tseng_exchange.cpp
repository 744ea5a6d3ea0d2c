// Complete exchange on wormhole-routed tori by gather-scatter trees (Tseng, Ni, Sheu; 001):
//  - tseng-ring: a ring of 2^d nodes, d >= 3 (§2): the 2d - 2 combined phases of the positive and the
//    negative gather-scatter trees, overlapped under the one-port model (§2.4). The schedule (which blocks
//    each node sends to whom in each phase) is firmware/ring_exchange_plan.*; this file runs it on the
//    node: every message is one worm along the dilated logical link (a source route of 2^l hops in the
//    tree's direction), the blocks it carries packed in plan order (local copies at rho per byte, skipped
//    when they already lie in order), received into fresh scratch, and at the end every block is copied to
//    its place in the receive buffer.
// Option sync (§7): none; barrier (the hardware barrier before every phase that is not self-synchronised,
// 2d - 5 of them, §7.1); signals (§7.2 local synchronisation by null messages: before a node sends in a
// phase, it waits for a signal from the receiver of every message of the previous phase that shares a
// physical link with its own and comes from another node; the receiver signals once that message is in
// its memory).
#include <algorithm>
#include <cmath>
#include <map>

#include "firmware/algorithm_registry.h"
#include "firmware/ring_exchange_plan.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

constexpr std::uint32_t kSignalTagBase = 1u << 20;

bool is_power_of_two_ring(const Topology& topology) {
  if (topology.num_dimensions() != 1 || topology.dimension(0).kind != DimensionKind::Ring) return false;
  const int n = topology.dimension(0).size;
  return n >= 8 && (n & (n - 1)) == 0;
}

std::optional<std::string> supports_ring(const Topology& topology, const ExchangeParameters&) {
  if (topology.num_dimensions() != 1 || topology.dimension(0).kind != DimensionKind::Ring)
    return ConfigError("topology", topology.spec(), "tseng-ring runs on a ring (ring:N)").what();
  if (!is_power_of_two_ring(topology))
    return ConfigError("topology", topology.spec(),
                       "tseng-ring needs a ring of 2^d nodes, d >= 3 (001 §2 builds its gather-scatter trees "
                       "on 2^d nodes and analyses d >= 3; the §5 trees for other lengths are not built yet)")
        .what();
  // A logical link of phase l is a worm of 2^l hops; source routes hold at most 32.
  if (topology.dimension(0).size / 4 > 32)
    return ConfigError("topology", topology.spec(), "tseng-ring supports rings of at most 128 nodes "
                       "(its longest logical link, n/4 hops, must fit a 32-hop source route)").what();
  return std::nullopt;
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

// Phases not preceded by a barrier under sync=barrier: the first, and the self-synchronised
// GP_{d-2} -> SP_{d-2} and SP_1 -> SP_0 (001 §7.1).
bool barrier_before(const RingExchangePlan& plan, std::size_t phase) {
  if (phase == 0) return false;
  const std::size_t d_minus_2 = plan.phases.size() / 2 - 1;
  return phase != d_minus_2 + 1 && phase != plan.phases.size() - 1;
}

const RingMessage* find_message(const RingPhase& phase, bool outgoing, int node) {
  for (const RingMessage& m : phase.messages)
    if ((outgoing ? m.from : m.to) == node) return &m;
  return nullptr;
}

struct RingScratch {
  std::uint32_t packed;    // outgoing message, when its blocks must be gathered
  std::uint32_t received;  // incoming messages, one after the other
};

std::uint64_t largest_message_blocks(const RingExchangePlan& plan) {
  std::uint64_t largest = 0;
  for (const RingPhase& p : plan.phases)
    for (const RingMessage& m : p.messages) largest = std::max<std::uint64_t>(largest, m.blocks.size());
  return largest;
}

std::uint64_t most_received_blocks(const RingExchangePlan& plan) {
  std::vector<std::uint64_t> received(plan.nodes, 0);
  for (const RingPhase& p : plan.phases)
    for (const RingMessage& m : p.messages) received[m.to] += m.blocks.size();
  return *std::max_element(received.begin(), received.end());
}

void tseng_ring(NodeApi& api) {
  const ExchangeLayout& l = api.layout();
  const int n = api.num_nodes();
  const int me = api.coordinate(0);
  const std::uint32_t m = l.block_bytes;
  const RingExchangePlan& plan = ring_exchange_plan(n);
  const std::string& sync = api.options().text("sync");
  const RingScratch scratch{l.scratch_base(),
                            l.scratch_base() + static_cast<std::uint32_t>(largest_message_blocks(plan)) * m};
  const int plus = api.topology().port_of(0, +1);
  const int minus = api.topology().port_of(0, -1);

  // Where each block this node holds lies in its memory.
  std::map<RingBlock, std::uint32_t> held;
  for (int t = 0; t < n; ++t)
    if (t != me) held[{me, t}] = l.send_block(t);
  std::uint32_t next_free = scratch.received;

  for (std::size_t p = 0; p < plan.phases.size(); ++p) {
    const RingPhase& phase = plan.phases[p];
    const auto tag = static_cast<std::uint32_t>(p + 1);
    api.begin_step(static_cast<int>(p + 1));
    if (sync == "barrier" && barrier_before(plan, p)) api.hardware_barrier();
    const RingMessage* out = find_message(phase, true, me);
    const RingMessage* in = find_message(phase, false, me);
    if (sync == "signals" && out && p > 0)
      for (const RingMessage& earlier : plan.phases[p - 1].messages)
        if (needs_signal(earlier, *out, n)) api.wait_signal(earlier.to, kSignalTagBase + tag);

    Handle receive = -1, send = -1;
    std::uint32_t arrival = next_free;
    if (in) {
      receive = api.receive(in->from, arrival, static_cast<std::uint32_t>(in->blocks.size()) * m, tag);
      next_free += static_cast<std::uint32_t>(in->blocks.size()) * m;
    }
    if (out) {
      // Send in place when the blocks already lie in plan order, else gather them (runs copied whole).
      std::uint32_t from = held.at(out->blocks.front());
      bool in_order = true;
      for (std::size_t k = 0; k < out->blocks.size(); ++k)
        in_order = in_order && held.at(out->blocks[k]) == from + static_cast<std::uint32_t>(k) * m;
      if (!in_order) {
        std::size_t k = 0;
        while (k < out->blocks.size()) {
          std::size_t run = 1;
          while (k + run < out->blocks.size() &&
                 held.at(out->blocks[k + run]) == held.at(out->blocks[k]) + static_cast<std::uint32_t>(run) * m)
            ++run;
          api.local_copy(scratch.packed + static_cast<std::uint32_t>(k) * m, held.at(out->blocks[k]),
                         static_cast<std::uint32_t>(run) * m);
          k += run;
        }
        from = scratch.packed;
      }
      const std::vector<int> route(out->hops, out->direction > 0 ? plus : minus);
      send = api.send(out->to, from, static_cast<std::uint32_t>(out->blocks.size()) * m, tag, route);
    }
    if (send >= 0) api.wait(send);
    if (out)
      for (const RingBlock& b : out->blocks) held.erase(b);
    if (receive >= 0) {
      api.wait(receive);
      for (std::size_t k = 0; k < in->blocks.size(); ++k)
        held[in->blocks[k]] = arrival + static_cast<std::uint32_t>(k) * m;
    }
    if (sync == "signals" && in && p + 1 < plan.phases.size())
      for (const RingMessage& later : plan.phases[p + 1].messages)
        if (needs_signal(*in, later, n)) api.signal(later.from, kSignalTagBase + tag + 1);
  }

  // Every block for this node is here: into the receive buffer.
  api.local_copy(l.receive_block(me), l.send_block(me), m);
  for (int s = 0; s < n; ++s)
    if (s != me) api.local_copy(l.receive_block(s), held.at({s, me}), m);
}

// 001 Theorem 1 (d >= 3) with 000 §2's step cost: (2d - 2) t_s + the blocks of Lemmas 2-6 plus the §2.4
// overlap's extra blocks, times m t_c.
double tseng_ring_estimate(const Topology& topology, const ExchangeParameters& p) {
  if (!is_power_of_two_ring(topology)) return 0;
  const int n = topology.dimension(0).size;
  int d = 0;
  while ((1 << d) < n) ++d;
  const double two_2d_1 = std::ldexp(1.0, 2 * d - 1);
  const double positive_blocks = d <= 5 ? two_2d_1 * 31.0 / 96.0 + std::ldexp(1.0, d - 3) - 1.0 / 3.0
                                        : two_2d_1 * 65.0 / 192.0 - std::ldexp(1.0, d - 2) - 1.0 / 3.0;
  const double blocks = positive_blocks + (d == 3 ? 3 : 2);
  return (2 * d - 2) * static_cast<double>(p.startup_cycles) + blocks * p.block_bytes / p.flit_bytes;
}

}  // namespace

std::vector<Algorithm> tseng_exchange_algorithms() {
  Algorithm ring;
  ring.name = "tseng-ring";
  ring.summary = "positive and negative gather-scatter trees on a ring of 2^d nodes, one-port overlapped";
  ring.source = "001 §2.1-2.4 (Theorem 1), §7 (sync)";
  ring.supports = supports_ring;
  ring.firmware = tseng_ring;
  ring.estimate_cycles = tseng_ring_estimate;
  ring.estimate_formula = "001 Theorem 1: (2d-2) t_s + (Lemma 6 blocks + 3 if d = 3, + 2 if d >= 4) m t_c";
  ring.options = {{"sync", AlgorithmOption::Type::Choice, "none",
                   "none; barrier: hardware barrier between phases (001 §7.1); signals: null messages between "
                   "the nodes whose consecutive phases share a link (001 §7.2)",
                   {"none", "barrier", "signals"}}};
  ring.scratch_bytes = [](int nodes, std::uint32_t block_bytes, const AlgorithmOptions&) -> std::uint64_t {
    if (nodes < 8 || nodes > 128 || (nodes & (nodes - 1)) != 0) return 0;  // not a ring it supports
    const RingExchangePlan& plan = ring_exchange_plan(nodes);
    return (largest_message_blocks(plan) + most_received_blocks(plan)) * block_bytes;
  };
  return {ring};
}

}  // namespace meshmp
