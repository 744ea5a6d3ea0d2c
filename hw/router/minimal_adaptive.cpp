// Minimal adaptive routing with escape channels. See minimal_adaptive.h.
#include "hw/router/minimal_adaptive.h"

namespace meshmp {

void minimal_adaptive_choices(const Topology& topology, int node, int, int dst, RouteChoices& out) {
  out.count = 0;
  for (int d = 0; d < topology.num_dimensions(); ++d) {
    const int here = topology.coordinate(node, d), there = topology.coordinate(dst, d);
    if (here == there) continue;
    const Dimension& dim = topology.dimension(d);
    switch (dim.kind) {
      case DimensionKind::Path: out.add(topology.port_of(d, there > here ? +1 : -1)); break;
      case DimensionKind::Ring: {
        const int forward = ((there - here) % dim.size + dim.size) % dim.size;
        if (2 * forward <= dim.size) out.add(topology.port_of(d, +1));
        if (2 * forward >= dim.size && dim.size > 2) out.add(topology.port_of(d, -1));
        break;
      }
      case DimensionKind::Complete: out.add(topology.port_of(d, ((there - here) % dim.size + dim.size) % dim.size)); break;
    }
  }
}

int escape_vcs(const Topology& topology, bool dateline) { return dateline && topology.has_rings() ? 2 : 1; }

}  // namespace meshmp
