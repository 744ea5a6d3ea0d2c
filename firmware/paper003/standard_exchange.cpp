// The standard exchange algorithm for a one-dimensionally partitioned transpose on a Boolean n-cube
// (003 §3.2 and the §5 pseudo-code "Transposition by the Standard Exchange Algorithm"), one-port:
// for j = n-1 downto 0, every node exchanges half of its blocks with its neighbour in dimension j.
// Block k of a node holds the PQ/N^2 elements it owes node k (003 §5: node i exchanges its j-th block
// with the i-th block of node j), packed in node k's storage order before the first step and unpacked
// into place after the last (charged rho per byte; the paper leaves this local transpose to "explicitly,
// or implicitly by indirect addressing"). Option `buffering` picks how the half is gathered:
//  - shuffle (§5 pseudo-code): the half is one contiguous message; after each exchange the blocked array
//    is shuffled locally (one left rotation of the block index bits, Definition 3), n shuffles in all;
//  - unbuffered (§8.1): no shuffle; at the step of dimension j the half is N/2^(j+1) runs of 2^j blocks,
//    each sent as its own message;
//  - buffered (§8.1, the optimum buffering): runs of at least copy_threshold_elements (B_copy) elements
//    are sent directly, smaller ones are copied into one buffer and sent as one message.
// Every message is cut into packets of at most packet_elements (B) elements, each with its own start-up.
// The workload must be the all-to-all personalized case (003 §5): the address bits choosing the node
// before and after are disjoint (R_b and R_a, I = empty), as for every 1-D partitioning pair that moves
// data. Reading chosen for the shuffle: the received half joins the array during the shuffle's copy
// (a node cannot receive into the half it is still sending), so each step copies the array once, as the
// pseudo-code's shuffle does.
#include <algorithm>

#include "firmware/api/algorithm_registry.h"
#include "firmware/paper003/transpose_moves.h"
#include "firmware/paper003/transpose_workload.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

struct ExchangeShape {
  int n = 0;                     // cube dimensions
  std::uint64_t nodes = 0;       // N
  std::uint64_t block = 0;       // elements per block, PQ/N^2
  std::uint32_t e = 0;           // bytes per element
  std::uint64_t packet = 0;      // B, elements (0: whole messages)
  std::uint64_t copy_threshold = 0;  // B_copy, elements
};

ExchangeShape shape_of(const TransposeLayout& l, const AlgorithmOptions& options) {
  ExchangeShape s;
  s.n = l.node_bits();
  s.nodes = 1ull << s.n;
  s.block = l.elements_per_node() / s.nodes;
  s.e = l.element_bytes();
  s.packet = static_cast<std::uint64_t>(options.integer("packet_elements"));
  s.copy_threshold = static_cast<std::uint64_t>(options.integer("copy_threshold_elements"));
  return s;
}

