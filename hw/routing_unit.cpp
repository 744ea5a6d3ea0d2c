// Route computation stage. See routing_unit.h.
#include "hw/routing_unit.h"

namespace meshmp {

RoutingUnit::RoutingUnit(int node, const Topology& topology, const RouterParams& params, PortModel port_model,
                         RoutingFunction routing)
    : node_(node), topology_(topology), vcs_(params.vcs), dateline_(params.dateline),
      all_port_(port_model == PortModel::AllPort), routing_(routing) {}

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
  const int dim = topology_.port(out).dimension;
  if (!dateline_ || topology_.dimension(dim).kind != DimensionKind::Ring)
    return {out, 0, vcs_, 0, static_cast<std::uint8_t>(dim)};
  std::uint8_t cls = head.ring_dimension == dim ? head.vc_class : 0;
  if (topology_.crosses_dateline(node_, out)) cls = 1;
  const int half = vcs_ / 2;
  return cls == 0 ? RouteDecision{out, 0, half, 0, static_cast<std::uint8_t>(dim)}
                  : RouteDecision{out, half, vcs_, 1, static_cast<std::uint8_t>(dim)};
}

}  // namespace meshmp
