// 004 §2's port rules, checked message by message. See port_rule.h.
#include "firmware/api/port_rule.h"

#include <algorithm>

namespace meshmp {

std::string port_rule_name(PortRule rule) {
  switch (rule) {
    case PortRule::Unchecked: return "unchecked";
    case PortRule::Ring: return "ring";
    case PortRule::Grid: return "grid";
    case PortRule::GridAsRing: return "grid-as-ring";
    case PortRule::Hypercube: return "hypercube";
    case PortRule::FullDuplex: return "full-duplex";
  }
  return "?";
}

std::string port_rule_text(PortRule rule) {
  switch (rule) {
    case PortRule::Unchecked: return "no port rule";
    case PortRule::Ring:
      return "004 §2 (C) ring rule: a node writes to both neighbours, or reads from one neighbour and writes to the other";
    case PortRule::Grid: return "004 §2 (D) grid rule: one message each way on each of the four links";
    case PortRule::GridAsRing:
      return "004 §2 (D) grid rule read as the ring's in each dimension: a node reads from at most one neighbour "
             "along a dimension and never from one it writes to";
    case PortRule::Hypercube: return "004 §2 (E) hypercube rule: each channel reads or writes in a step, not both";
    case PortRule::FullDuplex: return "full-duplex rule: one message each way on each link";
  }
  return "?";
}

std::optional<std::string> PortRuleMonitor::record(int step, int from, int to) {
  if (rule_ == PortRule::Unchecked) return std::nullopt;
  const std::string where = "step " + std::to_string(step) + ", node " + std::to_string(from) + ": ";
  if (from == to || topology_.distance(from, to) != 1)
    return where + "a message to node " + std::to_string(to) +
           ", which is not a neighbour (004 §2: a step moves messages between nearest neighbours; " +
           port_rule_name(rule_) + " rule)";
  Use& writer = use_[{step, from}];
  if (std::find(writer.writes.begin(), writer.writes.end(), to) != writer.writes.end())
    return where + "a second message to node " + std::to_string(to) + " in one step (" + port_rule_text(rule_) +
           "; a channel carries one message each way per step)";
  writer.writes.push_back(to);
  if (auto error = check(step, from, writer)) return error;
  Use& reader = use_[{step, to}];
  reader.reads.push_back(from);
  return check(step, to, reader);
}

int PortRuleMonitor::link_dimension(int node, int neighbour) const {
  const std::vector<int> a = topology_.coordinates(node), b = topology_.coordinates(neighbour);
  for (std::size_t d = 0; d < a.size(); ++d)
    if (a[d] != b[d]) return static_cast<int>(d);
  return -1;
}

std::optional<std::string> PortRuleMonitor::check(int step, int node, const Use& use) const {
  const std::string where = "step " + std::to_string(step) + ", node " + std::to_string(node) + ": ";
  auto list = [](const std::vector<int>& nodes) {
    std::string text;
    for (int n : nodes) text += (text.empty() ? "" : " and ") + std::to_string(n);
    return text;
  };
  const bool ring = rule_ == PortRule::Ring, cube = rule_ == PortRule::Hypercube;
  const bool ring_per_dimension = rule_ == PortRule::GridAsRing;
  if (ring && use.reads.size() > 1)
    return where + "reads from nodes " + list(use.reads) + " (" + port_rule_text(rule_) + ")";
  if (ring_per_dimension)
    for (std::size_t a = 0; a < use.reads.size(); ++a)
      for (std::size_t b = a + 1; b < use.reads.size(); ++b)
        if (link_dimension(node, use.reads[a]) == link_dimension(node, use.reads[b]))
          return where + "reads from nodes " + std::to_string(use.reads[a]) + " and " + std::to_string(use.reads[b]) +
                 " along dimension " + std::to_string(link_dimension(node, use.reads[a])) + " (" + port_rule_text(rule_) + ")";
  if (ring || cube || ring_per_dimension)
    for (int n : use.reads)
      if (std::find(use.writes.begin(), use.writes.end(), n) != use.writes.end())
        return where + "reads from and writes to node " + std::to_string(n) + " (" + port_rule_text(rule_) + ")";
  return std::nullopt;
}

}  // namespace meshmp
