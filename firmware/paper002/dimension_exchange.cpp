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
// `dima-a2`: Algorithm A2 (§5), multiport, on homogeneous products H^d with d = 2^k (all-port nodes).
//   Fig. 5 is lost too; from §5's prose, for G = A x B with A and B alike (N nodes each, positions
//   0..N-1, x (+) y = (x + y) mod N, and (+)' / (-)' the same on 1..N-1):
//     rounds r = 1 .. N, each a total exchange in every copy A_j and one in every copy B_i at once
//     (multiport: they use different links):
//       in A_j, round 1: node (i, j) sends (i (+) l, j) its own block for it;
//               round r >= 2: the block that arrived in B's round r - 1 for (i (+) l, j): the one from
//               (i, j (-) (l (-)' (r - 2)));
//       in B_i, round r < N (7): node (i, j) sends (i, j (+) l) its block for (i (+) ((r - 1) (+)' l), j (+) l);
//               round N: its blocks for (i, *).
//   (8) prints the sources of what (i, j) receives in B's round r as (i, j (+) ((r - 1) (+)' l)); the
//   senders of (7) are (i, j (-) (l (-)' (r - 1))), as the text's first round says ("from node
//   (v_i, u_{j-1})"): the machine runs (7) and the text.
//   A and B are themselves A2 on H^(d/2) (or one dimension: dima-1d's multiport schedule), so the steps
//   are Theorem 4 / Corollary 4's n^(d-1) T_H, the cut bound when T_H is H's (Theorem 5).
// `dima-1d`: the per-dimension algorithms 002 §4 builds on, as firmware on a network of one dimension
// (a 2-node graph, a complete graph, a ring or a path; firmware/paper002/dimension_exchange_schedule.h gives each
// schedule and the bound it meets).
// 002's single-port model is the one-port node (a node sends one message and receives one per step), its
// multiport model the all-port node (one message per directed link per step): dima-1d follows the
// machine's port model, dima-a1 is single-port, dima-a2 multiport. Option `sync` (all three): barrier
// puts the hardware barrier before every step after the first (002's synchronized steps), none lets
// steps overlap. Run them under --switching store-and-forward for 002's model; under wormhole every
// message is still one hop.
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "firmware/api/algorithm_registry.h"
#include "firmware/paper002/dimension_exchange_schedule.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

std::vector<ExchangeStep> schedule_of(const Topology& topology, bool multi) {
  return dimension_exchange_schedule(topology.dimension(0).kind, topology.dimension(0).size, multi);
}

// The nodes along dimension d through `node`, by their position in it.
std::vector<int> line_through(const Topology& topology, int node, int d) {
  std::vector<int> line(static_cast<std::size_t>(topology.dimension(d).size));
  for (int p = 0; p < topology.dimension(d).size; ++p) line[static_cast<std::size_t>(p)] = topology.with_coordinate(node, d, p);
  return line;
}

// Where the blocks this node holds are, by (source, destination): its own in the send buffer, those for
// it in the receive buffer (they arrive there), the others in scratch as they pass through. Only the
// blocks passing through are recorded: the node's table grows with its own traffic, not with the machine.
// They are kept by open addressing (linear probing) in a table of at least twice the scratch's blocks,
// sized once: no allocation per block, and a lookup reads a line or two.
class HeldBlocks {
 public:
  explicit HeldBlocks(NodeApi& api) : api_(api), n_(static_cast<std::uint64_t>(api.num_nodes())),
                                      next_free_(api.layout().scratch_base()) {
    resize(2 * (api.layout().scratch_bytes / api.layout().block_bytes) + 2);  // a block per scratch slot
  }
  // The address of a block this node holds and sends on (never one for itself: it stays).
  std::uint32_t address(int source, int destination) const {
    if (source == api_.id()) return api_.layout().send_block(destination);
    const std::uint64_t k = key(source, destination);
    for (std::size_t i = home(k);; i = (i + 1) & mask_) {
      if (passing_[i].key == k) return passing_[i].address;
      if (passing_[i].key == kFree)
        throw FirmwareError("block " + std::to_string(source) + "->" + std::to_string(destination) +
                            " is sent on by node " + std::to_string(api_.id()) + ", which does not hold it");
    }
  }
  std::uint32_t arrive(int source, int destination) {
    const ExchangeLayout& l = api_.layout();
    if (destination == api_.id()) return l.receive_block(source);
    const std::uint32_t address = next_free_;
    next_free_ += l.block_bytes;
    if (2 * (held_ + 1) > passing_.size()) resize(2 * passing_.size());
    put(key(source, destination), address);
    return address;
  }

