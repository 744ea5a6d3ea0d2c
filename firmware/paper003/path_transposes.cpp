// Two-dimensional transposes along edge-disjoint paths (003 §6.1): jh-spt (one path per node), jh-dpt (two)
// and jh-mpt (2H(x)), for a matrix partitioned 2-D the same way before and after with rows and columns
// encoded alike, where node x sends all its elements to tr(x) (firmware/paper003/transpose_paths.h has the paths).
// The source packs its elements in tr(x)'s storage order, cuts them into packets of at most B elements,
// and the packets travel one of two ways (option `mode`):
//  - store-and-forward (the paper's model, §6.1: a packet moves one hop per routing cycle of
//    tau + B t_c): every node forwards the packets passing through it one hop per routing cycle, each
//    cycle a step closed by the hardware barrier; SPT takes ceil(PQ/(BN)) + n - 1 cycles, DPT
//    ceil(PQ/(2BN)) + n - 1, MPT 2kH + 1 for class H with 2k packets per path;
//  - wormhole: each packet is one message along its path as a source route, straight to tr(x).
// jh-mpt's packet size: one B for all (packet_size=uniform, option packet_elements) or Theorem 2's
// optimum for each class H (packet_size=per-class: 4kH packets, k optimal and at least 1).
// Reading chosen (evidence in docs/architecture.md): SPT routes g(i) (column dimension) before f(i)
// (row), as §6.1.1 writes; §6.1.3's path 0 routes the row dimension first, so SPT's path is MPT's path
// H(x), and DPT's two paths are MPT's paths 0 and H(x) as §6.1.3 says.
#include <algorithm>
#include <cmath>
#include <string>

#include "firmware/api/algorithm_registry.h"
#include "firmware/api/shared_plan_cache.h"
#include "firmware/paper003/transpose_moves.h"
#include "firmware/paper003/transpose_paths.h"
#include "firmware/paper003/transpose_workload.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

// The packet size node x uses (0: one packet per path).
std::uint64_t packet_elements_of(const NodeApi& api, TransposePaths kind, const TransposeLayout& l, int x) {
  if (kind == TransposePaths::Multiple && api.options().text("packet_size") == "per-class") {
    const int h = transpose_distance(x, l.node_bits());
    if (h == 0) return 0;
    const ExchangeParameters cost = api.cost_parameters();
    return mpt_class_packet_elements(l.elements_per_node(), h, static_cast<double>(l.element_bytes()) / cost.flit_bytes,
                                     static_cast<double>(cost.startup_cycles));
  }
  return static_cast<std::uint64_t>(api.options().integer("packet_elements"));
}

// A stop of some packet at this node: at `cycle` it is here, having arrived on `in_dimension` the cycle
// before (-1: it starts here), and leaves on `out_dimension` during `cycle` (-1: it ends here).
struct Hop {
  std::uint64_t cycle = 0;
  PathPacket packet;
  int in_dimension = -1;   // the dimension it arrived on, the cycle before (-1: this node is its source)
  int out_dimension = -1;  // the dimension it leaves on during `cycle` (-1: this node is its destination)
};

// Where a node keeps its packed elements, the elements arriving for it, and two areas of in-transit packets.
struct PathAreas {
  std::uint32_t packed = 0, arrived = 0, transit = 0;
};

// Wormhole: each packet one message along its path as a source route, straight to tr(x).
void wormhole_transpose(NodeApi& api, TransposePaths kind, const TransposeLayout& l, const PathAreas& areas) {
  const int n = l.node_bits();
  const int me = api.id();
  const std::uint32_t e = l.element_bytes();
  const std::uint64_t elements = l.elements_per_node();
  const int source = transposed_node(me, n);  // the node sending to me, and the node I send to
  for (const PathPacket& p : transpose_packets(kind, source, n, elements, packet_elements_of(api, kind, l, source)))
    api.receive(source, areas.arrived + static_cast<std::uint32_t>(p.offset * e), static_cast<std::uint32_t>(p.elements * e),
                static_cast<std::uint32_t>(p.path));
  const auto paths = transpose_paths(kind, me, n);
  for (const PathPacket& p : transpose_packets(kind, me, n, elements, packet_elements_of(api, kind, l, me))) {
    std::vector<int> route;
    for (int dim : paths[p.path]) route.push_back(cube_port(api.topology(), dim));
    api.send(source, areas.packed + static_cast<std::uint32_t>(p.offset * e), static_cast<std::uint32_t>(p.elements * e),
             static_cast<std::uint32_t>(p.path), route);
  }
  api.wait_all();
}

