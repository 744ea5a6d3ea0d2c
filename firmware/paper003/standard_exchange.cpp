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

// One node's blocked arrays in its scratch: X and Y (N blocks each), a pack buffer and a receive buffer of
// N/2 blocks; which array holds each position.
struct ExchangeArrays {
  ExchangeShape s;
  std::uint32_t block_bytes = 0, packet_bytes = 0, array_bytes = 0;
  std::uint32_t array_base[2] = {0, 0};
  std::uint32_t pack_base = 0, unpack_base = 0;
  // holder[k]: the array holding position k (unbuffered, buffered: position k holds block slot k).
  std::vector<int> holder;
  int current = 0;  // the shuffle's current array: position p holds the block p rotated right by the steps
  std::uint32_t address(int array, std::uint64_t position) const {
    return array_base[array] + static_cast<std::uint32_t>(position * block_bytes);
  }
};

// Sends `bytes` at `send_address` to `peer` and receives as many into `receive_address`, both in packets;
// waits for all of them.
void exchange_with(NodeApi& api, const ExchangeArrays& a, int peer, std::uint32_t send_address,
                   std::uint32_t receive_address, std::uint32_t bytes, std::uint32_t tag) {
  receive_packets(api, peer, receive_address, bytes, a.packet_bytes, tag);
  send_packets(api, peer, send_address, bytes, a.packet_bytes, tag);
  api.wait_all();
}

// The shuffle's step of dimension j (§5 pseudo-code): the half whose top position bit differs from my bit
// j (the upper half when the bit is 0) as one message, then the shuffle into the other array: position p
// goes to rotl(p), the received half replacing the sent one.
void shuffle_step(NodeApi& api, ExchangeArrays& a, int peer, bool my_bit, std::uint32_t tag) {
  const ExchangeShape& s = a.s;
  const std::uint64_t half_start = my_bit ? 0 : s.nodes / 2;
  exchange_with(api, a, peer, a.address(a.current, half_start), a.unpack_base, a.array_bytes / 2, tag);
  const int next = 1 - a.current;
  std::vector<std::uint32_t> to, from;
  for (std::uint64_t p = 0; p < s.nodes; ++p) {
    const std::uint64_t rotated = ((p << 1) | (p >> (s.n - 1))) & (s.nodes - 1);
    const bool received = (p >= half_start) && (p < half_start + s.nodes / 2);
    const std::uint32_t source = received ? a.unpack_base + static_cast<std::uint32_t>((p - half_start) * a.block_bytes)
                                          : a.address(a.current, p);
    for (std::uint64_t b = 0; b < s.block; ++b) {
      to.push_back(a.address(next, rotated) + static_cast<std::uint32_t>(b * s.e));
      from.push_back(source + static_cast<std::uint32_t>(b * s.e));
    }
  }
  copy_elements(api, to, from, s.e);
  a.current = next;
}

// The unbuffered and buffered steps of dimension j (§8.1): the positions with bit j unlike mine, runs of
// 2^j blocks. Runs of at least B_copy elements (every run, unbuffered) go straight from their array into
// the other one (a node cannot receive into what it sends); smaller ones are gathered, sent as one
// message, and what arrives is scattered into the sent places.
void run_step(NodeApi& api, ExchangeArrays& a, int peer, int j, bool my_bit, bool buffered, std::uint32_t tag) {
  const ExchangeShape& s = a.s;
  const std::uint64_t run_blocks = 1ull << j;
  const std::uint64_t run_elements = run_blocks * s.block;
  std::vector<std::uint64_t> runs;  // first position of each run
  for (std::uint64_t p = 0; p < s.nodes; p += 2 * run_blocks) runs.push_back(p + (my_bit ? 0 : run_blocks));
  const auto run_bytes = static_cast<std::uint32_t>(run_elements * s.e);
  if (!buffered || run_elements >= s.copy_threshold) {
    for (std::uint64_t p : runs) receive_packets(api, peer, a.address(1 - a.holder[p], p), run_bytes, a.packet_bytes, tag);
    for (std::uint64_t p : runs) send_packets(api, peer, a.address(a.holder[p], p), run_bytes, a.packet_bytes, tag);
    api.wait_all();
    for (std::uint64_t p : runs)
      for (std::uint64_t k = p; k < p + run_blocks; ++k) a.holder[k] = 1 - a.holder[k];
    return;
  }
  std::vector<std::uint32_t> to, from;
  for (std::size_t r = 0; r < runs.size(); ++r)
    for (std::uint64_t b = 0; b < run_elements; ++b) {
      to.push_back(a.pack_base + static_cast<std::uint32_t>((r * run_elements + b) * s.e));
      from.push_back(a.address(a.holder[runs[r]], runs[r]) + static_cast<std::uint32_t>(b * s.e));
    }
  copy_elements(api, to, from, s.e);
  exchange_with(api, a, peer, a.pack_base, a.unpack_base, a.array_bytes / 2, tag);
  std::vector<std::uint32_t> back(to.size());
  for (std::size_t k = 0; k < to.size(); ++k) back[k] = a.unpack_base + (to[k] - a.pack_base);
  copy_elements(api, from, back, s.e);
}

void jh_exchange(NodeApi& api) {
  const TransposeLayout& l = transpose_layout(api);
  const std::string buffering = api.options().text("buffering");
  const int me = api.id();
  ExchangeArrays a;
  a.s = shape_of(l, api.options());
  const ExchangeShape& s = a.s;
  const std::uint32_t e = s.e;
  a.block_bytes = static_cast<std::uint32_t>(s.block * e);
  a.packet_bytes = packet_bytes_of(s.packet, e);
  a.array_bytes = static_cast<std::uint32_t>(s.nodes * a.block_bytes);
  a.array_base[0] = static_cast<std::uint32_t>(l.scratch_base());
  a.array_base[1] = a.array_base[0] + a.array_bytes;
  a.pack_base = a.array_base[0] + 2 * a.array_bytes;
  a.unpack_base = a.pack_base + a.array_bytes / 2;
  a.holder.assign(s.nodes, 0);
  const TransposeTraffic traffic = transpose_traffic(l, me);

  // Pack: block k of X = the elements for node k, in node k's storage order (part of the first step).
  api.begin_step(0);
  {
    std::vector<std::uint32_t> to, from;
    for (std::uint64_t k = 0; k < s.nodes; ++k)
      for (std::size_t i = 0; i < traffic.send_slots[k].size(); ++i) {
        to.push_back(a.address(0, k) + static_cast<std::uint32_t>(i * e));
        from.push_back(l.input_address(traffic.send_slots[k][i]));
      }
    copy_elements(api, to, from, e);
  }
  for (int i = 0; i < s.n; ++i) {
    const int j = s.n - 1 - i;
    if (i > 0) api.begin_step(i);
    const int peer = me ^ (1 << j);
    const bool my_bit = (me >> j) & 1;
    const auto tag = static_cast<std::uint32_t>(i);
    if (buffering == "shuffle") shuffle_step(api, a, peer, my_bit, tag);
    else run_step(api, a, peer, j, my_bit, buffering == "buffered", tag);
  }
  // Unpack: position k holds the block from node k (after n shuffles the positions are back in order).
  std::vector<std::uint32_t> to, from;
  for (std::uint64_t k = 0; k < s.nodes; ++k) {
    const std::uint32_t block_address = a.address(buffering == "shuffle" ? a.current : a.holder[k], k);
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
