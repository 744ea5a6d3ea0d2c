// Cycle-level wormhole router: the order of the pipeline stages within one cycle. See router.h.
#include "hw/router/router.h"

#include <algorithm>

#include "hw/router/two_phase_routing.h"

namespace meshmp {

Router::Router(int node, const Topology& topology, const RouterParams& params, PortModel port_model,
               RoutingFunction routing, RouterEnvironment* environment)
    : node_(node),
      topology_(topology),
      params_(params),
      net_ports_(topology.num_ports()),
      local_ports_(port_model == PortModel::AllPort ? topology.num_ports() : 1),
      env_(environment),
      routing_unit_(node, topology, params, port_model, routing),
      routing_random_(params.routing_seed * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(node)),
      vc_allocator_(net_ports_ + local_ports_, params.vcs, params.islip_vc_allocator),
      vc_allocation_lead_(params.islip_vc_allocator && params.pipeline_depth >= 2 ? 1 : 0),
      switch_allocator_(net_ports_ + local_ports_, net_ports_ + local_ports_, params.vcs),
      traversals_(net_ports_ + local_ports_),
      probes_(net_ports_ + local_ports_) {
  if (routing_unit_.adaptive()) route_choices_.resize(static_cast<std::size_t>(num_ports()) * params.vcs);
  for (int p = 0; p < num_ports(); ++p) {
    inputs_.emplace_back(params.vcs, params.buffer_flits);
    const bool ejection = p >= net_ports_;
    outputs_.emplace_back(params.vcs, params.buffer_flits, ejection, ejection && params.exclusive_ejection);
  }
}

void Router::receive_flit(int in_port, const Flit& flit, std::uint64_t) {
  if (!inputs_[in_port].write(flit)) {
    env_->protocol_error("router " + std::to_string(node_) + " input " + port_name(topology_, in_port) +
                         " vc " + std::to_string(flit.vc) + ": buffer overflow (a flit arrived without a credit)");
    return;
  }
  ++buffered_flits_;
}

std::uint64_t Router::flits_sent(int out_port) const {
  std::uint64_t sent = 0;
  for (int in = 0; in < num_ports(); ++in) sent += traversals_.traversals(in, out_port);
  return sent;
}

std::optional<RouterActivity> Router::activity() const {
  RouterActivity activity = traversals_;
  for (int in = 0; in < num_ports(); ++in) activity.set_buffer_writes(in, inputs_[in].flits_written());
  return activity;
}

void Router::receive_credit(int out_port, int vc) {
  if (!outputs_[out_port].return_credit(vc))
    env_->protocol_error("router " + std::to_string(node_) + " output " + port_name(topology_, out_port) +
                         " vc " + std::to_string(vc) + ": credit returned beyond the buffer depth");
}

bool Router::tail_ready(const InputUnit& unit, int v) const {
  // The packet's tail is the (packet_flits - 1)th flit behind its head in the same buffer.
  const InputVirtualChannel& vc = unit.vc(v);
  return vc.tails_buffered > 0 && unit.age(v, vc.front_flit().packet_flits - 1) >= params_.pipeline_depth;
}

int Router::packet_credits_needed(const Flit& head) const {
  return params_.switching == SwitchingMode::Wormhole ? 1 : head.packet_flits;
}

void Router::step(std::uint64_t cycle) {
  now_ = cycle;
  if (probes_enabled_)
    for (auto& p : probes_) p.flit_valid = false;
  if (buffered_flits_ == 0) return;
  const int vcs = params_.vcs;
  const bool store_and_forward = params_.switching == SwitchingMode::StoreAndForward;

  // ---- Evaluate ----
  // Route computation for heads through their pipeline, then their VC allocation requests.
  for (int in = 0; in < num_ports(); ++in) {
    InputUnit& unit = inputs_[in];
    for (std::uint32_t bits = unit.occupied_vcs() & ~unit.active_vcs(); bits != 0; bits &= bits - 1) {
      const int v = __builtin_ctz(bits);
      InputVirtualChannel& vc = unit.vc(v);
      if (!front_ready(unit, v, vc_allocation_lead_)) continue;
      const Flit& front = vc.front_flit();
      if (vc.state == VcState::Idle) {
        if (!front.head) {
          env_->protocol_error("router " + std::to_string(node_) + " input " + port_name(topology_, in) +
                               " vc " + std::to_string(v) + ": a body flit reached the front of an idle VC");
          continue;
        }
        vc.route_choices = 0;
        if (routing_unit_.adaptive()) routing_unit_.mark_source(vc.front_flit(), in);
        RouteDecision d;
        if (!routing_unit_.beyond_one_route()) {
          d = routing_unit_.compute(front, in);
        } else if (routing_unit_.two_phase() && front.route_length == 0) {
          // The source router draws the intermediate node; every router on the way reads it from the header.
          const int intermediate = in >= net_ports_ ? draw_intermediate(topology_, routing_unit_.intermediates(), node_,
                                                                        front.dst, routing_random_)
                                                    : 0;
          d = routing_unit_.compute_two_phase(vc.front_flit(), in, intermediate);
        } else if (routing_unit_.adaptive() &&
                   routing_unit_.adaptive_choices(front, in, env_->packet_source(front.tag), route_choices(in, v))) {
          const RouteChoices& choices = route_choices(in, v);
          if (choices.count == 0) {
            env_->protocol_error("router " + std::to_string(node_) + ": the routing function offers no output to node " +
                                 std::to_string(front.dst));
            continue;
          }
          vc.route_choices = static_cast<std::uint8_t>(choices.count);
          d = routing_unit_.to_output(front, choices.ports[0], choices.vc_sets[0]);
        } else {
          d = routing_unit_.compute(front, in);
        }
        vc.out_port = d.out_port;
        vc.vc_begin = d.vc_begin;
        vc.vc_end = d.vc_end;
        vc.next_vc_class = d.vc_class;
        vc.next_ring_dimension = d.ring_dimension;
        unit.set_state(v, VcState::WaitingForVc);
      }
      // Store-and-forward: the packet's tail must be in the buffer, and then the head still takes the
      // whole pipeline, counted from the tail's buffer write (waiting for it is not contention).
      if (store_and_forward && !tail_ready(unit, v)) continue;
      if (vc.route_choices > 1) select_output(vc, route_choices(in, v), packet_credits_needed(front));
      vc_allocator_.request(vc.out_port, {in * vcs + v, vc.vc_begin, vc.vc_end, packet_credits_needed(front)});
    }
  }
  vc_allocator_.allocate(outputs_, [&](int input_vc, int, int out_vc) {
    InputUnit& unit = inputs_[input_vc / vcs];
    unit.vc(input_vc % vcs).out_vc = out_vc;
    unit.set_state(input_vc % vcs, VcState::Active);
  });

  // Switch allocation among VCs whose front flit is through its pipeline and has a downstream credit.
  // A body flit through its pipeline counts a stalled cycle unless it crosses the switch.
  for (int in = 0; in < num_ports(); ++in) {
    const InputUnit& unit = inputs_[in];
    for (std::uint32_t bits = unit.occupied_vcs() & unit.active_vcs(); bits != 0; bits &= bits - 1) {
      const int v = __builtin_ctz(bits);
      const InputVirtualChannel& vc = unit.vc(v);
      if (!front_ready(unit, v)) continue;
      if (!vc.front_flit().head) ++body_stall_cycles_;
      if (outputs_[vc.out_port].has_credit(vc.out_vc)) switch_allocator_.offer(in, v, vc.out_port);
    }
  }

  // ---- Update ----
  for (const SwitchGrant& grant : switch_allocator_.allocate()) traverse(grant);
  for (InputUnit& unit : inputs_) unit.age_one_cycle();
}

void Router::select_output(InputVirtualChannel& vc, const RouteChoices& choices, int credits_needed) {
  const Flit& head = vc.front_flit();
  int available[kMaxRouteChoices];
  int count = 0, most = 0, most_credits = -1;
  for (int k = 0; k < choices.count; ++k) {
    const RouteDecision d = routing_unit_.to_output(head, choices.ports[k], choices.vc_sets[k]);
    const OutputUnit& output = outputs_[d.out_port];
    int credits = -1;
    for (int v = d.vc_begin; v < d.vc_end; ++v)
      if (output.is_free(v) && output.has_credit(v, credits_needed)) credits = std::max(credits, 0) + output.credits(v);
    if (credits < 0) continue;
    if (credits > most_credits) most_credits = credits, most = k;
    available[count++] = k;
  }
  int pick = 0;
  if (count > 0) {
    switch (params_.selection) {
      case RouteSelection::Unset:
      case RouteSelection::First: pick = available[0]; break;
      case RouteSelection::Random: pick = available[routing_random_() % static_cast<std::uint64_t>(count)]; break;
      case RouteSelection::MostCredits: pick = most; break;
    }
  }
  const RouteDecision d = routing_unit_.to_output(head, choices.ports[pick], choices.vc_sets[pick]);
  vc.out_port = d.out_port;
  vc.vc_begin = d.vc_begin;
  vc.vc_end = d.vc_end;
  vc.next_vc_class = d.vc_class;
  vc.next_ring_dimension = d.ring_dimension;
}

void Router::traverse(const SwitchGrant& grant) {
  InputVirtualChannel& vc = inputs_[grant.in_port].vc(grant.vc);
  Flit flit = inputs_[grant.in_port].pop(grant.vc);
  --buffered_flits_;
  if (flit.head) {
    flit.vc_class = vc.next_vc_class;
    flit.ring_dimension = vc.next_ring_dimension;
    if (flit.route_length > 0 && grant.out_port < net_ports_) ++flit.route_position;
  } else {
    --body_stall_cycles_;
  }
  flit.vc = static_cast<std::uint8_t>(vc.out_vc);
  OutputUnit& out = outputs_[grant.out_port];
  if (!out.consume_credit(vc.out_vc))
    env_->protocol_error("router " + std::to_string(node_) + " output " + port_name(topology_, grant.out_port) +
                         " vc " + std::to_string(vc.out_vc) + ": a flit left without a credit");
  if (flit.tail) {
    vc.last_tail_cycle = now_;
    out.release(vc.out_vc);
    inputs_[grant.in_port].set_state(grant.vc, VcState::Idle);
  }
  traversals_.count_traversal(grant.in_port, grant.out_port);
  if (probes_enabled_) probes_[grant.out_port].show(flit, env_->packet_source(flit.tag));
  env_->send_flit(node_, grant.out_port, flit);
  env_->send_credit(node_, grant.in_port, grant.vc);
}

std::vector<std::string> Router::describe_blocked(std::uint64_t) const {
  std::vector<std::string> lines;
  for (int in = 0; in < num_ports(); ++in) {
    for (int v = 0; v < params_.vcs; ++v) {
      const InputVirtualChannel& vc = inputs_[in].vc(v);
      if (vc.empty()) continue;
      const Flit& f = vc.front_flit();
      std::string line = "router " + std::to_string(node_) + " " + topology_.coordinates_text(node_) + " in " +
                         port_name(topology_, in) + " vc " + std::to_string(v) + ": " +
                         std::to_string(vc.count) + " flit(s) of packet tag " + std::to_string(f.tag) + " from node " +
                         std::to_string(env_->packet_source(f.tag)) + (f.head ? " to node " + std::to_string(f.dst) : "");
      if (vc.state == VcState::Idle) {
        line += front_ready(inputs_[in], v) ? ", head not yet routed" : ", in the pipeline";
      } else if (vc.state == VcState::WaitingForVc) {
        line += " waits for a free VC " + std::to_string(vc.vc_begin) + ".." + std::to_string(vc.vc_end - 1) +
                " on out " + port_name(topology_, vc.out_port) + " (owners:";
        for (int o = vc.vc_begin; o < vc.vc_end; ++o) {
          int owner = outputs_[vc.out_port].owner(o);
          line += owner < 0 ? " free" : " " + port_name(topology_, owner / params_.vcs) + "/vc" +
                                            std::to_string(owner % params_.vcs);
        }
        line += ")";
        if (vc.out_port >= net_ports_) line += ", the ejection channel takes one packet at a time";
      } else {
        line += " waits for a credit on out " + port_name(topology_, vc.out_port) + " vc " +
                std::to_string(vc.out_vc) + " (credits " +
                std::to_string(outputs_[vc.out_port].credits(vc.out_vc)) + ")";
      }
      lines.push_back(line);
    }
  }
  return lines;
}

namespace {

// The cycle-level SystemC router: the reference model.
RouterModelDescription cpp_router_description() {
  RouterModelDescription d;
  d.name = kReferenceRouterModel;
  d.make = [](int node, const Topology& topology, const RouterParams& params, PortModel port_model,
              RoutingFunction routing, RouterEnvironment* environment) -> std::unique_ptr<RouterModel> {
    return std::make_unique<Router>(node, topology, params, port_model, routing, environment);
  };
  d.systemc_stages = true;
  return d;
}

const RouterModelRegistration kRegistration{10, cpp_router_description};

}  // namespace

}  // namespace meshmp