 private:
  static constexpr std::uint64_t kFree = ~std::uint64_t{0};
  struct Entry {
    std::uint64_t key = kFree;
    std::uint32_t address = 0;
  };
  std::uint64_t key(int source, int destination) const {
    return static_cast<std::uint64_t>(source) * n_ + static_cast<std::uint64_t>(destination);
  }
  std::size_t home(std::uint64_t k) const { return static_cast<std::size_t>(k * 0x9E3779B97F4A7C15ull >> 32) & mask_; }
  void put(std::uint64_t k, std::uint32_t address) {
    std::size_t i = home(k);
    while (passing_[i].key != kFree && passing_[i].key != k) i = (i + 1) & mask_;
    if (passing_[i].key == kFree) ++held_;
    passing_[i] = Entry{k, address};
  }
  // At least `entries` entries, a power of two; the blocks held move over.
  void resize(std::size_t entries) {
    std::size_t size = 16;
    while (size < entries) size *= 2;
    std::vector<Entry> old = std::exchange(passing_, std::vector<Entry>(size));
    mask_ = size - 1;
    held_ = 0;
    for (const Entry& e : old)
      if (e.key != kFree) put(e.key, e.address);
  }
  NodeApi& api_;
  std::uint64_t n_;
  std::uint32_t next_free_;
  std::vector<Entry> passing_;
  std::size_t mask_ = 0;
  std::size_t held_ = 0;
};

struct BlockId {
  int source, destination;
};

// Algorithm A1 on this node: exchanges along one dimension, one step after the other.
class A1Node {
 public:
  explicit A1Node(NodeApi& api) : api_(api), topology_(api.topology()), held_(api),
                                  barrier_(api.options().text("sync") == "barrier") {
    for (int d = 0; d < topology_.num_dimensions(); ++d) {
      schedules_.push_back(
          &shared_position_schedule(topology_.dimension(d).kind, topology_.dimension(d).size, false));
      lines_.push_back(line_through(topology_, api.id(), d));
    }
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
      exchange(b, [&](int x, int y) { return block_for(topology_.with_coordinate(x, b, q), y); });
  }

 private:
  // One exchange along dimension d among the nodes that share this node's other coordinates.
  void along(int d, const BlockFor& block_for) {
    const std::uint32_t m = api_.layout().block_bytes;
    const std::vector<int>& node = lines_[static_cast<std::size_t>(d)];  // position -> node
    const int mine = topology_.coordinate(api_.id(), d);
    // Only this position's transfers of each step, in the step's order.
    for (const ExchangeStep& s : schedules_[static_cast<std::size_t>(d)]->of_position[static_cast<std::size_t>(mine)]) {
      if (barrier_ && step_ > 0) api_.hardware_barrier();
      const auto tag = static_cast<std::uint32_t>(++step_);
      api_.begin_step(step_);
      for (const BlockTransfer& t : s)
        if (t.to == mine) {
          const BlockId id = block_for(node[static_cast<std::size_t>(t.source)], node[static_cast<std::size_t>(t.destination)]);
          api_.receive(node[static_cast<std::size_t>(t.from)], held_.arrive(id.source, id.destination), m, tag);
        }
      for (const BlockTransfer& t : s)
        if (t.from == mine) {
          const BlockId id = block_for(node[static_cast<std::size_t>(t.source)], node[static_cast<std::size_t>(t.destination)]);
          api_.send(node[static_cast<std::size_t>(t.to)], held_.address(id.source, id.destination), m, tag);
        }
      api_.wait_all();  // the step's transfers (one COMPLETED read per wake-up, not a QUERY and STATUS each)
    }
  }
  // `node` with its coordinates in dimensions 0 .. count - 1 replaced by the mixed-radix `position`
  // (dimension 0 fastest).
  int with_low_position(int node, int count, int position) const {
    for (int d = 0; d < count; ++d) {
      node = topology_.with_coordinate(node, d, position % topology_.dimension(d).size);
      position /= topology_.dimension(d).size;
    }
    return node;
  }