// Every node's stops of every packet, each node's in cycle order (at cycle departure + h a packet is at
// hop h of its path), and the routing cycles until the last packet arrives: one walk of every node's
// paths, built once per machine and shared by its nodes (the first to start builds it), instead of a walk
// of the whole machine's paths at every node. A node's list is the stops at it in the walk's order (node,
// path, hop, packet), then sorted by cycle.
struct MachineStops {
  std::vector<std::vector<Hop>> at_node;
  std::uint64_t cycles = 0;
};

const MachineStops& machine_stops(NodeApi& api, TransposePaths kind, const TransposeLayout& l) {
  static SharedPlanCache<MachineStops> cache;  // keyed by every input of the packets and paths
  const int n = l.node_bits();
  const ExchangeParameters cost = api.cost_parameters();
  std::string key = std::to_string(static_cast<int>(kind)) + "|" + std::to_string(n) + "|" +
                    std::to_string(l.elements_per_node()) + "|" + std::to_string(l.element_bytes()) + "|" +
                    std::to_string(cost.flit_bytes) + "|" + std::to_string(cost.startup_cycles) + "|" +
                    (kind == TransposePaths::Multiple ? api.options().text("packet_size") : std::string()) + "|" +
                    std::to_string(api.options().integer("packet_elements"));
  return *cache.get(key, [&] {
    MachineStops stops;
    stops.at_node.resize(static_cast<std::size_t>(1) << n);
    for (int x = 0; x < (1 << n); ++x) {
      const auto paths = transpose_paths(kind, x, n);
      if (paths.empty()) continue;
      const std::vector<PathPacket> packets =
          transpose_packets(kind, x, n, l.elements_per_node(), packet_elements_of(api, kind, l, x));
      for (const PathPacket& p : packets)
        stops.cycles = std::max<std::uint64_t>(stops.cycles, p.departure + paths[p.path].size());
      for (std::size_t path = 0; path < paths.size(); ++path) {
        int at = x;
        for (std::size_t h = 0; h <= paths[path].size(); ++h) {
          for (const PathPacket& p : packets)
            if (p.path == static_cast<int>(path)) {
              Hop hop;
              hop.cycle = p.departure + h;
              hop.packet = p;
              hop.in_dimension = h == 0 ? -1 : paths[path][h - 1];
              hop.out_dimension = h == paths[path].size() ? -1 : paths[path][h];
              stops.at_node[static_cast<std::size_t>(at)].push_back(hop);
            }
          if (h < paths[path].size()) at ^= 1 << paths[path][h];
        }
      }
    }
    for (std::vector<Hop>& hops : stops.at_node)
      std::sort(hops.begin(), hops.end(), [](const Hop& a, const Hop& b) { return a.cycle < b.cycle; });
    return stops;
  });
}

// Store-and-forward (§6.1): every node forwards the packets passing through it one hop per routing cycle,
// each cycle a step closed by the hardware barrier. A packet arriving during cycle t waits in area t mod 2,
// slot of its incoming dimension, and leaves during t + 1 (the paths are edge-disjoint per cycle: one
// packet per incoming link and cycle).
void store_and_forward_transpose(NodeApi& api, TransposePaths kind, const TransposeLayout& l, const PathAreas& areas) {
  const int n = l.node_bits();
  const int me = api.id();
  const std::uint32_t e = l.element_bytes();
  const MachineStops& stops = machine_stops(api, kind, l);
  const std::vector<Hop>& hops = stops.at_node[static_cast<std::size_t>(me)];
  const std::uint64_t cycles = stops.cycles;
  std::uint64_t largest = 0;
  for (const Hop& hop : hops) largest = std::max(largest, hop.packet.elements);
  const auto slot_bytes = static_cast<std::uint32_t>(largest * e);
  auto transit = [&](std::uint64_t cycle, int dimension) {
    return areas.transit + static_cast<std::uint32_t>(((cycle % 2) * n + dimension) * slot_bytes);
  };
  std::size_t leaving = 0, arriving = 0;  // the first stop at cycle t, at cycle t + 1
  for (std::uint64_t t = 0; t < cycles; ++t) {
    if (t > 0) api.begin_step(static_cast<int>(t));
    while (arriving < hops.size() && hops[arriving].cycle <= t) ++arriving;
    for (std::size_t k = arriving; k < hops.size() && hops[k].cycle == t + 1; ++k) {
      const Hop& hop = hops[k];
      if (hop.in_dimension < 0) continue;
      const std::uint32_t at = hop.out_dimension < 0 ? areas.arrived + static_cast<std::uint32_t>(hop.packet.offset * e)
                                                     : transit(t, hop.in_dimension);
      api.receive(me ^ (1 << hop.in_dimension), at, static_cast<std::uint32_t>(hop.packet.elements * e),
                  static_cast<std::uint32_t>(t));
    }
    while (leaving < hops.size() && hops[leaving].cycle < t) ++leaving;
    for (std::size_t k = leaving; k < hops.size() && hops[k].cycle == t; ++k) {
      const Hop& hop = hops[k];
      if (hop.out_dimension < 0) continue;
      const std::uint32_t at = hop.in_dimension < 0 ? areas.packed + static_cast<std::uint32_t>(hop.packet.offset * e)
                                                    : transit(t - 1, hop.in_dimension);
      api.send(me ^ (1 << hop.out_dimension), at, static_cast<std::uint32_t>(hop.packet.elements * e),
               static_cast<std::uint32_t>(t));
    }
    api.wait_all();
    api.hardware_barrier();
  }
}

