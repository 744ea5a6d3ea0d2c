// Whole-block transposes with code conversion and dimension permutations on a Boolean n-cube, one-port,
// every routing step closed by the hardware barrier (firmware/paper003/cube_block_schedules.h has the schedules):
//  - jh-gray-transpose (003 §6.3): a matrix partitioned 2-D alike before and after, whose node address
//    parts are binary or Gray coded, independently for rows and columns and for A and A^T; method
//    combined: the transpose and the conversions together in n routing steps (the section's pseudo-code
//    generalized to all four code changes); method naive: the conversions (n/2 - 1 steps each where the
//    codes differ) then the transpose in n steps, 2n - 2 in all for the section's case;
//  - jh-permute (003 §7): node x's block to the node whose bit i is x's bit delta(i): one parallel
//    swapping step when delta is its own inverse (bit reversal: the general exchange with f(i) = i,
//    g(i) = n-1-i), otherwise Lemma 15's halving, at most ceil(log2 n) parallel swapping steps; each
//    swap of dimensions (i, k) one exchange at distance two, two routing steps through a relay.
// Each node packs its block in the receiver's storage order before the first step and unpacks the block
// that reaches it after the last (003 §8.2.1's local rearrangement; charged rho per byte).
#include <functional>
#include <string>

#include "firmware/api/algorithm_registry.h"
#include "firmware/api/shared_plan_cache.h"
#include "firmware/paper003/block_moves.h"
#include "firmware/paper003/cube_block_schedules.h"
#include "firmware/paper003/permutation_workload.h"
#include "firmware/paper003/transpose_moves.h"
#include "firmware/paper003/transpose_workload.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

CodeChange codes_of(const TransposeLayout& l) {
  return {l.before().row_gray, l.before().column_gray, l.after().row_gray, l.after().column_gray};
}

MoveSchedule gray_transpose_schedule(const TransposeLayout& l, const std::string& method) {
  const int n = l.node_bits();
  const CodeChange codes = codes_of(l);
  return method == "naive" ? naive_gray_transpose_schedule(n, codes)
                           : combined_gray_transpose_schedule(n, gray_transpose_flags(n, codes));
}

// A schedule of the whole machine and each node's moves in it, built once per machine and shared
// (firmware/api/shared_plan_cache.h; `key` names every input of the schedule).
struct SharedMoves {
  MoveSchedule schedule;
  std::vector<std::vector<NodeMove>> by_node;
};
const SharedMoves& shared_moves(const std::string& key, int nodes, const std::function<MoveSchedule()>& build) {
  static SharedPlanCache<SharedMoves> cache;
  return *cache.get(key, [&] {
    SharedMoves moves;
    moves.schedule = build();
    moves.by_node = node_moves(moves.schedule, nodes);
    return moves;
  });
}

void jh_gray_transpose(NodeApi& api) {
  const TransposeLayout& l = transpose_layout(api);
  const int n = l.node_bits();
  const int me = api.id();
  const std::uint32_t e = l.element_bytes();
  const TransposeTraffic traffic = transpose_traffic(l, me);
  const int destination = gray_transpose_destination(me, n, codes_of(l));
  const CodeChange codes = codes_of(l);
  const std::string method = api.options().text("method");
  const SharedMoves& moves =
      shared_moves("gray|" + method + "|" + std::to_string(n) + "|" + std::to_string(codes.rows_gray_before) +
                       std::to_string(codes.columns_gray_before) + std::to_string(codes.rows_gray_after) +
                       std::to_string(codes.columns_gray_after),
                   1 << n, [&] { return gray_transpose_schedule(l, method); });
  BlockBuffers buffers;
  buffers.own_address = static_cast<std::uint32_t>(l.scratch_base());
  buffers.block_bytes = static_cast<std::uint32_t>(l.region_bytes());
  buffers.base = buffers.own_address + buffers.block_bytes;
  buffers.count = 3;
  buffers.packet_bytes = packet_bytes_of(static_cast<std::uint64_t>(api.options().integer("packet_elements")), e);
  buffers.first_step_begun = true;
  api.begin_step(0);  // the packing belongs to the first step
  {
    std::vector<std::uint32_t> to, from;
    for (std::size_t i = 0; i < traffic.send_slots[destination].size(); ++i) {
      to.push_back(buffers.own_address + static_cast<std::uint32_t>(i * e));
      from.push_back(l.input_address(traffic.send_slots[destination][i]));
    }
    copy_elements(api, to, from, e);
  }
  const auto held = run_block_moves(api, moves.schedule, moves.by_node[static_cast<std::size_t>(me)], buffers);
  if (held.size() != 1) throw FirmwareError("node " + std::to_string(me) + " ends holding " + std::to_string(held.size()) + " blocks");
  const auto [source, address] = *held.begin();
  std::vector<std::uint32_t> to, from;
  for (std::size_t i = 0; i < traffic.receive_slots[source].size(); ++i) {
    to.push_back(l.output_address(traffic.receive_slots[source][i]));
    from.push_back(address + static_cast<std::uint32_t>(i * e));
  }
  copy_elements(api, to, from, e);
}

