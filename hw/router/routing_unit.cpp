// Route computation stage. See routing_unit.h.
#include "hw/router/routing_unit.h"

namespace meshmp {

RoutingUnit::RoutingUnit(int node, const Topology& topology, const RouterParams& params, PortModel port_model,
                         RoutingFunction routing)
    : node_(node), topology_(topology), vcs_(params.vcs), dateline_(params.dateline),
      whole_segment_(params.dateline_whole_segment),
      all_port_(port_model == PortModel::AllPort), routing_(routing), adaptive_(params.adaptive_routing) {}

bool RoutingUnit::adaptive_choices(const Flit& head, int src, RouteChoices& out) const {
  if (adaptive_ == nullptr || head.route_length > 0 || head.dst == node_) return false;
  adaptive_(topology_, node_, src, head.dst, out);
  return true;
}

RouteDecision RoutingUnit::compute(const Flit& head, int in_port) const {
  const int net_ports = topology_.num_ports();
  int out;
  if (head.route_length > 0)
    out = head.route_position < head.route_length ? head.route[head.route_position] : -1;
  else
    out = routing_(topology_, node_, head.dst);
  if (out < 0) {
    int eject = all_port_ && in_port < net_ports ? in_port : 0;
    return {net_ports + eject, 0, vcs_, 0, kNoPort};
  }
  return to_output(head, out);
}

RouteDecision RoutingUnit::to_output(const Flit& head, int out) const {
  const int dim = topology_.port(out).dimension;
  if (!dateline_ || topology_.dimension(dim).kind != DimensionKind::Ring)
    return {out, 0, vcs_, 0, static_cast<std::uint8_t>(dim)};
  std::uint8_t cls = head.ring_dimension == dim ? head.vc_class : 0;
  if (whole_segment_) {
    if (head.ring_dimension != dim) cls = segment_crosses_dateline(head, out) ? 1 : 0;
  } else if (topology_.crosses_dateline(node_, out)) {
    cls = 1;
  }
  const int half = vcs_ / 2;
  return cls == 0 ? RouteDecision{out, 0, half, 0, static_cast<std::uint8_t>(dim)}
                  : RouteDecision{out, half, vcs_, 1, static_cast<std::uint8_t>(dim)};
}

bool RoutingUnit::segment_crosses_dateline(const Flit& head, int out) const {
  const int dim = topology_.port(out).dimension;
  if (head.route_length > 0) {
    int node = node_;
    for (int i = head.route_position; i < head.route_length && topology_.port(head.route[i]).dimension == dim; ++i) {
      if (topology_.crosses_dateline(node, head.route[i])) return true;
      node = topology_.neighbor(node, head.route[i]);
    }
    return false;
  }
  const int here = topology_.coordinate(node_, dim), there = topology_.coordinate(head.dst, dim);
  return topology_.port(out).offset > 0 ? there < here : there > here;
}

}  // namespace meshmp