void path_transpose(NodeApi& api, TransposePaths kind) {
  const TransposeLayout& l = transpose_layout(api);
  const int n = l.node_bits();
  const int me = api.id();
  const std::uint32_t e = l.element_bytes();
  const TransposeTraffic traffic = transpose_traffic(l, me);
  const int partner = transposed_node(me, n);
  PathAreas areas;
  areas.packed = static_cast<std::uint32_t>(l.scratch_base());
  areas.arrived = areas.packed + static_cast<std::uint32_t>(l.region_bytes());
  areas.transit = areas.arrived + static_cast<std::uint32_t>(l.region_bytes());

  api.begin_step(0);
  {
    std::vector<std::uint32_t> to, from;
    for (std::size_t i = 0; i < traffic.send_slots[partner].size(); ++i) {
      to.push_back(partner == me ? l.output_address(traffic.receive_slots[me][i]) : areas.packed + static_cast<std::uint32_t>(i * e));
      from.push_back(l.input_address(traffic.send_slots[partner][i]));
    }
    copy_elements(api, to, from, e);
  }
  if (api.options().text("mode") == "wormhole") wormhole_transpose(api, kind, l, areas);
  else store_and_forward_transpose(api, kind, l, areas);
  // Unpack what arrived for me into its output slots.
  if (partner != me) {
    std::vector<std::uint32_t> to, from;
    for (std::size_t i = 0; i < traffic.receive_slots[partner].size(); ++i) {
      to.push_back(l.output_address(traffic.receive_slots[partner][i]));
      from.push_back(areas.arrived + static_cast<std::uint32_t>(i * e));
    }
    copy_elements(api, to, from, e);
  }
}

