// Total exchange in 002's model (Dimakopoulos and Dimopoulos: a message is one block and crosses one
// link per step).
// `dima-a1`: Algorithm A1 (§4) on any product G = A x B, recursively (A = G_1 x .. x G_{k-1}, B = G_k).
//   Fig. 3 is lost from the text; from §4's prose and its line numbers (1-3 the transfers, 4-6 the
//   exchanges within the copies of A):
//     1  for r = 1 .. n_1 (the nodes v_r of A, in order):
//     2    in parallel in every copy B_i of B: total exchange in which node (v_i, u_j) sends node
//     3      (v_i, u_k) its block for (v_r, u_k)  [batch R_r of Table 1];
//     4  for q = 1 .. n_2 (the nodes u_q of B, in order):
//     5    in parallel in every copy A_j of A: total exchange (A1 on A) in which node (v_i, u_j) sends
//     6      node (v_r, u_j) the block of (v_i, u_q) for (v_r, u_j)  [it arrived in lines 1-3].
//   Every exchange along one dimension is dima-1d's single-port schedule (a 2-node graph, K_m, a ring or
//   a path), so the steps are Theorem 2 / Corollary 3's n sum_i T_i / |V_i|, AS(G) when every T_i is
//   AS(G_i) (Theorem 3: tori, hypercubes, generalized hypercubes).
// `dima-1d`: the per-dimension algorithms 002 §4 builds on, as firmware on a network of one dimension (a 2-node graph, a complete graph, a ring or a path; firmware/dimension_exchange_schedule.h
// gives each schedule and the bound it meets). 002's single-port model is the one-port node (a node sends
// one message and receives one per step), its multiport model the all-port node (one message per
// directed link per step): the schedule follows the machine's port model. Option `sync`: barrier puts
// the hardware barrier before every step after the first (002's synchronized steps), none lets steps
// overlap.
// Run it under --switching store-and-forward for 002's model; under wormhole every message is still one
// hop.
#include <functional>
#include <map>
#include <unordered_map>
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

// Where the blocks this node holds are, by (source, destination): its own in the send buffer, those for
// it in the receive buffer (they arrive there), the others in scratch as they pass through.
class HeldBlocks {
 public:
  explicit HeldBlocks(NodeApi& api) : api_(api), n_(static_cast<std::uint64_t>(api.num_nodes())),
                                      next_free_(api.layout().scratch_base()) {
    for (int dst = 0; dst < api.num_nodes(); ++dst) at_[key(api.id(), dst)] = api.layout().send_block(dst);
  }
  std::uint32_t address(int source, int destination) const { return at_.at(key(source, destination)); }
  std::uint32_t arrive(int source, int destination) {
    const ExchangeLayout& l = api_.layout();
    std::uint32_t address = destination == api_.id() ? l.receive_block(source) : next_free_;
    if (destination != api_.id()) next_free_ += l.block_bytes;
    at_[key(source, destination)] = address;
    return address;
  }

 private:
  std::uint64_t key(int source, int destination) const {
    return static_cast<std::uint64_t>(source) * n_ + static_cast<std::uint64_t>(destination);
  }
  NodeApi& api_;
  std::uint64_t n_;
  std::uint32_t next_free_;
  std::unordered_map<std::uint64_t, std::uint32_t> at_;
};

struct BlockId {
  int source, destination;
};

// Algorithm A1 on this node: exchanges along one dimension, one step after the other.
class A1Node {
 public:
  explicit A1Node(NodeApi& api) : api_(api), topology_(api.topology()), held_(api),
                                  barrier_(api.options().text("sync") == "barrier") {
    for (int d = 0; d < topology_.num_dimensions(); ++d)
      schedules_.push_back(
          dimension_exchange_schedule(topology_.dimension(d).kind, topology_.dimension(d).size, false));
    api.local_copy(api.layout().receive_block(api.id()), api.layout().send_block(api.id()), api.layout().block_bytes);
  }

  using BlockFor = std::function<BlockId(int, int)>;