void jh_exchange(NodeApi& api) {
  const TransposeLayout& l = transpose_layout(api);
  const ExchangeShape s = shape_of(l, api.options());
  const std::string buffering = api.options().text("buffering");
  const int me = api.id();
  const std::uint32_t e = s.e;
  const auto block_bytes = static_cast<std::uint32_t>(s.block * e);
  const std::uint32_t packet_bytes = packet_bytes_of(s.packet, e);
  const TransposeTraffic traffic = transpose_traffic(l, me);
  // Scratch: two blocked arrays X and Y (N blocks each), a pack buffer and a receive buffer of N/2 blocks.
  const auto array_bytes = static_cast<std::uint32_t>(s.nodes * block_bytes);
  const auto x_base = static_cast<std::uint32_t>(l.scratch_base());
  const std::uint32_t array_base[2] = {x_base, x_base + array_bytes};
  const std::uint32_t pack_base = x_base + 2 * array_bytes;
  const std::uint32_t unpack_base = pack_base + array_bytes / 2;

  // Pack: block k of X = the elements for node k, in node k's storage order (part of the first step).
  api.begin_step(0);
  {
    std::vector<std::uint32_t> to, from;
    for (std::uint64_t k = 0; k < s.nodes; ++k)
      for (std::size_t i = 0; i < traffic.send_slots[k].size(); ++i) {
        to.push_back(array_base[0] + static_cast<std::uint32_t>(k * block_bytes + i * e));
        from.push_back(l.input_address(traffic.send_slots[k][i]));
      }
    copy_elements(api, to, from, e);
  }

  // holder[k]: the array holding position k. With the shuffle, position p holds the block whose index is
  // p rotated right by the steps done; without, position k holds block slot k throughout.
  std::vector<int> holder(s.nodes, 0);
  int current = 0;  // the shuffle's current array
  for (int i = 0; i < s.n; ++i) {
    const int j = s.n - 1 - i;
    const int peer = me ^ (1 << j);
    const bool my_bit = (me >> j) & 1;
    if (i > 0) api.begin_step(i);
    const auto tag = static_cast<std::uint32_t>(i);
    if (buffering == "shuffle") {
      // The half whose top position bit differs from my bit j: the upper half when the bit is 0.
      const std::uint64_t half_start = my_bit ? 0 : s.nodes / 2;
      const std::uint32_t half_address = array_base[current] + static_cast<std::uint32_t>(half_start * block_bytes);
      const std::uint32_t half_bytes = array_bytes / 2;
      std::vector<Handle> handles = receive_packets(api, peer, unpack_base, half_bytes, packet_bytes, tag);
      for (Handle h : send_packets(api, peer, half_address, half_bytes, packet_bytes, tag)) handles.push_back(h);
      for (Handle h : handles) api.wait(h);
      // Shuffle into the other array: position p goes to rotl(p); the received half replaces the sent one.
      const int next = 1 - current;
      std::vector<std::uint32_t> to, from;
      for (std::uint64_t p = 0; p < s.nodes; ++p) {
        const std::uint64_t rotated = ((p << 1) | (p >> (s.n - 1))) & (s.nodes - 1);
        const bool received = (p >= half_start) && (p < half_start + s.nodes / 2);
        const std::uint32_t source = received ? unpack_base + static_cast<std::uint32_t>((p - half_start) * block_bytes)
                                              : array_base[current] + static_cast<std::uint32_t>(p * block_bytes);
        for (std::uint64_t b = 0; b < s.block; ++b) {
          to.push_back(array_base[next] + static_cast<std::uint32_t>(rotated * block_bytes + b * e));
          from.push_back(source + static_cast<std::uint32_t>(b * e));
        }
      }
      copy_elements(api, to, from, e);
      current = next;
      continue;
    }
    // Unbuffered / buffered: the positions with bit j unlike mine, runs of 2^j blocks.
    const std::uint64_t run_blocks = 1ull << j;
    const std::uint64_t run_elements = run_blocks * s.block;
    std::vector<std::uint64_t> runs;  // first position of each run
    for (std::uint64_t a = 0; a < s.nodes; a += 2 * run_blocks) runs.push_back(a + (my_bit ? 0 : run_blocks));
    const auto run_bytes = static_cast<std::uint32_t>(run_elements * e);
    auto address = [&](int array, std::uint64_t position) {
      return array_base[array] + static_cast<std::uint32_t>(position * block_bytes);
    };
    if (buffering == "unbuffered" || run_elements >= s.copy_threshold) {
      // Each run straight from its array into the other one (a node cannot receive into what it sends).
      std::vector<Handle> handles;
      for (std::uint64_t a : runs)
        for (Handle h : receive_packets(api, peer, address(1 - holder[a], a), run_bytes, packet_bytes, tag)) handles.push_back(h);
      for (std::uint64_t a : runs)
        for (Handle h : send_packets(api, peer, address(holder[a], a), run_bytes, packet_bytes, tag)) handles.push_back(h);
      for (Handle h : handles) api.wait(h);
      for (std::uint64_t a : runs)
        for (std::uint64_t k = a; k < a + run_blocks; ++k) holder[k] = 1 - holder[k];
      continue;
    }
    // Buffered: gather the runs, send them as one message, scatter what arrives into the sent places.
    std::vector<std::uint32_t> to, from;
    for (std::size_t r = 0; r < runs.size(); ++r)
      for (std::uint64_t b = 0; b < run_elements; ++b) {
        to.push_back(pack_base + static_cast<std::uint32_t>((r * run_elements + b) * e));
        from.push_back(address(holder[runs[r]], runs[r]) + static_cast<std::uint32_t>(b * e));
      }
    copy_elements(api, to, from, e);
    std::vector<Handle> handles = receive_packets(api, peer, unpack_base, array_bytes / 2, packet_bytes, tag);
    for (Handle h : send_packets(api, peer, pack_base, array_bytes / 2, packet_bytes, tag)) handles.push_back(h);
    for (Handle h : handles) api.wait(h);
    std::vector<std::uint32_t> back(to.size());
    for (std::size_t k = 0; k < to.size(); ++k) back[k] = unpack_base + (to[k] - pack_base);
    copy_elements(api, from, back, e);
  }

  // Unpack: position k holds the block from node k (after n shuffles the positions are back in order).
  std::vector<std::uint32_t> to, from;
  for (std::uint64_t k = 0; k < s.nodes; ++k) {
    const std::uint32_t block_address = buffering == "shuffle" ? array_base[current] + static_cast<std::uint32_t>(k * block_bytes)
                                                               : array_base[holder[k]] + static_cast<std::uint32_t>(k * block_bytes);
    for (std::size_t i = 0; i < traffic.receive_slots[k].size(); ++i) {
      to.push_back(l.output_address(traffic.receive_slots[k][i]));
      from.push_back(block_address + static_cast<std::uint32_t>(i * e));
    }
  }
  copy_elements(api, to, from, e);
}

