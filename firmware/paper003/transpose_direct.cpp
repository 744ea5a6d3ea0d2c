// The transpose by the routing logic alone (003 §8.2.1, Figure 14(b)): every node packs the elements it
// owes each other node, in the receiver's storage order, and sends them straight to it as one message;
// the receiver unpacks them into place. Any placement, any machine with 2^n nodes: the baseline the
// hypercube algorithms are measured against, and the check of the transpose workload itself.
#include "firmware/api/algorithm_registry.h"
#include "firmware/paper003/transpose_moves.h"
#include "firmware/paper003/transpose_workload.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

void transpose_direct(NodeApi& api) {
  const TransposeLayout& l = transpose_layout(api);
  const int n = api.num_nodes();
  const int me = api.id();
  const std::uint32_t e = l.element_bytes();
  const TransposeTraffic traffic = transpose_traffic(l, me);
  // Scratch: the packed outgoing elements, then the incoming ones, each grouped by node in id order.
  const auto pack_base = static_cast<std::uint32_t>(l.scratch_base());
  const auto unpack_base = static_cast<std::uint32_t>(l.scratch_base() + l.region_bytes());
  std::vector<std::uint32_t> pack_at(n + 1, pack_base), unpack_at(n + 1, unpack_base);
  for (int k = 0; k < n; ++k) {
    pack_at[k + 1] = pack_at[k] + static_cast<std::uint32_t>(traffic.send_slots[k].size() * e);
    unpack_at[k + 1] = unpack_at[k] + static_cast<std::uint32_t>(traffic.receive_slots[k].size() * e);
  }
  for (int k = 1; k < n; ++k) {
    const int src = (me - k + n) % n;
    const auto bytes = unpack_at[src + 1] - unpack_at[src];
    if (bytes) api.receive(src, unpack_at[src], bytes, 0);
  }
  // Pack, in the staggered order i+1, i+2, ... (mod N), each destination's elements, and send them.
  for (int k = 0; k < n; ++k) {
    const int dst = (me + k) % n;
    std::vector<std::uint32_t> to, from;
    for (std::size_t i = 0; i < traffic.send_slots[dst].size(); ++i) {
      from.push_back(l.input_address(traffic.send_slots[dst][i]));
      // The elements that stay go straight to their output slots.
      to.push_back(dst == me ? l.output_address(traffic.receive_slots[me][i]) : pack_at[dst] + static_cast<std::uint32_t>(i * e));
    }
    copy_elements(api, to, from, e);
    if (dst != me && !to.empty()) {
      api.begin_step(k);
      api.send(dst, pack_at[dst], pack_at[dst + 1] - pack_at[dst], 0);
    }
  }
  api.wait_all();
  for (int src = 0; src < n; ++src) {
    if (src == me) continue;
    std::vector<std::uint32_t> to, from;
    for (std::size_t i = 0; i < traffic.receive_slots[src].size(); ++i) {
      to.push_back(l.output_address(traffic.receive_slots[src][i]));
      from.push_back(unpack_at[src] + static_cast<std::uint32_t>(i * e));
    }
    copy_elements(api, to, from, e);
  }
}

std::vector<Algorithm> transpose_direct_algorithms() {
  Algorithm direct;
  direct.name = "transpose-direct";
  direct.summary = "transpose by the routing logic: each node sends every other node its elements in one message";
  direct.source = "003 §8.2.1 (Figure 14(b))";
  direct.workload = "transpose";
  direct.why_unsupported = [](const Topology& topology, const ExchangeParameters& parameters) -> std::optional<std::string> {
    try {
      transpose_layout_for(topology, parameters);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::nullopt;
  };
  direct.firmware = transpose_direct;
  // N-1 messages of PQ/N^2 elements when the traffic is all-to-all: (N-1)(t_s + PQ/N^2 e t_c).
  direct.estimate_cycles = [](const Topology& topology, const ExchangeParameters& parameters) {
    const TransposeLayout l = transpose_layout_for(topology, parameters);
    const double n = topology.num_nodes();
    return (n - 1) * step_cost_cycles(parameters, static_cast<double>(l.region_bytes()) / n);
  };
  direct.estimate_formula = "(N-1)(t_s + PQ/N^2 e t_c), all-to-all traffic";
  direct.scratch_bytes = [](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions&) {
    return transpose_scratch(topology, parameters, 2);
  };
  return {direct};
}

const AlgorithmFamilyRegistration kRegistration{60, transpose_direct_algorithms};

}  // namespace

}  // namespace meshmp
