// Oblivious two-phase routing: the intermediate nodes of Valiant and ROMM. See two_phase_routing.h.
#include "hw/router/two_phase_routing.h"

#include <cstdlib>

namespace meshmp {

IntermediateCoordinates valiant_intermediates(const Topology& topology, int, int, int dimension) {
  return {0, 1, topology.dimension(dimension).size};
}

IntermediateCoordinates romm_intermediates(const Topology& topology, int src, int dst, int dimension) {
  const int from = topology.coordinate(src, dimension), to = topology.coordinate(dst, dimension);
  if (from == to) return {from, 1, 1};
  const Dimension& dim = topology.dimension(dimension);
  switch (dim.kind) {
    case DimensionKind::Path: return {from, to > from ? 1 : -1, std::abs(to - from) + 1};
    case DimensionKind::Ring: {
      const int forward = ((to - from) % dim.size + dim.size) % dim.size;
      return 2 * forward <= dim.size ? IntermediateCoordinates{from, 1, forward + 1}
                                     : IntermediateCoordinates{from, -1, dim.size - forward + 1};
    }
    case DimensionKind::Complete: return {from, ((to - from) % dim.size + dim.size) % dim.size, 2};
  }
  return {from, 1, 1};
}

bool is_intermediate(const Topology& topology, IntermediateRange range, int src, int dst, int node) {
  for (int d = 0; d < topology.num_dimensions(); ++d) {
    const IntermediateCoordinates c = range(topology, src, dst, d);
    const int size = topology.dimension(d).size, here = topology.coordinate(node, d);
    bool inside = false;
    for (int k = 0; k < c.count && !inside; ++k) inside = ((c.first + k * c.step) % size + size) % size == here;
    if (!inside) return false;
  }
  return true;
}

}  // namespace meshmp
