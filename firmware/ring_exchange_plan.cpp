// The gather-scatter schedule on a ring (001 §2.2-2.4). See ring_exchange_plan.h.
#include "firmware/ring_exchange_plan.h"

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>

namespace meshmp {
namespace {

int mod(int a, int n) { return ((a % n) + n) % n; }

// One tree: positive (labels = ring positions) or the shifted negative one (label = (1 - position) mod n).
struct Tree {
  int direction;
  int n;
  int position(int label) const { return direction > 0 ? label : mod(1 - label, n); }
  int label(int position) const { return direction > 0 ? position : mod(1 - position, n); }
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

}  // namespace

RingExchangePlan plan_ring_exchange(int n) {
  if (n < 8 || (n & (n - 1)) != 0)
    throw std::invalid_argument("a ring of " + std::to_string(n) + " nodes: the gather-scatter trees of 001 §2 need 2^d nodes, d >= 3");
  int d = 0;
  while ((1 << d) < n) ++d;
  const Tree trees[2] = {{+1, n}, {-1, n}};
  // pool[tree][position]: the blocks a node holds on that tree.
  std::vector<std::vector<RingBlock>> pool[2];
  for (auto& p : pool) p.resize(n);
  for (int s = 0; s < n; ++s) {
    for (int k = 1; k <= n / 2; ++k) pool[0][s].push_back({s, mod(s + k, n)});
    for (int k = 1; k < n / 2; ++k) pool[1][s].push_back({s, mod(s - k, n)});
  }
  std::vector<PhaseRule> rules;
  for (int l = 0; l <= d - 2; ++l) rules.push_back({true, l, d - 2});
  for (int l = d - 2; l >= 0; --l) rules.push_back({false, l, d - 2});

  RingExchangePlan plan;
  plan.nodes = n;
  for (const PhaseRule& rule : rules) {
    RingPhase phase;
    phase.name = std::string(rule.gathering ? "GP_" : "SP_") + std::to_string(rule.level);
    std::vector<int> sends(n, 0), receives(n, 0);
    std::vector<std::pair<int, RingMessage>> arriving;  // (tree, message): delivered after all sends
    for (int t = 0; t < 2; ++t) {
      const Tree& tree = trees[t];
      for (int sender = 0; sender < n; ++sender) {
        if (!rule.sends(sender)) continue;
        const int from = tree.position(sender);
        const int to = tree.position(mod(sender + (1 << rule.level), n));
        RingMessage message{from, to, tree.direction, 1 << rule.level, {}};
        auto& held = pool[t][from];
        for (auto it = held.begin(); it != held.end();) {
          if (rule.takes(sender, mod(tree.label(it->dst) - sender, n))) {
            message.blocks.push_back(*it);
            it = held.erase(it);
          } else {
            ++it;
          }
        }
        if (message.blocks.empty()) continue;
        std::sort(message.blocks.begin(), message.blocks.end());
        ++sends[from];
        ++receives[to];
        arriving.push_back({t, message});
      }
    }
    for (int v = 0; v < n; ++v)
      if (sends[v] > 1 || receives[v] > 1)
        throw std::logic_error("ring of " + std::to_string(n) + ", phase " + phase.name + ": node " +
                               std::to_string(v) + " sends " + std::to_string(sends[v]) + " and receives " +
                               std::to_string(receives[v]) + " messages (one-port allows one each)");
    for (auto& [t, message] : arriving) {
      auto& held = pool[t][message.to];
      held.insert(held.end(), message.blocks.begin(), message.blocks.end());
      phase.messages.push_back(std::move(message));
    }
    plan.phases.push_back(std::move(phase));
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
