// tseng-ring, tseng-t1 and tseng-c1 (001, Tseng, Ni, Sheu): the ring exchange of §2 on a ring of 8..128
// nodes (lengths other than 2^d by §5), then dimension by dimension on 2-D (§3.1, T1) and 3-D (§4, C1) tori
// with sides >= 8 (non-square by §5): the ring exchange on every ring along x, then y (then z), an item being
// the blocks one node forwards for another along that ring. Every message is one worm along the dilated
// logical link; the ring stages are firmware/paper001/ring_stages.*, the schedule firmware/paper001/ring_exchange_plan.*.
// Option sync (§7): none, barrier, signals (ring_stages.h).
#include <algorithm>
#include <cmath>

#include "firmware/api/algorithm_registry.h"
#include "firmware/paper001/ring_stages.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

using namespace tseng;

std::optional<std::string> why_unsupported_ring(const Topology& topology, const ExchangeParameters&) {
  if (topology.num_dimensions() != 1 || topology.dimension(0).kind != DimensionKind::Ring)
    return ConfigError("topology", topology.spec(), "tseng-ring runs on a ring (ring:N)").what();
  return unsupported_ring(topology, 0, "tseng-ring");
}

// tseng-ring (001 §2), tseng-t1 (§3.1) and tseng-c1 (§4): the ring exchange along x (then y, then z)
// on every ring of the torus; an item is the blocks one node forwards for another along that ring (N / n_i of them).
// Non-square tori by the dimension-by-dimension construction of §5: each stage has its ring's length.
struct OwnBlocks {
  const ExchangeLayout& layout;
  void append(int dst, ItemBlocks& blocks) const { blocks.push_back(layout.send_block(dst)); }
  int source(int node, int) const { return node; }
};

// Blocks of the scratch a dimension-by-dimension exchange over every dimension of `topology` declares: the
// largest message it gathers, and every message it receives (the bound; ring stages reuse the bytes of
// the messages they have forwarded, so a node touches less).
struct StageScratch {
  std::uint64_t packed = 0, received = 0;
};
StageScratch ring_stages_scratch(const Topology& topology) {
  StageScratch scratch;
  for (int dim = 0; dim < topology.num_dimensions(); ++dim) {
    const RingExchangePlan& plan = ring_exchange_plan(topology.dimension(dim).size);
    const std::uint64_t item = static_cast<std::uint64_t>(topology.num_nodes()) / topology.dimension(dim).size;
    scratch.packed = std::max(scratch.packed, largest_message_items(plan) * item);
    scratch.received += most_received_items(plan) * item;
  }
  return scratch;
}

void tseng_dimension_by_dimension(NodeApi& api) {
  const ExchangeLayout& l = api.layout();
  const Topology& topology = api.topology();
  const StageScratch need = ring_stages_scratch(topology);
  RingScratch scratch(ScratchArena(static_cast<std::uint32_t>(l.scratch_base()),
                                   static_cast<std::uint32_t>((need.packed + need.received) * l.block_bytes)));
  std::vector<int> dims(static_cast<std::size_t>(topology.num_dimensions()));
  for (int dim = 0; dim < topology.num_dimensions(); ++dim) dims[static_cast<std::size_t>(dim)] = dim;
  place_blocks(api, logical_torus_exchange(api, dims, 1, 1, 1, l.block_bytes, OwnBlocks{l}, scratch),
               l.block_bytes);
}

// Lemma 7 / §4 for any sides: each dimension's stage costs T_1D(d_i, (N / n_i) m).
double dimension_by_dimension_estimate(const Topology& topology, const ExchangeParameters& p) {
  double cycles = 0;
  for (int dim = 0; dim < topology.num_dimensions(); ++dim) {
    const int n = topology.dimension(dim).size;
    cycles += ring_theorem1_cycles(log2_of(n), static_cast<double>(topology.num_nodes()) / n * p.block_bytes, p);
  }
  return cycles;
}

std::uint64_t dimension_by_dimension_scratch(const Topology& topology, const ExchangeParameters& parameters,
                                             const AlgorithmOptions&) {
  const std::uint32_t block_bytes = parameters.block_bytes;
  for (int dim = 0; dim < topology.num_dimensions(); ++dim)
    if (topology.dimension(dim).kind != DimensionKind::Ring || unsupported_ring(topology, dim, "")) return 0;
  const StageScratch need = ring_stages_scratch(topology);
  return (need.packed + need.received) * block_bytes;
}

std::vector<Algorithm> tseng_dimension_by_dimension_algorithms() {
  const AlgorithmOption sync = sync_option();
  Algorithm ring;
  ring.name = "tseng-ring";
  ring.summary = "positive and negative gather-scatter trees on a ring of 8..128 nodes, one-port overlapped";
  ring.source = "001 §2.1-2.4 (Theorem 1), §7 (sync)";
  ring.why_unsupported = why_unsupported_ring;
  ring.firmware = tseng_dimension_by_dimension;  // one dimension: items are single blocks
  ring.estimate_cycles = dimension_by_dimension_estimate;
  ring.estimate_formula = "001 Theorem 1: (2d-2) t_s + (Lemma 6 blocks + 3 if d = 3, + 2 if d >= 4) m t_c, "
                          "d = ceil(lg n) (for n not a power of two the bound 001 §5 conjectures)";
  ring.options = {sync};
  ring.scratch_bytes = dimension_by_dimension_scratch;

  Algorithm t1;
  t1.name = "tseng-t1";
  t1.summary = "the ring exchange along x, then along y, with a row's blocks per item (2-D torus, sides >= 8)";
  t1.source = "001 §3.1 (Lemma 7), §5 (non-square), §7 (sync)";
  t1.why_unsupported = [](const Topology& topology, const ExchangeParameters&) { return why_unsupported_torus(topology, 2, "tseng-t1"); };
  t1.firmware = tseng_dimension_by_dimension;
  t1.estimate_cycles = dimension_by_dimension_estimate;
  t1.estimate_formula = "001 Lemma 7: sum over the dimensions of T_1D(d_i, N/n_i m) by Theorem 1 (2 T_1D(d, n m) on n x n)";
  t1.options = {sync};
  t1.scratch_bytes = dimension_by_dimension_scratch;

  Algorithm c1;
  c1.name = "tseng-c1";
  c1.summary = "the ring exchange along x, then y, then z, with a plane's blocks per item (3-D torus, sides >= 8)";
  c1.source = "001 §4 (C1), §5 (non-cubic), §7 (sync)";
  c1.why_unsupported = [](const Topology& topology, const ExchangeParameters&) { return why_unsupported_torus(topology, 3, "tseng-c1"); };
  c1.firmware = tseng_dimension_by_dimension;
  c1.estimate_cycles = dimension_by_dimension_estimate;
  c1.estimate_formula = "001 §4: sum over the dimensions of T_1D(d_i, N/n_i m) by Theorem 1 (3 T_1D(d, n^2 m) on n^3)";
  c1.options = {sync};
  c1.scratch_bytes = dimension_by_dimension_scratch;
  return {ring, t1, c1};
}

const AlgorithmFamilyRegistration kRegistration{30, tseng_dimension_by_dimension_algorithms};

}  // namespace

}  // namespace meshmp
