// Element traffic, local copies and packets of the transpose firmware. See transpose_moves.h.
#include "firmware/paper003/transpose_moves.h"

#include <algorithm>

#include "firmware/api/local_copy_batch.h"
#include "firmware/paper003/transpose_workload.h"
#include "topology/config_error.h"

namespace meshmp {

TransposeTraffic transpose_traffic(const TransposeLayout& layout, int node) {
  const int n = 1 << layout.node_bits();
  TransposeTraffic traffic;
  traffic.send_slots.resize(n);
  traffic.receive_slots.resize(n);
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> outgoing(n);  // (output slot there, input slot)
  for (std::uint64_t slot = 0; slot < layout.elements_per_node(); ++slot) {
    const Place to = layout.place_after(layout.element_before(node, slot));
    outgoing[to.node].emplace_back(to.slot, slot);
    const Place from = layout.place_before(layout.element_after(node, slot));
    traffic.receive_slots[from.node].push_back(slot);
  }
  for (int d = 0; d < n; ++d) {
    std::sort(outgoing[d].begin(), outgoing[d].end());
    for (const auto& [there, here] : outgoing[d]) traffic.send_slots[d].push_back(here);
  }
  return traffic;
}

void copy_elements(NodeApi& api, const std::vector<std::uint32_t>& to, const std::vector<std::uint32_t>& from,
                   std::uint32_t element_bytes) {
  LocalCopyBatch runs(api);
  std::size_t i = 0;
  while (i < to.size()) {
    std::size_t end = i + 1;
    while (end < to.size() && to[end] == to[end - 1] + element_bytes && from[end] == from[end - 1] + element_bytes) ++end;
    runs.add(to[i], from[i], static_cast<std::uint32_t>((end - i) * element_bytes));
    i = end;
  }
  runs.flush();
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> packets(std::uint32_t address, std::uint32_t length,
                                                             std::uint32_t packet_bytes) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> list;
  if (packet_bytes == 0 || length <= packet_bytes) return {{address, length}};
  for (std::uint32_t offset = 0; offset < length; offset += packet_bytes)
    list.emplace_back(address + offset, std::min(packet_bytes, length - offset));
  return list;
}

void send_packets(NodeApi& api, int peer, std::uint32_t address, std::uint32_t length, std::uint32_t packet_bytes,
                  std::uint32_t tag, const std::vector<int>& route) {
  for (const auto& [a, l] : packets(address, length, packet_bytes)) api.send(peer, a, l, tag, route);
}

void receive_packets(NodeApi& api, int peer, std::uint32_t address, std::uint32_t length, std::uint32_t packet_bytes,
                     std::uint32_t tag) {
  for (const auto& [a, l] : packets(address, length, packet_bytes)) api.receive(peer, a, l, tag);
}

std::uint64_t packet_count(std::uint64_t elements, std::uint64_t packet_elements) {
  if (packet_elements == 0 || elements == 0) return elements == 0 ? 0 : 1;
  return (elements + packet_elements - 1) / packet_elements;
}

std::uint32_t packet_bytes_of(std::uint64_t elements, std::uint32_t element_bytes) {
  constexpr std::uint64_t kLargest = 0xffffffffull;
  if (elements == 0) return 0;
  if (element_bytes == 0 || elements > kLargest / element_bytes) return static_cast<std::uint32_t>(kLargest);
  return static_cast<std::uint32_t>(elements * element_bytes);
}

std::optional<std::string> boolean_cube_rule(const Topology& topology, const std::string& algorithm) {
  for (int d = 0; d < topology.num_dimensions(); ++d)
    if (topology.dimension(d).size != 2)
      return "topology " + topology.spec() + ": " + algorithm +
             " runs on a Boolean n-cube (003 §2, Definition 5: hypercube:n), every dimension of size 2";
  return std::nullopt;
}

int cube_port(const Topology& topology, int j) { return topology.port_of(j, 1); }

namespace {

// The node bits of a placement as address bits of a matrix with r row bits and c column bits (row bits
// high), then mapped to A's address bits: `transposed` placements are of A^T, whose address (v || u)
// puts A's column bits high.
std::uint64_t real_bits(const MatrixPlacement& placement, int r, int c, int n, bool transposed) {
  const NodeBitSplit split = node_bit_split(placement.partitioning, n);
  const int row_node = split.row_node_bits, column_node = split.column_node_bits;
  // Bit masks within the row index (r bits) and the column index (c bits).
  const std::uint64_t row_mask = ((1ull << row_node) - 1) << node_field_low(placement, true, r, n);
  const std::uint64_t column_mask = ((1ull << column_node) - 1) << node_field_low(placement, false, c, n);
  // In the placed matrix's address: row index high (shifted by c), column index low.
  if (!transposed) return (row_mask << c) | column_mask;
  // The placed matrix is A^T: its rows are A's columns (A's low c' = r bits), its columns A's rows.
  return (column_mask << r) | row_mask;
}

}  // namespace

std::optional<std::string> all_to_all_transpose_rule(const Topology& topology, const ExchangeParameters& parameters,
                                                     const std::string& algorithm) {
  if (auto rule = boolean_cube_rule(topology, algorithm)) return rule;
  try {
    const TransposeLayout l = transpose_layout_for(topology, parameters);
    if (real_bits_before(l) & real_bits_after(l))
      return ConfigError("workload_options.partitioning", to_string(l.before().partitioning) + " -> " + to_string(l.after().partitioning),
                         algorithm + " performs the all-to-all personalized communication of 003 §5: the address bits "
                         "that choose the node before and after must be disjoint (a 1-D partitioning of rows before, of "
                         "columns after, or the reverse; 2-D partitionings communicate pairwise: see 003 §6)")
          .what();
  } catch (const ConfigError& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

std::uint64_t transpose_scratch(const Topology& topology, const ExchangeParameters& parameters, std::uint64_t regions) {
  try {
    return regions * transpose_layout_for(topology, parameters).region_bytes();
  } catch (const ConfigError&) {
    return 0;
  }
}

void require_non_negative(const AlgorithmOptions& options, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (options.integer(name) < 0)
      throw ConfigError(std::string("algorithm_options.") + name, std::to_string(options.integer(name)),
                        "must be 0 or more");
}

std::uint64_t real_bits_before(const TransposeLayout& layout) {
  return real_bits(layout.before(), layout.row_bits(), layout.column_bits(), layout.node_bits(), false);
}

std::uint64_t real_bits_after(const TransposeLayout& layout) {
  return real_bits(layout.after(), layout.column_bits(), layout.row_bits(), layout.node_bits(), true);
}

}  // namespace meshmp
