// Personalized communication on spanning trees of the Boolean n-cube (003 §3.1, §3.2, §5):
//  - jh-sbt: one-to-all personalized communication from a root on the spanning binomial tree, one-port,
//    store-and-forward: every node receives the blocks of its whole subtree in one message (cut into
//    packets of at most packet_bytes), then sends each child its subtree, largest first (003 §3.1,
//    "scheduling all data for a subtree at once"). The tree is the reflected SBT of §3.1's note
//    (children by complementing trailing zeros: the subtree of relative node x is x .. x + 2^lsb(x) - 1),
//    translated to the root by XOR (§3.2), so every subtree's blocks are one contiguous range.
//    T = (1 - 1/N) PQ t_c + sum_{i=1..n} ceil(PQ / (2^i B)) tau.
//  - jh-sbnt: the transpose's all-to-all personalized communication on n rotated spanning binomial trees
//    (the §5 pseudo-code "Transposition by a SBnT Algorithm"), for n-port nodes: the block for node j
//    leaves on the port of dimension base(me XOR j) (the fewest right rotations giving the smallest
//    rotation of the relative address) and, at each hop, continues on the nearest 1-bit of the relative
//    address to the left of the dimension it arrived on, cyclically; n rounds, in each a message on
//    every port with the blocks routed there, ordered by relative address. Each port carries PQ/(2N)
//    elements in all; T_min = PQ/(2N) t_c + n tau (003 §3.2).
#include <algorithm>

#include "firmware/api/algorithm_registry.h"
#include "firmware/api/shared_plan_cache.h"
#include "firmware/paper003/transpose_moves.h"
#include "firmware/paper003/transpose_workload.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

int lowest_set_bit(int x) { return __builtin_ctz(static_cast<unsigned>(x)); }

void jh_sbt(NodeApi& api) {
  const ExchangeLayout& l = api.layout();
  const int n = api.topology().num_dimensions();
  const int root = one_to_all_root(api.workload());
  const int me = api.id();
  const int relative = me ^ root;
  const auto packet_bytes = static_cast<std::uint32_t>(api.options().integer("packet_bytes"));
  const int span = relative == 0 ? n : lowest_set_bit(relative);  // my subtree holds 2^span nodes
  // My subtree's blocks: the aligned range of node ids holding me, in the send buffer at the root and in
  // the receive buffer elsewhere (slot j of node j's receive buffer is where its block must end).
  const std::uint32_t m = l.block_bytes;
  const int first = (me >> span) << span;
  const std::uint32_t base = relative == 0 ? l.send_base() : l.receive_base();
  if (relative != 0) {
    const int parent = (relative & (relative - 1)) ^ root;
    receive_packets(api, parent, base + static_cast<std::uint32_t>(first) * m, (1u << span) * m, packet_bytes, 0);
    api.wait_all();
  }
  for (int j = span - 1; j >= 0; --j) {
    api.begin_step(n - 1 - j);  // the send to a child of span j happens in the tree's step n - j
    const int child = me ^ (1 << j);
    const int child_first = (child >> j) << j;
    send_packets(api, child, base + static_cast<std::uint32_t>(child_first) * m, (1u << j) * m, packet_bytes, 0);
  }
  if (relative == 0) api.local_copy(l.receive_block(me), l.send_block(me), m);
  api.wait_all();
}

// 003 §5: base(d) = the fewest right rotations of d's n bits giving the smallest of its rotations.
int sbnt_base(int d, int n) {
  const int mask = (1 << n) - 1;
  int best = d, base = 0;
  for (int k = 1; k < n; ++k) {
    const int rotated = ((d >> k) | (d << (n - k))) & mask;
    if (rotated < best) best = rotated, base = k;
  }
  return base;
}

// The dimensions a block with relative address d crosses, in order: from base(d), each next the nearest
// 1-bit to the left of the previous one, cyclically.
std::vector<int> sbnt_path(int d, int n) {
  std::vector<int> path;
  if (d == 0) return path;
  const int start = sbnt_base(d, n);
  for (int k = 0; k < n; ++k) {
    const int bit = (start + k) % n;
    if ((d >> bit) & 1) path.push_back(bit);
  }
  return path;
}

// The routes of every relative address, the same at every node: built once per n and shared by the nodes
// (each node then reads only the lists of its own rounds and ports).
struct SbntRoutes {
  int n;
  std::vector<std::vector<int>> path;                  // by relative address
  std::vector<std::vector<std::vector<int>>> crossing;  // [round - 1][p]: see on_port
  explicit SbntRoutes(int dimensions) : n(dimensions), path(1u << dimensions) {
    crossing.assign(static_cast<std::size_t>(n), std::vector<std::vector<int>>(static_cast<std::size_t>(n)));
    for (int d = 0; d < (1 << n); ++d) {
      path[d] = sbnt_path(d, n);
      for (std::size_t h = 0; h < path[d].size(); ++h) crossing[h][static_cast<std::size_t>(path[d][h])].push_back(d);
    }
  }
  // The relative addresses whose blocks cross dimension p in round r (1-based), ascending.
  const std::vector<int>& on_port(int round, int p) const {
    return crossing[static_cast<std::size_t>(round - 1)][static_cast<std::size_t>(p)];
  }
};

