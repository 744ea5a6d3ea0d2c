// The turn models on 2-D meshes. See turn_models.h.
#include "hw/router/turn_models.h"

namespace meshmp {

namespace {

struct Offsets {
  int dx, dy;  // destination minus current node, per dimension
};

Offsets offsets(const Topology& topology, int node, int dst) {
  return {topology.coordinate(dst, 0) - topology.coordinate(node, 0),
          topology.coordinate(dst, 1) - topology.coordinate(node, 1)};
}

void add(RouteChoices& out, const Topology& topology, int dimension, int direction) {
  out.add(topology.port_of(dimension, direction));
}

// The x and y moves still needed, in that order.
void add_minimal(RouteChoices& out, const Topology& topology, Offsets d, bool x, bool y) {
  if (x && d.dx != 0) add(out, topology, 0, d.dx > 0 ? +1 : -1);
  if (y && d.dy != 0) add(out, topology, 1, d.dy > 0 ? +1 : -1);
}

}  // namespace

void west_first_choices(const Topology& topology, int node, int, int dst, RouteChoices& out) {
  out.count = 0;
  const Offsets d = offsets(topology, node, dst);
  if (d.dx < 0)
    add(out, topology, 0, -1);
  else
    add_minimal(out, topology, d, true, true);
}

void north_last_choices(const Topology& topology, int node, int, int dst, RouteChoices& out) {
  out.count = 0;
  const Offsets d = offsets(topology, node, dst);
  if (d.dy > 0 && d.dx != 0)
    add_minimal(out, topology, d, true, false);
  else
    add_minimal(out, topology, d, true, true);
}

void negative_first_choices(const Topology& topology, int node, int, int dst, RouteChoices& out) {
  out.count = 0;
  const Offsets d = offsets(topology, node, dst);
  if (d.dx < 0 || d.dy < 0)
    add_minimal(out, topology, d, d.dx < 0, d.dy < 0);
  else
    add_minimal(out, topology, d, true, true);
}

void odd_even_choices(const Topology& topology, int node, int src, int dst, RouteChoices& out) {
  out.count = 0;
  const Offsets d = offsets(topology, node, dst);
  const int column = topology.coordinate(node, 0);
  if (d.dx == 0) {
    add_minimal(out, topology, d, false, true);
  } else if (d.dx > 0) {  // eastbound
    if (d.dy == 0) {
      add(out, topology, 0, +1);
    } else {
      // A north or south hop here ends an east run unless the packet has not moved east yet: allowed in
      // an odd column or in the source's. East only if the packet can still turn north or south later: the
      // destination's column is odd, or it is more than one column away.
      if (column % 2 == 1 || column == topology.coordinate(src, 0)) add_minimal(out, topology, d, false, true);
      if (topology.coordinate(dst, 0) % 2 == 1 || d.dx != 1) add(out, topology, 0, +1);
    }
  } else {  // westbound: west always; north or south only in an even column (turning west again is allowed there)
    add(out, topology, 0, -1);
    if (d.dy != 0 && column % 2 == 0) add_minimal(out, topology, d, false, true);
  }
}

std::optional<std::string> turn_model_unsupported(const Topology& topology) {
  if (topology.num_dimensions() == 2 && topology.dimension(0).kind == DimensionKind::Path &&
      topology.dimension(1).kind == DimensionKind::Path)
    return std::nullopt;
  return std::string("the turn models are defined on 2-D meshes (mesh:XxY), whose turns they restrict");
}

}  // namespace meshmp