std::optional<std::string> why_unsupported_pairwise(const Topology& topology, const ExchangeParameters& parameters,
                                             const std::string& algorithm) {
  if (auto rule = boolean_cube_rule(topology, algorithm)) return rule;
  try {
    const TransposeLayout l = transpose_layout_for(topology, parameters);
    const MatrixPlacement& b = l.before();
    const MatrixPlacement& a = l.after();
    const bool two_d = b.partitioning == Partitioning::TwoDConsecutive || b.partitioning == Partitioning::TwoDCyclic;
    if (!two_d || a.partitioning != b.partitioning)
      return ConfigError("workload_options.partitioning", to_string(b.partitioning) + " -> " + to_string(a.partitioning),
                         algorithm + " moves node x's elements to tr(x) (003 §6.1): A and A^T need the same 2-D "
                         "partitioning (2d-consecutive or 2d-cyclic)")
          .what();
    if (b.row_gray != b.column_gray || a.row_gray != b.row_gray || a.column_gray != b.column_gray)
      return ConfigError("workload_options.row_encoding", b.row_gray ? "gray" : "binary",
                         algorithm + " needs rows and columns encoded alike, before and after (003 §6.1: then the "
                         "transpose is the permutation x -> tr(x)); mixed encodings are jh-gray-transpose's (§6.3)")
          .what();
  } catch (const ConfigError& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

// 003 §6.1.1 / §6.1.2: (ceil(PQ/(c B N)) + n - 1)(B t_c + tau) with c paths per node and B = PQ/(cN) (one
// packet per path) as the estimate; MPT: Theorem 2's T_min.
double path_estimate(const Topology& topology, const ExchangeParameters& parameters, TransposePaths kind) {
  const TransposeLayout l = transpose_layout_for(topology, parameters);
  const double n = l.node_bits();
  const double tau = static_cast<double>(parameters.startup_cycles);
  const double tc = static_cast<double>(l.element_bytes()) / parameters.flit_bytes;
  const double data = static_cast<double>(l.elements_per_node());  // PQ/N
  switch (kind) {
    case TransposePaths::Single: return n * (data * tc + tau);
    case TransposePaths::Dual: return n * (data / 2 * tc + tau);
    case TransposePaths::Multiple: {
      // Theorem 2.
      const double r = data * tc / tau;
      if (n >= std::sqrt(r)) return (n + 1) * tau + (n + 1) / (2 * n) * data * tc;
      if (n > std::sqrt(r / 2)) {
        if (static_cast<int>(n / 2) % 2 == 0) return (n / 2 + 3) * tau + (n + 6) / (2 * n + 8) * data * tc;
        return (n / 2 + 2) * tau + (n + 4) / (2 * n + 4) * data * tc;
      }
      return std::pow(std::sqrt(tau) + std::sqrt(data * tc / 2), 2);
    }
  }
  return 0;
}

Algorithm path_algorithm(TransposePaths kind) {
  Algorithm a;
  switch (kind) {
    case TransposePaths::Single:
      a.name = "jh-spt";
      a.summary = "2-D transpose along one path per node, pipelined in packets of B elements";
      a.source = "003 §6.1.1";
      a.estimate_formula = "003 §6.1.1 with one packet: n (PQ/N t_c + tau)";
      break;
    case TransposePaths::Dual:
      a.name = "jh-dpt";
      a.summary = "2-D transpose along two edge-disjoint paths per node, pipelined in packets of B elements";
      a.source = "003 §6.1.2";
      a.estimate_formula = "003 §6.1.2 with one packet per path: n (PQ/(2N) t_c + tau)";
      break;
    case TransposePaths::Multiple:
      a.name = "jh-mpt";
      a.summary = "2-D transpose along 2H(x) edge-disjoint paths per node, two packets per path every 2H(x) cycles";
      a.source = "003 §6.1.3";
      a.estimate_formula = "003 Theorem 2: T_min";
      break;
  }
  a.workload = "transpose";
  a.options = {{"mode", AlgorithmOption::Type::Choice, "store-and-forward",
                "store-and-forward: every node forwards packets one hop per routing cycle, a barrier closing each "
                "cycle (the paper's model); wormhole: each packet one message along its path as a source route",
                {"store-and-forward", "wormhole"}},
               integer_option("packet_elements", 0, 0, kLargestSizeOption, "B: most elements per packet (0: one packet per path)")};
  if (kind == TransposePaths::Multiple)
    a.options.push_back({"packet_size", AlgorithmOption::Type::Choice, "uniform",
                         "uniform: packet_elements for every node; per-class: Theorem 2's optimum for each H(x)",
                         {"uniform", "per-class"}});
  const std::string name = a.name;
  a.why_unsupported = [name](const Topology& topology, const ExchangeParameters& parameters) {
    return why_unsupported_pairwise(topology, parameters, name);
  };
  a.firmware = [kind](NodeApi& api) { path_transpose(api, kind); };
  a.estimate_cycles = [kind](const Topology& topology, const ExchangeParameters& parameters) {
    return path_estimate(topology, parameters, kind);
  };
  a.scratch_bytes = [](const Topology& topology, const ExchangeParameters& parameters,
                       const AlgorithmOptions& options) -> std::uint64_t {
    require_non_negative(options, {"packet_elements"});
    // Packed, arrived, and two in-transit areas of one packet per dimension (a packet is at most the data).
    return transpose_scratch(topology, parameters, 2 + 2 * static_cast<std::uint64_t>(topology.num_dimensions()));
  };
  return a;
}

std::vector<Algorithm> jh_path_algorithms() {
  return {path_algorithm(TransposePaths::Single), path_algorithm(TransposePaths::Dual),
          path_algorithm(TransposePaths::Multiple)};
}

const AlgorithmFamilyRegistration kRegistration{72, jh_path_algorithms};

}  // namespace

}  // namespace meshmp
