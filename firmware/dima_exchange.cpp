// Total exchange in 002's model (Dimakopoulos and Dimopoulos: a message is one block and crosses one
// link per step): `dima-1d`, the per-dimension algorithms 002 §4 builds on, as firmware on a network of
// one dimension (a 2-node graph, a complete graph, a ring or a path; firmware/dimension_exchange_schedule.h
// gives each schedule and the bound it meets). 002's single-port model is the one-port node (a node sends
// one message and receives one per step), its multiport model the all-port node (one message per
// directed link per step): the schedule follows the machine's port model. Option `sync`: barrier puts
// the hardware barrier before every step after the first (002's synchronized steps), none lets steps
// overlap.
// Run it under --switching store-and-forward for 002's model; under wormhole every message is still one
// hop.
#include <map>
#include <utility>

#include "firmware/algorithm_registry.h"
#include "firmware/dimension_exchange_schedule.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

std::vector<ExchangeStep> schedule_of(const Topology& topology, bool multi) {
  return dimension_exchange_schedule(topology.dimension(0).kind, topology.dimension(0).size, multi);
}

void dima_1d(NodeApi& api) {
  const ExchangeLayout& l = api.layout();
  const std::uint32_t m = l.block_bytes;
  const int me = api.id();  // one dimension: the node is its position
  const bool barrier = api.options().text("sync") == "barrier";
  const std::vector<ExchangeStep> steps = schedule_of(api.topology(), api.all_port());

  std::map<std::pair<int, int>, std::uint32_t> where;  // (source, destination) -> address here
  for (int dst = 0; dst < api.num_nodes(); ++dst) where[{me, dst}] = l.send_block(dst);
  api.local_copy(l.receive_block(me), l.send_block(me), m);
  std::uint32_t next_free = l.scratch_base();
  for (std::size_t s = 0; s < steps.size(); ++s) {
    if (barrier && s > 0) api.hardware_barrier();
    const auto tag = static_cast<std::uint32_t>(s + 1);
    api.begin_step(static_cast<int>(tag));
    std::vector<Handle> handles;
    for (const BlockTransfer& t : steps[s])
      if (t.to == me) {
        const std::uint32_t at = t.destination == me ? l.receive_block(t.source) : next_free;
        if (t.destination != me) next_free += m;
        where[{t.source, t.destination}] = at;
        handles.push_back(api.receive(t.from, at, m, tag));
      }
    for (const BlockTransfer& t : steps[s])
      if (t.from == me) handles.push_back(api.send(t.to, where.at({t.source, t.destination}), m, tag));
    for (Handle h : handles) api.wait(h);
  }
}

std::optional<std::string> supports_1d(const Topology& topology, const ExchangeParameters&) {
  if (topology.num_dimensions() != 1)
    return ConfigError("topology", topology.spec(),
                       "dima-1d runs on one dimension (ring:K, mesh:K for a path, ghc:M for a complete graph, "
                       "hypercube:1)")
        .what();
  return std::nullopt;
}

}  // namespace

std::vector<Algorithm> dima_exchange_algorithms() {
  Algorithm one;
  one.name = "dima-1d";
  one.summary = "total exchange in one dimension, one block one link per step: 2-node, complete, ring or path";
  one.source = "002 §3 (bounds), §4 (per-dimension total exchange)";
  one.options = {{"sync", AlgorithmOption::Type::Choice, "none",
                  "none; barrier: the hardware barrier before every step after the first (002's synchronized "
                  "steps)",
                  {"none", "barrier"}}};
  one.supports = supports_1d;
  one.firmware = dima_1d;
  one.estimate_cycles = [](const Topology& topology, const ExchangeParameters& p) {
    // Every step moves one block one hop: t_s + m t_c.
    return static_cast<double>(schedule_of(topology, p.all_port).size()) * step_cost_cycles(p, p.block_bytes);
  };
  one.estimate_formula = "steps x (t_s + m t_c), the steps of the dimension's schedule";
  one.scratch_bytes = [](const Topology& topology, std::uint32_t block_bytes, const AlgorithmOptions&) {
    // Per node, the blocks it receives for others, under either port model.
    std::uint64_t most = 0;
    for (bool multi : {false, true}) {
      if (topology.num_dimensions() != 1) break;
      std::map<int, std::uint64_t> forwarded;
      for (const ExchangeStep& step : schedule_of(topology, multi))
        for (const BlockTransfer& t : step)
          if (t.to != t.destination) ++forwarded[t.to];
      for (const auto& [node, count] : forwarded) most = std::max(most, count);
    }
    return most * block_bytes;
  };
  return {one};
}

}  // namespace meshmp
