// Lower bounds on the total exchange (002 §3). See exchange_bounds.h.
#include "topology/exchange_bounds.h"

#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace meshmp {
namespace {

const char* kind_name(DimensionKind kind) {
  switch (kind) {
    case DimensionKind::Path: return "path";
    case DimensionKind::Ring: return "ring";
    case DimensionKind::Complete: return "complete graph";
  }
  return "?";
}

// Edges of dimension d's own graph between coordinates [0, half) and [half, size).
std::uint64_t bisection_edges(const Dimension& dim, int half) {
  switch (dim.kind) {
    case DimensionKind::Path: return 1;
    case DimensionKind::Ring: return dim.size == 2 ? 1 : 2;  // a ring of 2 is one link (topology.h)
    case DimensionKind::Complete:
      return static_cast<std::uint64_t>(half) * static_cast<std::uint64_t>(dim.size - half);
  }
  return 1;
}

}  // namespace

ExchangeBounds exchange_bounds(const Topology& topology) {
  ExchangeBounds bounds;
  bounds.average_status = topology.average_status();
  bounds.status_bound_steps = static_cast<std::uint64_t>(std::ceil(bounds.average_status - 1e-9));
  const auto n = static_cast<std::uint64_t>(topology.num_nodes());
  for (int d = 0; d < topology.num_dimensions(); ++d) {
    const Dimension& dim = topology.dimension(d);
    if (dim.size < 2) continue;
    const int half = dim.size / 2;
    const std::uint64_t copies = n / static_cast<std::uint64_t>(dim.size);  // the dimension's lines
    Cut cut;
    cut.part1 = copies * static_cast<std::uint64_t>(half);
    cut.part2 = copies * static_cast<std::uint64_t>(dim.size - half);
    cut.edges = copies * bisection_edges(dim, half);
    cut.steps = static_cast<double>(cut.part1) * static_cast<double>(cut.part2) / static_cast<double>(cut.edges);
    cut.dimension = d;
    cut.description = "dimension " + std::to_string(d) + " (" + kind_name(dim.kind) + " of " +
                      std::to_string(dim.size) + ") split into coordinates 0.." + std::to_string(half - 1) + " | " +
                      std::to_string(half) + ".." + std::to_string(dim.size - 1);
    if (cut.steps > bounds.cut.steps) bounds.cut = cut;
  }
  bounds.cut_bound_steps = static_cast<std::uint64_t>(std::ceil(bounds.cut.steps - 1e-9));
  return bounds;
}

Cut best_cut_exhaustive(const Topology& topology) {
  const int n = topology.num_nodes();
  if (n > kMaxExhaustiveNodes) throw std::invalid_argument("best_cut_exhaustive: too many nodes");
  std::vector<std::pair<int, int>> edges;
  for (int v = 0; v < n; ++v)
    for (int p = 0; p < topology.num_ports(); ++p) {
      const int u = topology.neighbor(v, p);
      if (u > v) {
        bool known = false;  // (a ring of 2 names its one link twice)
        for (const auto& e : edges) known = known || (e.first == v && e.second == u);
        if (!known) edges.emplace_back(v, u);
      }
    }
  Cut best;
  // Node n-1 always in V2: each partition once.
  for (std::uint32_t set = 1; set < (1u << (n - 1)); ++set) {
    std::uint64_t crossing = 0;
    for (const auto& [v, u] : edges) crossing += ((set >> v) & 1u) != ((set >> u) & 1u) ? 1 : 0;
    if (crossing == 0) continue;
    const auto part1 = static_cast<std::uint64_t>(__builtin_popcount(set));
    const auto part2 = static_cast<std::uint64_t>(n) - part1;
    const double steps = static_cast<double>(part1) * static_cast<double>(part2) / static_cast<double>(crossing);
    if (steps > best.steps) best = {steps, part1, part2, crossing, -1, "exhaustive"};
  }
  return best;
}

}  // namespace meshmp