  NodeApi& api_;
  const Topology& topology_;
  HeldBlocks held_;
  bool barrier_;
  int step_ = 0;
  std::vector<const PositionSchedule*> schedules_;  // per dimension, shared by every node
  std::vector<std::vector<int>> lines_;             // per dimension, the nodes of this node's line
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

// One block over one link, anywhere in the machine.
struct MachineTransfer {
  int from, to;
  BlockId block;
};
using MachineStep = std::vector<MachineTransfer>;

// Algorithm A2's steps as one node takes part in them: of every step of the whole machine's schedule
// (every copy of every sub-product at once), the transfers that leave or reach this node, in the
// machine's order. Only this node's copies are planned (a transfer along a dimension stays in its line),
// and of each line only this node's transfers: time proportional to its own messages.
class A2Schedule {
 public:
  using BlockFor = std::function<BlockId(int, int)>;
  A2Schedule(const Topology& topology, int node) : topology_(topology), node_(node) {
    for (int d = 0; d < topology.num_dimensions(); ++d) {
      schedules_.push_back(&shared_position_schedule(topology.dimension(d).kind, topology.dimension(d).size, true));
      lines_.push_back(line_through(topology, node, d));
    }
  }

  // Total exchange in every copy of the sub-product over `dims`: node x sends node y block_for(x, y).
  std::vector<MachineStep> exchange(const std::vector<int>& dims, const BlockFor& block_for) const {
    if (dims.size() == 1) return along(dims[0], block_for);
    const std::vector<int> a(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(dims.size() / 2));
    const std::vector<int> b(dims.begin() + static_cast<std::ptrdiff_t>(dims.size() / 2), dims.end());
    const int n = positions(a);  // = positions(b): homogeneous
    auto plus = [n](int x, int y) { return ((x + y) % n + n) % n; };
    auto plus1 = [n](int x, int y) { return ((x + y - 1) % (n - 1) + (n - 1)) % (n - 1) + 1; };   // on 1..n-1
    auto minus1 = [n](int x, int y) { return ((x - y - 1) % (n - 1) + (n - 1)) % (n - 1) + 1; };  // on 1..n-1
    std::vector<MachineStep> steps;
    for (int r = 1; r <= n; ++r) {
      std::vector<MachineStep> in_a = exchange(a, [&, r](int x, int y) {
        if (r == 1) return block_for(x, y);
        const int l = plus(position(y, a), -position(x, a));
        return block_for(at(x, b, plus(position(x, b), -minus1(l, r - 2))), y);
      });
      std::vector<MachineStep> in_b = exchange(b, [&, r](int x, int y) {
        if (r == n) return block_for(x, y);
        const int l = plus(position(y, b), -position(x, b));
        return block_for(x, at(y, a, plus(position(x, a), plus1(r - 1, l))));
      });
      for (std::size_t s = 0; s < std::max(in_a.size(), in_b.size()); ++s) {
        MachineStep step;
        if (s < in_a.size()) step = std::move(in_a[s]);
        if (s < in_b.size()) step.insert(step.end(), in_b[s].begin(), in_b[s].end());
        steps.push_back(std::move(step));
      }
    }
    return steps;
  }