const SbntRoutes& shared_sbnt_routes(int n) {
  static SharedPlanCache<SbntRoutes> cache;
  return *cache.get(std::to_string(n), [n] { return SbntRoutes(n); });
}

// One node's state in SBnT: its blocks, the routes, and the blocks it sends in the coming round, per port.
struct SbntNode {
  const TransposeLayout& l;
  int n, me;
  std::uint32_t e;
  std::uint64_t block;
  std::uint32_t block_bytes, packet_bytes;
  TransposeTraffic traffic;
  const SbntRoutes& routes;
  std::uint32_t out_base, in_base;            // scratch: the outgoing blocks (by port), the incoming ones
  std::vector<std::vector<int>> out_list;     // per port: the relative addresses, ascending
  std::vector<std::uint32_t> out_at;          // per port: where its blocks start
};

// My own block into place, and round 1's blocks packed per port in the order of their relative addresses.
void pack_first_round(NodeApi& api, SbntNode& node) {
  const TransposeLayout& l = node.l;
  std::vector<std::uint32_t> to, from;
  for (std::size_t i = 0; i < node.traffic.send_slots[node.me].size(); ++i) {
    to.push_back(l.output_address(node.traffic.receive_slots[node.me][i]));
    from.push_back(l.input_address(node.traffic.send_slots[node.me][i]));
  }
  std::uint32_t next = node.out_base;
  for (int p = 0; p < node.n; ++p) {
    node.out_list[p] = node.routes.on_port(1, p);
    node.out_at[p] = next;
    for (int d : node.out_list[p]) {
      const int dst = node.me ^ d;
      for (std::size_t i = 0; i < node.traffic.send_slots[dst].size(); ++i) {
        to.push_back(next + static_cast<std::uint32_t>(i * node.e));
        from.push_back(l.input_address(node.traffic.send_slots[dst][i]));
      }
      next += node.block_bytes;
    }
  }
  copy_elements(api, to, from, node.e);
}

// A round's exchange on every port at once: what arrives on each port (the neighbour's blocks routed
// across that dimension in this round) lands at in_at[p], in the order of in_list[p].
void exchange_round(NodeApi& api, const SbntNode& node, int round, std::vector<std::vector<int>>& in_list,
                    std::vector<std::uint32_t>& in_at) {
  std::uint32_t next = node.in_base;
  const auto tag = static_cast<std::uint32_t>(round);
  for (int p = 0; p < node.n; ++p) {
    in_list[p] = node.routes.on_port(round, p);
    in_at[p] = next;
    const auto bytes = static_cast<std::uint32_t>(in_list[p].size()) * node.block_bytes;
    next += bytes;
    if (bytes)
      receive_packets(api, node.me ^ (1 << p), in_at[p], bytes, node.packet_bytes, tag);
  }
  for (int p = 0; p < node.n; ++p) {
    const auto bytes = static_cast<std::uint32_t>(node.out_list[p].size()) * node.block_bytes;
    if (bytes)
      send_packets(api, node.me ^ (1 << p), node.out_at[p], bytes, node.packet_bytes, tag);
  }
  api.wait_all();
}

// Blocks that arrived home go into place; the others move to the port of their next dimension, in the
// order of their relative addresses.
void place_and_forward(NodeApi& api, SbntNode& node, int round, const std::vector<std::vector<int>>& in_list,
                       const std::vector<std::uint32_t>& in_at) {
  std::vector<std::uint32_t> to, from;
  std::vector<std::vector<std::pair<int, std::uint32_t>>> forward(node.n);  // per port: (relative, where it is)
  for (int p = 0; p < node.n; ++p)
    for (std::size_t k = 0; k < in_list[p].size(); ++k) {
      const int d = in_list[p][k];
      const std::uint32_t at = in_at[p] + static_cast<std::uint32_t>(k) * node.block_bytes;
      if (static_cast<int>(node.routes.path[d].size()) == round) {
        const int src = node.me ^ d;
        for (std::size_t i = 0; i < node.traffic.receive_slots[src].size(); ++i) {
          to.push_back(node.l.output_address(node.traffic.receive_slots[src][i]));
          from.push_back(at + static_cast<std::uint32_t>(i * node.e));
        }
      } else {
        forward[node.routes.path[d][round]].emplace_back(d, at);
      }
    }
  std::uint32_t out_next = node.out_base;
  for (int p = 0; p < node.n; ++p) {
    std::sort(forward[p].begin(), forward[p].end());
    node.out_list[p].clear();
    node.out_at[p] = out_next;
    for (const auto& [d, at] : forward[p]) {
      node.out_list[p].push_back(d);
      for (std::uint64_t b = 0; b < node.block; ++b) {
        to.push_back(out_next + static_cast<std::uint32_t>(b * node.e));
        from.push_back(at + static_cast<std::uint32_t>(b * node.e));
      }
      out_next += node.block_bytes;
    }
  }
  copy_elements(api, to, from, node.e);
}

