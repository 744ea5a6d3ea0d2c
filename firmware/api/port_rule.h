// 004 §2's port rules: what a node of each nearest-neighbour machine may do in one synchronous step.
//  - ring (§2 C): "simultaneously write to both neighbors or simultaneously read from one neighbor and
//    write to the other";
//  - grid (§2 D): all four links at once (one message each way on each link);
//  - grid-as-ring: §2 D's "our assumptions are identical with those of the ring model" read strictly:
//    the ring rule in each dimension's ring (a node reads from at most one of its two neighbours along a
//    dimension, and never from a neighbour it writes to);
//  - hypercube (§2 E): "all the channels of a node can either read or write, but not both": every channel
//    reads or writes in a step, not both (a node may read on one channel while it writes on another);
//  - full-duplex: every link each way at once (what an algorithm that cannot obey its machine's rule
//    needs; measured under it, and said so).
// Under every rule a step's messages go between neighbours only (§2: each step moves messages of at most
// m words between nearest neighbours, store-and-forward), one message per channel and direction.
// The machine checks every message as its descriptor starts (hw/node/network_interface.cpp), so a schedule
// that breaks its rule ends the run with an error naming the step, the node and the rule.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "topology/topology.h"

namespace meshmp {

enum class PortRule { Unchecked, Ring, Grid, GridAsRing, Hypercube, FullDuplex };

// "ring", "grid", "grid-as-ring", "hypercube", "full-duplex" ("unchecked" for the other papers' algorithms).
std::string port_rule_name(PortRule rule);
// The rule in 004 §2's words.
std::string port_rule_text(PortRule rule);

class PortRuleMonitor {
 public:
  PortRuleMonitor(const Topology& topology, PortRule rule) : topology_(topology), rule_(rule) {}
  PortRule rule() const { return rule_; }
  // Records that node `from` writes one message to node `to` in step `step` (and `to` reads it);
  // the error ("step 3, node 5: ...; 004 §2 (C) ring rule: ...") when that breaks the rule.
  std::optional<std::string> record(int step, int from, int to);

 private:
  struct Use {
    std::vector<int> writes;  // neighbours written to in the step
    std::vector<int> reads;   // neighbours read from
  };
  std::optional<std::string> check(int step, int node, const Use& use) const;
  int link_dimension(int node, int neighbour) const;  // the dimension the link to a neighbour runs along

  const Topology& topology_;
  PortRule rule_;
  std::map<std::pair<int, int>, Use> use_;  // (step, node)
};

}  // namespace meshmp
