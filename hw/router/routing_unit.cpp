// Route computation stage. See routing_unit.h.
#include "hw/router/routing_unit.h"

#include "hw/router/minimal_adaptive.h"

namespace meshmp {

RoutingUnit::RoutingUnit(int node, const Topology& topology, const RouterParams& params, PortModel port_model,
                         RoutingFunction routing)
    : node_(node), topology_(topology), vcs_(params.vcs), dateline_(params.dateline),
      whole_segment_(params.dateline_whole_segment),
      all_port_(port_model == PortModel::AllPort), routing_(routing) {
  if (const RoutingFunctionInfo* function = params.routing_function) {
    adaptive_ = function->adaptive;
    if (function->escape_channels && params.escape_channels) escape_vcs_ = escape_vcs(topology, params.dateline);
    intermediates_ = function->intermediates;
    phase_classes_ = params.phase_classes;
  }
}

bool RoutingUnit::adaptive_choices(const Flit& head, int in_port, int src, RouteChoices& out) const {
  if (adaptive_ == nullptr || head.route_length > 0 || head.dst == node_) return false;
  if (escape_vcs_ == 0) {
    adaptive_(topology_, node_, src, head.dst, out);
    return true;
  }
  const bool on_escape = in_port < topology_.num_ports() && head.vc < escape_vcs_;
  if (on_escape) {
    out.count = 0;
  } else {
    adaptive_(topology_, node_, src, head.dst, out);
    for (int k = 0; k < out.count; ++k) out.vc_sets[k] = VcSet::Adaptive;
  }
  out.add(routing_(topology_, node_, head.dst), VcSet::Escape);
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

RouteDecision RoutingUnit::compute_two_phase(Flit& head, int in_port, int intermediate) const {
  const int net_ports = topology_.num_ports();
  if (in_port >= net_ports) set_two_phase_header(head, intermediate, 0);
  if (two_phase_phase(head) == 0 && two_phase_intermediate(head) == node_) {
    // The second phase starts as if injected here: on a ring it takes its dateline class afresh.
    set_two_phase_header(head, two_phase_intermediate(head), 1);
    head.ring_dimension = kNoPort;
    head.vc_class = 0;
  }
  const int phase = two_phase_phase(head);
  const int target = phase == 0 ? two_phase_intermediate(head) : head.dst;
  const int out = routing_(topology_, node_, target);
  if (out < 0) return {net_ports, 0, vcs_, 0, kNoPort};
  RouteDecision d = output_toward(head, out, VcSet::All, target);
  if (phase_classes_) {
    const int half = (d.vc_end - d.vc_begin) / 2;
    d.vc_begin += phase * half;
    d.vc_end = d.vc_begin + half;
  }
  return d;
}

RouteDecision RoutingUnit::to_output(const Flit& head, int out, VcSet vc_set) const {
  return output_toward(head, out, vc_set, head.dst);
}

RouteDecision RoutingUnit::output_toward(const Flit& head, int out, VcSet vc_set, int target) const {
  const int dim = topology_.port(out).dimension;
  const bool ring = dateline_ && topology_.dimension(dim).kind == DimensionKind::Ring;
  if (!ring && vc_set == VcSet::All) return {out, 0, vcs_, 0, static_cast<std::uint8_t>(dim)};  // most heads
  std::uint8_t cls = 0;
  if (ring) {
    cls = head.ring_dimension == dim ? head.vc_class : 0;
    if (whole_segment_) {
      if (head.ring_dimension != dim) cls = segment_crosses_dateline(head, out, target) ? 1 : 0;
    } else if (topology_.crosses_dateline(node_, out)) {
      cls = 1;
    }
  }
  const auto decision = [&](int begin, int end) {
    return RouteDecision{out, begin, end, cls, static_cast<std::uint8_t>(dim)};
  };
  switch (vc_set) {
    case VcSet::Adaptive: return decision(escape_vcs_, vcs_);
    case VcSet::Escape: return ring ? decision(cls, cls + 1) : decision(0, 1);
    case VcSet::All: break;
  }
  if (!ring) return decision(0, vcs_);
  const int half = vcs_ / 2;
  return cls == 0 ? decision(0, half) : decision(half, vcs_);
}

bool RoutingUnit::segment_crosses_dateline(const Flit& head, int out, int target) const {
  const int dim = topology_.port(out).dimension;
  if (head.route_length > 0) {
    int node = node_;
    for (int i = head.route_position; i < head.route_length && topology_.port(head.route[i]).dimension == dim; ++i) {
      if (topology_.crosses_dateline(node, head.route[i])) return true;
      node = topology_.neighbor(node, head.route[i]);
    }
    return false;
  }
  const int here = topology_.coordinate(node_, dim), there = topology_.coordinate(target, dim);
  return topology_.port(out).offset > 0 ? there < here : there > here;
}

}  // namespace meshmp
