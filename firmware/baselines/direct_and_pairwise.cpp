// Two baseline complete-exchange algorithms that prove the machine, correct on every topology and size
// (the total exchange of 002 §1, the complete exchange of 000 §1 / 001 §1):
//  - direct: every node sends its N-1 blocks straight to their owners, in the staggered order
//    i+1, i+2, ... (mod N) so that not every node targets the same node at once (option order=ascending:
//    every node in the order 0, 1, 2, ..., the naive order in which all nodes target the same node);
//  - pairwise: N-1 steps; in step k node i sends block (i, i XOR k) and receives from i XOR k when N is
//    a power of two (contention-free on the hypercube under e-cube routing, 003 §3 standard exchange),
//    otherwise sends to i+k and receives from i-k (mod N).
// Both copy the node's own block locally (charged rho per byte).
#include "firmware/api/algorithm_registry.h"

namespace meshmp {
namespace {

void copy_own_block(NodeApi& api) {
  const ExchangeLayout& l = api.layout();
  api.local_copy(l.receive_block(api.id()), l.send_block(api.id()), l.block_bytes);
}

void direct_exchange(NodeApi& api) {
  const ExchangeLayout& l = api.layout();
  const int n = api.num_nodes();
  const int me = api.id();
  for (int k = 1; k < n; ++k) {
    const int src = (me - k + n) % n;
    api.receive(src, l.receive_block(src), l.block_bytes, 0);
  }
  const bool ascending = api.options().text("order") == "ascending";
  for (int k = 1; k < n; ++k) {
    api.begin_step(k);
    const int dst = ascending ? (k - 1 < me ? k - 1 : k) : (me + k) % n;
    api.send(dst, l.send_block(dst), l.block_bytes, 0);
  }
  copy_own_block(api);
  api.wait_all();
}

void pairwise_exchange(NodeApi& api) {
  const ExchangeLayout& l = api.layout();
  const int n = api.num_nodes();
  const int me = api.id();
  const bool power_of_two = (n & (n - 1)) == 0;
  for (int k = 1; k < n; ++k) {
    api.begin_step(k);
    const int to = power_of_two ? me ^ k : (me + k) % n;
    const int from = power_of_two ? me ^ k : (me - k + n) % n;
    api.send_receive(to, l.send_block(to), from, l.receive_block(from), l.block_bytes, static_cast<std::uint32_t>(k));
  }
  copy_own_block(api);
}

std::optional<std::string> any_machine(const Topology&, const ExchangeParameters&) { return std::nullopt; }

// N-1 messages of one block each, one after the other at every node: (N-1)(t_s + m t_c).
double n_minus_one_steps(const Topology& topology, const ExchangeParameters& parameters) {
  return (topology.num_nodes() - 1) * step_cost_cycles(parameters, parameters.block_bytes);
}

std::vector<Algorithm> baseline_exchange_algorithms() {
  Algorithm direct;
  direct.name = "direct";
  direct.summary = "every node sends its N-1 blocks straight to their owners, staggered";
  direct.source = "002 §1 (total exchange)";
  direct.why_unsupported = any_machine;
  direct.firmware = direct_exchange;
  direct.estimate_cycles = n_minus_one_steps;
  direct.estimate_formula = "000 §2 step cost, N-1 steps: (N-1)(t_s + m t_c)";
  direct.options = {{"order", AlgorithmOption::Type::Choice, "staggered",
                     "staggered: node i sends to i+1, i+2, ... (mod N); ascending: every node to 0, 1, 2, ...",
                     {"staggered", "ascending"}}};

  Algorithm pairwise;
  pairwise.name = "pairwise";
  pairwise.summary = "N-1 pairwise exchange steps (XOR partners on 2^k nodes, shifted partners otherwise)";
  pairwise.source = "003 §3 (standard exchange), 002 §1";
  pairwise.why_unsupported = any_machine;
  pairwise.firmware = pairwise_exchange;
  pairwise.estimate_cycles = n_minus_one_steps;
  pairwise.estimate_formula = "000 §2 step cost, N-1 steps: (N-1)(t_s + m t_c)";
  return {direct, pairwise};
}

const AlgorithmFamilyRegistration kRegistration{10, baseline_exchange_algorithms};

}  // namespace

}  // namespace meshmp