// 003 §3.2: T = n (PQ/(2N)) t_c + n ceil(PQ/(2 B N)) tau, tau = t_s and t_c = e / flit_bytes per element.
double standard_exchange_estimate(const Topology& topology, const ExchangeParameters& parameters,
                                  std::uint64_t packet_elements) {
  const TransposeLayout l = transpose_layout_for(topology, parameters);
  const double n = l.node_bits();
  const double half = static_cast<double>(l.elements_per_node()) / 2;
  const auto packets = static_cast<double>(packet_count(l.elements_per_node() / 2, packet_elements));
  return n * half * l.element_bytes() / parameters.flit_bytes + n * packets * static_cast<double>(parameters.startup_cycles);
}

std::vector<Algorithm> jh_exchange_algorithms() {
  Algorithm exchange;
  exchange.name = "jh-exchange";
  exchange.summary = "1-D transpose by the standard exchange algorithm: n steps of half the data with a neighbour";
  exchange.source = "003 §3.2, §5, §8.1";
  exchange.workload = "transpose";
  exchange.options = {
      {"buffering", AlgorithmOption::Type::Choice, "shuffle",
       "shuffle: one message per step and a local shuffle (§5); unbuffered: each contiguous run its own message; "
       "buffered: runs below copy_threshold_elements gathered into one message (§8.1)",
       {"shuffle", "unbuffered", "buffered"}},
      integer_option("packet_elements", 0, 0, kLargestSizeOption,
                     "B: most elements per packet, each packet one start-up (0: no limit)"),
      integer_option("copy_threshold_elements", 64, 0, kLargestSizeOption,
                     "B_copy: runs of at least this many elements are sent without copying (buffered)"),
  };
  exchange.why_unsupported = [](const Topology& topology, const ExchangeParameters& parameters) {
    return all_to_all_transpose_rule(topology, parameters, "jh-exchange");
  };
  exchange.firmware = jh_exchange;
  exchange.estimate_cycles = [](const Topology& topology, const ExchangeParameters& parameters) {
    return standard_exchange_estimate(topology, parameters, 0);
  };
  exchange.estimate_formula = "003 §3.2: n (PQ/2N t_c + tau), one message per step";
  exchange.scratch_bytes = [](const Topology& topology, const ExchangeParameters& parameters,
                              const AlgorithmOptions& options) -> std::uint64_t {
    require_non_negative(options, {"packet_elements", "copy_threshold_elements"});
    return transpose_scratch(topology, parameters, 3);
  };
  return {exchange};
}

const AlgorithmFamilyRegistration kRegistration{70, jh_exchange_algorithms};

}  // namespace

}  // namespace meshmp