void jh_permute(NodeApi& api) {
  const std::vector<int>& delta = dimension_permutation(api);
  const int n = static_cast<int>(delta.size());
  const std::uint32_t m = api.workload().unit_bytes();
  BlockBuffers buffers;
  buffers.own_address = 0;
  buffers.block_bytes = m;
  buffers.base = static_cast<std::uint32_t>(api.workload().scratch_base());
  buffers.count = 3;
  buffers.packet_bytes = static_cast<std::uint32_t>(api.options().integer("packet_bytes"));
  std::string key = "permute";
  for (int d : delta) key += "|" + std::to_string(d);
  const SharedMoves& moves = shared_moves(key, 1 << n, [&] { return parallel_swap_schedule(n, swapping_steps(delta)); });
  const auto held = run_block_moves(api, moves.schedule, moves.by_node[static_cast<std::size_t>(api.id())], buffers);
  if (held.size() != 1) throw FirmwareError("node " + std::to_string(api.id()) + " ends holding " + std::to_string(held.size()) + " blocks");
  api.local_copy(m, held.begin()->second, m);
}

std::optional<std::string> why_unsupported_gray(const Topology& topology, const ExchangeParameters& parameters) {
  if (auto rule = boolean_cube_rule(topology, "jh-gray-transpose")) return rule;
  try {
    const TransposeLayout l = transpose_layout_for(topology, parameters);
    const Partitioning b = l.before().partitioning;
    const bool two_d = b == Partitioning::TwoDConsecutive || b == Partitioning::TwoDCyclic;
    if (!two_d || l.after().partitioning != b)
      return ConfigError("workload_options.partitioning", to_string(b) + " -> " + to_string(l.after().partitioning),
                         "jh-gray-transpose moves whole blocks (003 §6.3): A and A^T need the same 2-D partitioning "
                         "(2d-consecutive or 2d-cyclic)")
          .what();
  } catch (const ConfigError& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

std::vector<Algorithm> jh_gray_permute_algorithms() {
  Algorithm gray;
  gray.name = "jh-gray-transpose";
  gray.summary = "2-D transpose combined with binary <-> Gray conversion of the node codes, in n routing steps";
  gray.source = "003 §6.3";
  gray.workload = "transpose";
  gray.options = {{"method", AlgorithmOption::Type::Choice, "combined",
                   "combined: transpose and conversions together, n routing steps; naive: conversions, then the "
                   "transpose, up to 2n - 2",
                   {"combined", "naive"}},
                  integer_option("packet_elements", 0, 0, kLargestSizeOption, "B: most elements per packet (0: whole blocks)")};
  gray.why_unsupported = why_unsupported_gray;
  gray.firmware = jh_gray_transpose;
  // One block per routing step, n steps: n (PQ/N t_c + tau) (the §8.2.1 estimate without copies).
  gray.estimate_cycles = [](const Topology& topology, const ExchangeParameters& parameters) {
    const TransposeLayout l = transpose_layout_for(topology, parameters);
    return l.node_bits() * step_cost_cycles(parameters, static_cast<double>(l.region_bytes()));
  };
  gray.estimate_formula = "003 §6.3 / §8.2.1: n (PQ/N t_c + tau)";
  gray.scratch_bytes = [](const Topology& topology, const ExchangeParameters& parameters,
                          const AlgorithmOptions& options) -> std::uint64_t {
    require_non_negative(options, {"packet_elements"});
    return transpose_scratch(topology, parameters, 4);
  };

  Algorithm permute;
  permute.name = "jh-permute";
  permute.summary = "dimension permutations (bit reversal, shuffles, any) by parallel swapping";
  permute.source = "003 §7 (Lemma 15)";
  permute.workload = "dimension-permutation";
  permute.options = {integer_option("packet_bytes", 0, 0, kLargestSizeOption, "most bytes per packet (0: whole blocks)")};
  permute.why_unsupported = [](const Topology& topology, const ExchangeParameters&) {
    return boolean_cube_rule(topology, "jh-permute");
  };
  permute.firmware = jh_permute;
  // Two routing steps per swapped pair: 2 sum_k pairs_k (t_s + m t_c); bit reversal: 2 floor(n/2) steps.
  permute.estimate_cycles = [](const Topology& topology, const ExchangeParameters& parameters) {
    const int n = topology.num_dimensions();
    return 2.0 * (n / 2) * step_cost_cycles(parameters, parameters.block_bytes);
  };
  permute.estimate_formula = "bit reversal: 2 floor(n/2) (t_s + m t_c)";
  permute.scratch_bytes = [](const Topology&, const ExchangeParameters& parameters,
                             const AlgorithmOptions& options) -> std::uint64_t {
    require_non_negative(options, {"packet_bytes"});
    return 3ull * parameters.block_bytes;
  };
  return {gray, permute};
}

const AlgorithmFamilyRegistration kRegistration{73, jh_gray_permute_algorithms};

}  // namespace

}  // namespace meshmp