 private:
  std::vector<MachineStep> along(int d, const BlockFor& block_for) const {
    const std::vector<int>& node = lines_[static_cast<std::size_t>(d)];  // position -> node
    const int mine = topology_.coordinate(node_, d);
    std::vector<MachineStep> steps;
    for (const ExchangeStep& s : schedules_[static_cast<std::size_t>(d)]->of_position[static_cast<std::size_t>(mine)]) {
      MachineStep step;
      step.reserve(s.size());
      for (const BlockTransfer& t : s)
        step.push_back({node[static_cast<std::size_t>(t.from)], node[static_cast<std::size_t>(t.to)],
                        block_for(node[static_cast<std::size_t>(t.source)], node[static_cast<std::size_t>(t.destination)])});
      steps.push_back(std::move(step));
    }
    return steps;
  }
  int positions(const std::vector<int>& dims) const {
    int p = 1;
    for (int d : dims) p *= topology_.dimension(d).size;
    return p;
  }
  // The mixed-radix position of `node` over `dims` (the first fastest), and the node at another one.
  int position(int node, const std::vector<int>& dims) const {
    int p = 0;
    for (std::size_t k = dims.size(); k-- > 0;)
      p = p * topology_.dimension(dims[k]).size + topology_.coordinate(node, dims[k]);
    return p;
  }
  int at(int node, const std::vector<int>& dims, int position) const {
    for (int d : dims) {
      node = topology_.with_coordinate(node, d, position % topology_.dimension(d).size);
      position /= topology_.dimension(d).size;
    }
    return node;
  }
  const Topology& topology_;
  int node_;
  std::vector<const PositionSchedule*> schedules_;  // per dimension, shared by every node
  std::vector<std::vector<int>> lines_;             // per dimension, the nodes of this node's line
};

std::vector<int> all_dimensions(const Topology& topology) {
  std::vector<int> dims(static_cast<std::size_t>(topology.num_dimensions()));
  for (int d = 0; d < topology.num_dimensions(); ++d) dims[static_cast<std::size_t>(d)] = d;
  return dims;
}

// Runs a planned schedule on this node: per step, the receives of the blocks that come here, then the
// sends of the blocks that leave; a barrier before every step after the first under sync=barrier.
void run_machine_steps(NodeApi& api, const std::vector<MachineStep>& steps) {
  const ExchangeLayout& l = api.layout();
  const std::uint32_t m = l.block_bytes;
  const int me = api.id();
  const bool barrier = api.options().text("sync") == "barrier";
  HeldBlocks held(api);
  api.local_copy(l.receive_block(me), l.send_block(me), m);
  for (std::size_t s = 0; s < steps.size(); ++s) {
    if (barrier && s > 0) api.hardware_barrier();
    const auto tag = static_cast<std::uint32_t>(s + 1);
    api.begin_step(static_cast<int>(tag));
    for (const MachineTransfer& t : steps[s])
      if (t.to == me) api.receive(t.from, held.arrive(t.block.source, t.block.destination), m, tag);
    for (const MachineTransfer& t : steps[s])
      if (t.from == me) api.send(t.to, held.address(t.block.source, t.block.destination), m, tag);
    api.wait_all();  // the step's transfers
  }
}

// One dimension: the node is its position, and plans from its own transfers of the shared schedule.
void dima_1d(NodeApi& api) {
  const Dimension& dim = api.topology().dimension(0);
  std::vector<MachineStep> steps;
  for (const ExchangeStep& s :
       shared_position_schedule(dim.kind, dim.size, api.all_port()).of_position[static_cast<std::size_t>(api.id())]) {
    MachineStep step;
    for (const BlockTransfer& t : s) step.push_back({t.from, t.to, {t.source, t.destination}});
    steps.push_back(std::move(step));
  }
  run_machine_steps(api, steps);
}

void dima_a2(NodeApi& api) {
  run_machine_steps(api, A2Schedule(api.topology(), api.id()).exchange(all_dimensions(api.topology()),
                                                             [](int x, int y) { return BlockId{x, y}; }));
}

// Corollary 4: n^(d-1) T_H with T_H the multiport steps of one dimension.
std::uint64_t a2_steps(const Topology& topology) {
  const Dimension& h = topology.dimension(0);
  std::uint64_t steps = dimension_exchange_schedule(h.kind, h.size, true).size();
  for (int d = 1; d < topology.num_dimensions(); ++d) steps *= static_cast<std::uint64_t>(h.size);
  return steps;
}

std::optional<std::string> why_unsupported_a2(const Topology& topology, const ExchangeParameters& p) {
  const int k = topology.num_dimensions();
  for (int d = 1; d < k; ++d)
    if (topology.dimension(d).kind != topology.dimension(0).kind ||
        topology.dimension(d).size != topology.dimension(0).size)
      return ConfigError("topology", topology.spec(),
                         "dima-a2 runs on homogeneous products H^d (every dimension the same graph; 002 §5)")
          .what();
  if ((k & (k - 1)) != 0)
    return ConfigError("topology", topology.spec(),
                       "dima-a2 needs a power of 2 dimensions (002 §5: G = A x B with A = B, recursively)")
        .what();
  if (!p.all_port)
    return ConfigError("node.port_model", "one-port", "dima-a2 is multiport: it needs all-port nodes "
                       "(--port-model all-port)")
        .what();
  if (topology.num_nodes() > 4096)
    return ConfigError("topology", topology.spec(),
                       "dima-a2 runs up to 4,096 nodes (its n^(d-1) T_H steps grow past what a run can wait for)")
        .what();
  return std::nullopt;
}

std::optional<std::string> why_unsupported_1d(const Topology& topology, const ExchangeParameters&) {
  if (topology.num_dimensions() != 1)
    return ConfigError("topology", topology.spec(),
                       "dima-1d runs on one dimension (ring:K, mesh:K for a path, ghc:M for a complete graph, "
                       "hypercube:1)")
        .what();
  return std::nullopt;
}

std::vector<Algorithm> dima_exchange_algorithms() {
  Algorithm one;
  one.name = "dima-1d";
  one.summary = "total exchange in one dimension, one block one link per step: 2-node, complete, ring or path";
  one.source = "002 §3 (bounds), §4 (per-dimension total exchange)";
  one.options = {{"sync", AlgorithmOption::Type::Choice, "none",
                  "none; barrier: the hardware barrier before every step after the first (002's synchronized "
                  "steps)",
                  {"none", "barrier"}}};
  one.why_unsupported = why_unsupported_1d;
  one.firmware = dima_1d;
  one.estimate_cycles = [](const Topology& topology, const ExchangeParameters& p) {
    // Every step moves one block one hop: t_s + m t_c.
    return static_cast<double>(schedule_of(topology, p.all_port).size()) * step_cost_cycles(p, p.block_bytes);
  };
  one.estimate_formula = "steps x (t_s + m t_c), the steps of the dimension's schedule";
  one.scratch_bytes = [](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions&) {
    const std::uint32_t block_bytes = parameters.block_bytes;
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
  a1.why_unsupported = [](const Topology&, const ExchangeParameters&) -> std::optional<std::string> { return std::nullopt; };
  a1.firmware = dima_a1;
  a1.estimate_cycles = [](const Topology& topology, const ExchangeParameters& p) {
    return static_cast<double>(a1_steps(topology)) * step_cost_cycles(p, p.block_bytes);
  };
  a1.estimate_formula = "002 Corollary 3: n sum_i T_i / |V_i| steps x (t_s + m t_c)";
  // A node receives at most one block per step.
  a1.scratch_bytes = [](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions&) {
    const std::uint32_t block_bytes = parameters.block_bytes;
    return a1_steps(topology) * block_bytes;
  };
  Algorithm a2;
  a2.name = "dima-a2";
  a2.summary = "Algorithm A2 on H^d, d a power of 2: exchanges in both halves at once, multiport";
  a2.source = "002 §5 (Fig. 5 reconstructed, Theorem 4, Corollary 4, Theorem 5)";
  a2.options = one.options;
  a2.why_unsupported = why_unsupported_a2;
  a2.firmware = dima_a2;
  a2.estimate_cycles = [](const Topology& topology, const ExchangeParameters& p) {
    return static_cast<double>(a2_steps(topology)) * step_cost_cycles(p, p.block_bytes);
  };
  a2.estimate_formula = "002 Corollary 4: n^(d-1) T_H steps x (t_s + m t_c)";
  // A node receives at most one block per link per step.
  a2.scratch_bytes = [](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions&) {
    const std::uint32_t block_bytes = parameters.block_bytes;
    return a2_steps(topology) * static_cast<std::uint64_t>(topology.num_ports()) * block_bytes;
  };
  return {one, a1, a2};
}

const AlgorithmFamilyRegistration kRegistration{50, dima_exchange_algorithms};

}  // namespace

}  // namespace meshmp
