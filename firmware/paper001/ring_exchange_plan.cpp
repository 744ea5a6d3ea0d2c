// The gather-scatter schedule on a ring (001 §2.2-2.4). See ring_exchange_plan.h.
#include "firmware/paper001/ring_exchange_plan.h"

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>

namespace meshmp {
namespace {

int mod(int a, int n) { return ((a % n) + n) % n; }

// One tree: positive (labels = ring positions) or the shifted negative one (label = (1 - position) mod n).
// The negative tree is the positive one under label = (mirror - position) mod n; 001 §2.4 shifts it by
// one node: mirror = 1.
struct Tree {
  int direction;
  int n;
  int mirror = 1;
  int position(int label) const { return direction > 0 ? label : mod(mirror - label, n); }
  int label(int position) const { return direction > 0 ? position : mod(mirror - position, n); }
};

// Which of a sender's blocks (given by their distance from it, in the tree's labels) go in this phase.
// Returns false for a sender that does not take part.
struct PhaseRule {
  bool gathering;
  int level;  // l
  int top;    // d - 2
  bool sends(int sender) const {
    if (sender % (1 << level) != 0) return false;
    if (level == 0) return gathering ? sender % 2 == 1 : sender % 2 == 0;  // §2.4 pruning
    return true;
  }
  bool takes(int sender, int dist) const {
    const int step = 1 << level;
    if (!gathering) return dist >= step;
    if (level == 0) return dist >= 1;  // odd senders: Case 1 plus their block for i + 1 (§2.4)
    const bool case2 = level == top || sender % (2 * step) == 0;
    return case2 ? dist >= step && dist < step + 2 * step : dist >= 2 * step;
  }
};

// 001 §5: the receiver of sender i in a phase of level l; past the end of a ring of any length, node 0.
int receiver(int i, int level, int n) { return i + (1 << level) < n ? i + (1 << level) : 0; }

// For rings of any length (001 §5 gives the trees, not the rules): reach[p][v][t] is true when a block
// at node v before phase p can still get to t through phases p.. (labels of one tree). A block then moves
// only when it must: when t is out of reach from where it is without this phase's hop.
std::vector<std::vector<std::vector<char>>> reachability(const std::vector<PhaseRule>& rules, int n) {
  const std::size_t phases = rules.size();
  std::vector<std::vector<std::vector<char>>> reach(phases + 1, std::vector<std::vector<char>>(n, std::vector<char>(n, 0)));
  for (int v = 0; v < n; ++v) reach[phases][v][v] = 1;
  for (std::size_t p = phases; p-- > 0;)
    for (int v = 0; v < n; ++v) {
      reach[p][v] = reach[p + 1][v];
      if (rules[p].sends(v)) {
        const auto& via = reach[p + 1][receiver(v, rules[p].level, n)];
        for (int t = 0; t < n; ++t) reach[p][v][t] |= via[t];
      }
    }
  return reach;
}

}  // namespace

RingExchangePlan plan_with_mirror(int n, int mirror);

RingExchangePlan plan_ring_exchange(int n) {
  if ((n & (n - 1)) == 0 || n < 8) return plan_with_mirror(n, 1);
  // Other lengths: 001 gives no shift; the one with the fewest phases (then blocks) is taken.
  RingExchangePlan best;
  std::size_t best_blocks = 0;
  for (int mirror = 0; mirror < n; ++mirror) {
    RingExchangePlan plan = plan_with_mirror(n, mirror);
    std::size_t blocks = 0;
    for (const RingPhase& phase : plan.phases) {
      std::size_t largest = 0;
      for (const RingMessage& m : phase.messages) largest = std::max(largest, m.blocks.size());
      blocks += largest;
    }
    if (best.phases.empty() || plan.phases.size() < best.phases.size() ||
        (plan.phases.size() == best.phases.size() && blocks < best_blocks)) {
      best = std::move(plan);
      best_blocks = blocks;
    }
  }
  return best;
}

// One-port: on 2^d nodes the §2.4 overlap never has a node send or receive twice (checked). On other
// lengths the parity it relies on breaks where the ring wraps: a message that would be a node's second goes
// in a second part of the phase, right after (the phase's blocks were all chosen before it, so the order of
// its messages does not matter). Delivers every message's blocks to its receiver in `pool`.
std::vector<RingPhase> one_port_parts(std::vector<std::pair<int, RingMessage>>& arriving,
                                      std::vector<std::vector<RingBlock>> (&pool)[2], int n, bool power_of_two,
                                      const std::string& phase_name) {
  std::vector<RingPhase> parts(1);
  std::vector<std::vector<char>> sending(1, std::vector<char>(n, 0)), receiving(1, std::vector<char>(n, 0));
  for (auto& [t, message] : arriving) {
    std::size_t part = 0;
    while (part < parts.size() && (sending[part][message.from] || receiving[part][message.to])) ++part;
    if (part == parts.size()) {
      if (power_of_two)
        throw std::logic_error("ring of " + std::to_string(n) + ", phase " + phase_name + ": node " +
                               std::to_string(message.from) + " or " + std::to_string(message.to) +
                               " would take part in two messages (one-port allows one each way)");
      parts.emplace_back();
      sending.emplace_back(n, 0);
      receiving.emplace_back(n, 0);
    }
    sending[part][message.from] = receiving[part][message.to] = 1;
    auto& held = pool[t][message.to];
    held.insert(held.end(), message.blocks.begin(), message.blocks.end());
    parts[part].messages.push_back(std::move(message));
  }
  return parts;
}

RingExchangePlan plan_with_mirror(int n, int mirror) {
  if (n < 8)
    throw std::invalid_argument("a ring of " + std::to_string(n) + " nodes: the gather-scatter trees of 001 §2 need 8 or more nodes");
  int d = 0;
  while ((1 << d) < n) ++d;
  const bool power_of_two = (n & (n - 1)) == 0;
  const Tree trees[2] = {{+1, n, mirror}, {-1, n, mirror}};
  // pool[tree][position]: the blocks a node holds on that tree.
  std::vector<std::vector<RingBlock>> pool[2];
  for (auto& p : pool) p.resize(n);
  // The positive tree carries distances 1 .. n/2 (rounded down), the negative one the rest.
  for (int s = 0; s < n; ++s) {
    for (int k = 1; k <= n / 2; ++k) pool[0][s].push_back({s, mod(s + k, n)});
    for (int k = 1; k < n - n / 2; ++k) pool[1][s].push_back({s, mod(s - k, n)});
  }
  std::vector<PhaseRule> rules;
  for (int l = 0; l <= d - 2; ++l) rules.push_back({true, l, d - 2});
  for (int l = d - 2; l >= 0; --l) rules.push_back({false, l, d - 2});

  const auto reach = power_of_two ? decltype(reachability(rules, n)){} : reachability(rules, n);
  RingExchangePlan plan;
  plan.nodes = n;
  for (std::size_t p = 0; p < rules.size(); ++p) {
    const PhaseRule& rule = rules[p];
    RingPhase phase;
    phase.name = std::string(rule.gathering ? "GP_" : "SP_") + std::to_string(rule.level);
    std::vector<std::pair<int, RingMessage>> arriving;  // (tree, message): delivered after all sends
    for (int t = 0; t < 2; ++t) {
      const Tree& tree = trees[t];
      for (int sender = 0; sender < n; ++sender) {
        if (!rule.sends(sender)) continue;
        const int from = tree.position(sender);
        const int receiving = receiver(sender, rule.level, n);
        const int to = tree.position(receiving);
        RingMessage message{from, to, tree.direction, mod(receiving - sender, n), {}};
        auto& held = pool[t][from];
        for (auto it = held.begin(); it != held.end();) {
          const int target = tree.label(it->dst);
          const bool moves = power_of_two ? rule.takes(sender, mod(target - sender, n)) : !reach[p + 1][sender][target];
          if (moves) {
            message.blocks.push_back(*it);
            it = held.erase(it);
          } else {
            ++it;
          }
        }
        if (message.blocks.empty()) continue;
        std::sort(message.blocks.begin(), message.blocks.end());
        arriving.push_back({t, message});
      }
    }
    std::vector<RingPhase> parts = one_port_parts(arriving, pool, n, power_of_two, phase.name);
    for (std::size_t part = 0; part < parts.size(); ++part) {
      parts[part].name = phase.name + (part == 0 ? "" : std::string(part, '\''));
      plan.phases.push_back(std::move(parts[part]));
    }
  }
  for (int t = 0; t < 2; ++t)
    for (int v = 0; v < n; ++v)
      for (const RingBlock& b : pool[t][v])
        if (b.dst != v)
          throw std::logic_error("ring of " + std::to_string(n) + ": block " + std::to_string(b.src) + "->" +
                                 std::to_string(b.dst) + " ends at node " + std::to_string(v));
  return plan;
}

const RingExchangePlan& ring_exchange_plan(int n) {
  static std::map<int, std::unique_ptr<RingExchangePlan>> plans;
  auto& plan = plans[n];
  if (!plan) plan = std::make_unique<RingExchangePlan>(plan_ring_exchange(n));
  return *plan;
}

}  // namespace meshmp
