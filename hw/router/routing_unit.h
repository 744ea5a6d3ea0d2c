// Route computation stage: the output port of a head flit (from the routing function, or the next entry
// of its source route) and the output VCs it may use. On rings with the dateline on, the VCs are split
// into two classes: a packet uses class 0 until it crosses the ring's wrap-around link and class 1 after,
// which breaks the cyclic channel dependency of the ring (Dally & Seitz; 001 §1 tori). With
// dateline_whole_segment a packet whose stretch of the ring crosses the wrap-around link takes class 1
// from its first hop of that stretch, the others class 0 (BookSim2's dim_order_torus): on minimal routes
// no class-1 stretch reaches the link opposite the wrap-around one, so neither class closes a cycle, and
// the two classes share the traffic. Ejection: one-port
// nodes have one ejection channel; all-port nodes eject through the channel of the arrival direction.
// An adaptive function (router.routing) offers several outputs; the router picks one (router.selection).
// With escape channels (Duato) the lowest VCs are the escape channels (one, or one per dateline class on
// a topology with rings: the escape route's class picks which), the rest adaptive. A two-phase function
// splits every range above in two: the lower half for the way to the intermediate node, the upper for
// the way on (on rings 4 classes: phase x dateline class; hw/router/two_phase_routing.h).
#pragma once

#include <cstdint>

#include "hw/router/flit.h"
#include "hw/router/router_params.h"
#include "hw/router/routing.h"
#include "topology/topology.h"

namespace meshmp {

struct RouteDecision {
  int out_port;
  int vc_begin;
  int vc_end;
  std::uint8_t vc_class;
  std::uint8_t ring_dimension;
};

class RoutingUnit {
 public:
  RoutingUnit(int node, const Topology& topology, const RouterParams& params, PortModel port_model,
              RoutingFunction routing);

  RouteDecision compute(const Flit& head, int in_port) const;
  // An adaptive function's outputs for a head the routers route (no source route, not at its destination),
  // from `src`, arrived on `in_port`; false when the head takes compute()'s one output. With escape
  // channels, a head that arrived on one is offered only the escape route.
  bool adaptive_choices(const Flit& head, int in_port, int src, RouteChoices& out) const;
  bool adaptive() const { return adaptive_ != nullptr; }
  // An adaptive function's head leaving its source router (arrived on a local port, no source route) takes
  // this router's column into its header (flit.h, source_column).
  void mark_source(Flit& head, int in_port) const {
    if (in_port >= topology_.num_ports() && head.route_length == 0) set_source_column(head, topology_.coordinate(node_, 0));
  }
  // An adaptive or two-phase function: more to decide than compute()'s one output per destination.
  bool beyond_one_route() const { return adaptive_ != nullptr || intermediates_ != nullptr; }
  // The decision for a network output `out` on the VCs `vc_set` (their range, dateline class).
  RouteDecision to_output(const Flit& head, int out, VcSet vc_set = VcSet::All) const;

  // Two-phase oblivious functions, for a head the routers route: at its source router (`injected`) its
  // header takes `intermediate` and phase 0; at the intermediate node it turns to phase 1. Writes the
  // header into `head` and returns its output.
  bool two_phase() const { return intermediates_ != nullptr; }
  RouteDecision compute_two_phase(Flit& head, int in_port, int intermediate) const;
  IntermediateRange intermediates() const { return intermediates_; }

 private:
  // to_output toward `target` (the destination, or a two-phase head's intermediate node).
  RouteDecision output_toward(const Flit& head, int out, VcSet vc_set, int target) const;
  int node_;
  const Topology& topology_;
  int vcs_;
  bool dateline_;
  bool whole_segment_;
  // True when the head's stretch of the ring it leaves on through `out` crosses the wrap-around link:
  // from its source route, or from its destination (minimal routes).
  bool segment_crosses_dateline(const Flit& head, int out, int target) const;
  bool all_port_;
  RoutingFunction routing_;
  AdaptiveRoutingFunction adaptive_ = nullptr;
  int escape_vcs_ = 0;  // 0: no escape channels
  IntermediateRange intermediates_ = nullptr;
  bool phase_classes_ = false;
};

}  // namespace meshmp
