// What every transpose firmware needs besides its routing: which of a node's elements go to which node,
// in the order the receiver stores them; local copies of element lists merged into contiguous runs (each
// run one local operation, charged rho per byte: 000 §3.3 cost model); and messages cut into packets of at
// most B elements, each with its own start-up (003 §2: tau per packet, maximum packet size B_m).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "firmware/api/exchange_parameters.h"
#include "firmware/api/node_api.h"
#include "firmware/paper003/transpose_layout.h"
#include "topology/topology.h"

namespace meshmp {

// Node `node`'s traffic in a transpose: for every node d, the input slots of the elements it sends to d
// ordered by their output slot at d; for every node s, the output slots of the elements it receives from
// s, ascending. A message from s to d carries its elements in that common order.
struct TransposeTraffic {
  std::vector<std::vector<std::uint64_t>> send_slots;     // by destination
  std::vector<std::vector<std::uint64_t>> receive_slots;  // by source
};
TransposeTraffic transpose_traffic(const TransposeLayout& layout, int node);

// Copies element i from from[i] to to[i] (addresses, e bytes each), one local operation per contiguous
// run (rho per byte, rounded up per run), as local_copy_each batches: one wait per 256 runs. The callers
// copy between areas no transfer in flight touches, so the bytes and the cycle the node goes on at are
// those of a local_copy per run.
void copy_elements(NodeApi& api, const std::vector<std::uint32_t>& to, const std::vector<std::uint32_t>& from,
                   std::uint32_t element_bytes);

// Packets of at most `packet_bytes` (0: one message) for `length` bytes at `address`: (address, length).
std::vector<std::pair<std::uint32_t, std::uint32_t>> packets(std::uint32_t address, std::uint32_t length,
                                                             std::uint32_t packet_bytes);
// Sends / posts the receives of a message as its packets (the caller waits for them with wait_all).
void send_packets(NodeApi& api, int peer, std::uint32_t address, std::uint32_t length, std::uint32_t packet_bytes,
                  std::uint32_t tag, const std::vector<int>& route = {});
void receive_packets(NodeApi& api, int peer, std::uint32_t address, std::uint32_t length, std::uint32_t packet_bytes,
                     std::uint32_t tag);
std::uint64_t packet_count(std::uint64_t elements, std::uint64_t packet_elements);
// The packet size in bytes of packets of `elements` elements of `element_bytes` each (0: no limit). A
// size past 32 bits limits nothing (every message fits 32-bit addresses): it is given as the largest.
std::uint32_t packet_bytes_of(std::uint64_t elements, std::uint32_t element_bytes);

// Empty when the machine is a Boolean cube (every dimension of size 2: node x's neighbour in dimension j
// is x XOR 2^j); otherwise why not.
std::optional<std::string> boolean_cube_rule(const Topology& topology, const std::string& algorithm);
// The router port of dimension j (to x XOR 2^j).
int cube_port(const Topology& topology, int j);

// Checks the transpose algorithms share (Algorithm::supports, scratch_bytes):
// empty when the machine is a Boolean cube and the run's transpose is all-to-all personalized (003 §5: the
// node bits before and after are disjoint); otherwise why not (field, value, rule).
std::optional<std::string> all_to_all_transpose_rule(const Topology& topology, const ExchangeParameters& parameters,
                                                     const std::string& algorithm);
// `regions` times a node's region of the run's transpose (PQ/N e bytes); 0 when the workload does not
// fit (why_unsupported() says why).
std::uint64_t transpose_scratch(const Topology& topology, const ExchangeParameters& parameters, std::uint64_t regions);
// ConfigError naming algorithm_options.<name> when one of these integer options is negative.
void require_non_negative(const AlgorithmOptions& options, std::initializer_list<const char*> names);

// The address bits (of A's w = (u || v), row bits high) that choose the node before and after the
// transpose (003 §2: R_b and R_a), as bit masks.
std::uint64_t real_bits_before(const TransposeLayout& layout);
std::uint64_t real_bits_after(const TransposeLayout& layout);

}  // namespace meshmp
