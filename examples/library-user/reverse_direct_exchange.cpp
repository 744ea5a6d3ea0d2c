// An exchange algorithm of this program's own, registered with meshmp::register_algorithm: every node
// sends its N-1 blocks straight to their owners, node i to i-1, i-2, ... (mod N) (the direct exchange of
// paper 002 §1 in the other direction), and copies its own block locally.
#include "reverse_direct_exchange.h"

#include "firmware/api/algorithm_registry.h"

namespace library_user {

void register_reverse_direct_exchange() {
  meshmp::Algorithm algorithm;
  algorithm.name = "reverse-direct";
  algorithm.summary = "every node sends its N-1 blocks to i-1, i-2, ... (mod N)";
  algorithm.source = "002 §1 (total exchange), registered by examples/library-user";
  algorithm.why_unsupported = [](const meshmp::Topology&, const meshmp::ExchangeParameters&) -> std::optional<std::string> {
    return std::nullopt;  // any machine
  };
  algorithm.estimate_cycles = [](const meshmp::Topology& topology, const meshmp::ExchangeParameters& parameters) {
    return (topology.num_nodes() - 1) * meshmp::step_cost_cycles(parameters, parameters.block_bytes);
  };
  algorithm.estimate_formula = "(N-1)(t_s + m t_c)";
  algorithm.firmware = [](meshmp::NodeApi& api) {
    const meshmp::ExchangeLayout& layout = api.layout();
    const int n = api.num_nodes(), me = api.id();
    for (int k = 1; k < n; ++k) {
      const int from = (me + k) % n;
      api.receive(from, layout.receive_block(from), layout.block_bytes, 0);
    }
    for (int k = 1; k < n; ++k) {
      api.begin_step(k);
      const int to = (me - k + n) % n;
      api.send(to, layout.send_block(to), layout.block_bytes, 0);
    }
    api.local_copy(layout.receive_block(me), layout.send_block(me), layout.block_bytes);
    api.wait_all();
  };
  meshmp::register_algorithm(std::move(algorithm));
}

}  // namespace library_user