  // Total exchange among the nodes that share this node's coordinates in dimensions >= count: node x
  // sends node y the block block_for(x, y).
  void exchange(int count, const BlockFor& block_for) {
    if (count == 1) {
      along(0, block_for);
      return;
    }
    const int b = count - 1;  // B = dimension count - 1, A = dimensions 0 .. count - 2
    int a_positions = 1;
    for (int d = 0; d < b; ++d) a_positions *= topology_.dimension(d).size;
    for (int r = 0; r < a_positions; ++r)  // lines 1-3: batch R_r along B
      along(b, [&](int x, int y) { return block_for(x, with_low_position(y, b, r)); });
    for (int q = 0; q < topology_.dimension(b).size; ++q)  // lines 4-6: in A, what came from u_q
      exchange(b, [&](int x, int y) { return block_for(with_coordinate(x, b, q), y); });
  }

 private:
  // One exchange along dimension d among the nodes that share this node's other coordinates.
  void along(int d, const BlockFor& block_for) {
    const std::uint32_t m = api_.layout().block_bytes;
    const int me = api_.id();
    auto node = [&](int position) { return with_coordinate(me, d, position); };
    for (const ExchangeStep& s : schedules_[static_cast<std::size_t>(d)]) {
      if (barrier_ && step_ > 0) api_.hardware_barrier();
      const auto tag = static_cast<std::uint32_t>(++step_);
      api_.begin_step(step_);
      std::vector<Handle> handles;
      for (const BlockTransfer& t : s)
        if (node(t.to) == me) {
          const BlockId id = block_for(node(t.source), node(t.destination));
          handles.push_back(api_.receive(node(t.from), held_.arrive(id.source, id.destination), m, tag));
        }
      for (const BlockTransfer& t : s)
        if (node(t.from) == me) {
          const BlockId id = block_for(node(t.source), node(t.destination));
          handles.push_back(api_.send(node(t.to), held_.address(id.source, id.destination), m, tag));
        }
      for (Handle h : handles) api_.wait(h);
    }
  }
  int with_coordinate(int node, int d, int position) const {
    std::vector<int> c = topology_.coordinates(node);
    c[static_cast<std::size_t>(d)] = position;
    return topology_.node_at(c);
  }
  // `node` with its coordinates in dimensions 0 .. count - 1 replaced by the mixed-radix `position`
  // (dimension 0 fastest).
  int with_low_position(int node, int count, int position) const {
    std::vector<int> c = topology_.coordinates(node);
    for (int d = 0; d < count; ++d) {
      c[static_cast<std::size_t>(d)] = position % topology_.dimension(d).size;
      position /= topology_.dimension(d).size;
    }
    return topology_.node_at(c);
  }

  NodeApi& api_;
  const Topology& topology_;
  HeldBlocks held_;
  bool barrier_;
  int step_ = 0;
  std::vector<std::vector<ExchangeStep>> schedules_;
};

void dima_a1(NodeApi& api) {
  A1Node node(api);
  node.exchange(api.topology().num_dimensions(), [](int x, int y) { return BlockId{x, y}; });
}

// Theorem 2 / Corollary 3: n sum_i T_i / |V_i| with T_i the single-port steps of dimension i.
std::uint64_t a1_steps(const Topology& topology) {
  std::uint64_t steps = 0;
  const auto n = static_cast<std::uint64_t>(topology.num_nodes());
  for (int d = 0; d < topology.num_dimensions(); ++d) {
    const Dimension& dim = topology.dimension(d);
    steps += n / static_cast<std::uint64_t>(dim.size) * dimension_exchange_schedule(dim.kind, dim.size, false).size();
  }
  return steps;
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
  Algorithm a1;
  a1.name = "dima-a1";
  a1.summary = "Algorithm A1 on any product: exchanges along the last dimension, then A1 on the rest";
  a1.source = "002 §4 (Fig. 3 reconstructed, Theorem 2, Corollary 3, Theorem 3)";
  a1.options = one.options;
  a1.supports = [](const Topology&, const ExchangeParameters&) -> std::optional<std::string> { return std::nullopt; };
  a1.firmware = dima_a1;
  a1.estimate_cycles = [](const Topology& topology, const ExchangeParameters& p) {
    return static_cast<double>(a1_steps(topology)) * step_cost_cycles(p, p.block_bytes);
  };
  a1.estimate_formula = "002 Corollary 3: n sum_i T_i / |V_i| steps x (t_s + m t_c)";
  // A node receives at most one block per step.
  a1.scratch_bytes = [](const Topology& topology, std::uint32_t block_bytes, const AlgorithmOptions&) {
    return a1_steps(topology) * block_bytes;
  };
  return {one, a1};
}

}  // namespace meshmp