void jh_sbnt(NodeApi& api) {
  const TransposeLayout& l = transpose_layout(api);
  const int n = l.node_bits();
  const int nodes = 1 << n;
  const std::uint32_t e = l.element_bytes();
  const std::uint64_t block = l.elements_per_node() / nodes;
  const auto block_bytes = static_cast<std::uint32_t>(block * e);
  const auto out_base = static_cast<std::uint32_t>(l.scratch_base());
  SbntNode node{l,
                n,
                api.id(),
                e,
                block,
                block_bytes,
                packet_bytes_of(static_cast<std::uint64_t>(api.options().integer("packet_elements")), e),
                transpose_traffic(l, api.id()),
                shared_sbnt_routes(n),
                out_base,
                out_base + static_cast<std::uint32_t>(nodes) * block_bytes,
                std::vector<std::vector<int>>(n),
                std::vector<std::uint32_t>(n)};
  api.begin_step(0);
  pack_first_round(api, node);
  for (int round = 1; round <= n; ++round) {
    if (round > 1) api.begin_step(round - 1);
    std::vector<std::vector<int>> in_list(n);
    std::vector<std::uint32_t> in_at(n);
    exchange_round(api, node, round, in_list, in_at);
    place_and_forward(api, node, round, in_list, in_at);
  }
}

std::vector<Algorithm> jh_tree_algorithms() {
  Algorithm sbt;
  sbt.name = "jh-sbt";
  sbt.summary = "one-to-all personalized on the spanning binomial tree, whole subtrees per message, largest first";
  sbt.source = "003 §3.1";
  sbt.workload = "one-to-all";
  sbt.options = {integer_option("packet_bytes", 0, 0, kLargestSizeOption,
                                "B (in bytes): most bytes per packet, each packet one start-up (0: no limit)")};
  sbt.why_unsupported = [](const Topology& topology, const ExchangeParameters&) { return boolean_cube_rule(topology, "jh-sbt"); };
  sbt.firmware = [](NodeApi& api) { jh_sbt(api); };
  sbt.estimate_cycles = [](const Topology& topology, const ExchangeParameters& parameters) {
    const double nodes = topology.num_nodes();
    return (nodes - 1) * parameters.block_bytes / parameters.flit_bytes +
           topology.num_dimensions() * static_cast<double>(parameters.startup_cycles);
  };
  sbt.estimate_formula = "003 §3.1: (1 - 1/N) PQ t_c + sum_i ceil(PQ/(2^i B)) tau, one packet per subtree";
  sbt.scratch_bytes = [](const Topology&, const ExchangeParameters&, const AlgorithmOptions& options) -> std::uint64_t {
    require_non_negative(options, {"packet_bytes"});
    return 0;
  };

  Algorithm sbnt;
  sbnt.name = "jh-sbnt";
  sbnt.summary = "1-D transpose (all-to-all personalized) on n rotated spanning binomial trees, n-port";
  sbnt.source = "003 §3.2, §5 (SBnT pseudo-code)";
  sbnt.workload = "transpose";
  sbnt.options = {integer_option("packet_elements", 0, 0, kLargestSizeOption,
                                 "B: most elements per packet, each packet one start-up (0: no limit)")};
  sbnt.why_unsupported = [](const Topology& topology, const ExchangeParameters& parameters) {
    return all_to_all_transpose_rule(topology, parameters, "jh-sbnt");
  };
  sbnt.firmware = jh_sbnt;
  sbnt.estimate_cycles = [](const Topology& topology, const ExchangeParameters& parameters) {
    const TransposeLayout l = transpose_layout_for(topology, parameters);
    return static_cast<double>(l.region_bytes()) / 2 / parameters.flit_bytes +
           l.node_bits() * static_cast<double>(parameters.startup_cycles);
  };
  sbnt.estimate_formula = "003 §3.2: T_min = PQ/(2N) t_c + n tau";
  sbnt.scratch_bytes = [](const Topology& topology, const ExchangeParameters& parameters,
                          const AlgorithmOptions& options) -> std::uint64_t {
    require_non_negative(options, {"packet_elements"});
    return transpose_scratch(topology, parameters, 2);
  };
  return {sbt, sbnt};
}

const AlgorithmFamilyRegistration kRegistration{71, jh_tree_algorithms};

}  // namespace

}  // namespace meshmp
