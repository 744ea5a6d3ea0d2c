// The cycle-level interconnect: link calendar, clock process and deadlock watchdog. See network.h.
#include "hw/network.h"

namespace meshmp {

Network::Network(sc_core::sc_module_name name, const Topology& topology, const RouterParams& params,
                 PortModel port_model, RoutingFunction routing, sc_core::sc_time clock_period,
                 std::uint64_t watchdog_cycles)
    : sc_core::sc_module(name),
      topology_(topology),
      params_(params),
      port_model_(port_model),
      routing_(routing),
      period_(clock_period),
      watchdog_cycles_(watchdog_cycles),
      endpoints_(topology.num_nodes(), nullptr),
      flit_calendar_(params.link_latency_cycles + 2),
      credit_calendar_(params.link_latency_cycles + 2),
      active_routers_((topology.num_nodes() + 63) / 64, 0),
      router_always_(topology.num_nodes(), 0),
      endpoint_active_(topology.num_nodes(), 0) {
  for (int n = 0; n < topology.num_nodes(); ++n)
    routers_.push_back(make_router(params.model, n, topology, params, port_model, routing, this));
  SC_METHOD(clock_edge);
  sensitive << tick_;
  dont_initialize();
}

void Network::attach(int node, NetworkEndpoint* endpoint) { endpoints_[node] = endpoint; }

std::uint64_t Network::current_cycle() const {
  return static_cast<std::uint64_t>(sc_core::sc_time_stamp() / period_);
}

void Network::wake(int node) {
  if (!endpoint_active_[node]) {
    endpoint_active_[node] = 1;
    active_endpoints_.push_back(node);
  }
  if (tick_scheduled_ || failed()) return;
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const sc_core::sc_time next = period_ * static_cast<double>(current_cycle() + 1);
  tick_.notify(next - now);
  tick_scheduled_ = true;
}

void Network::keep_stepping(int node) {
  if (!router_always_[node]) ++traced_routers_;
  router_always_[node] = 1;
  routers_[node]->set_probes_enabled(true);
  activate_router(node);
}

void Network::activate_router(int node) {
  active_routers_[node / 64] |= std::uint64_t{1} << (node % 64);
}

void Network::inject(int node, int channel, const Flit& flit, std::uint64_t cycle) {
  ++flits_in_network_;
  last_progress_cycle_ = cycle;
  flit_calendar_[(cycle + 1) % flit_calendar_.size()].push_back(
      {node, topology_.num_ports() + channel, false, flit});
  ++pending_deliveries_;
}

void Network::return_ejection_credit(int node, int channel, int vc) {
  credit_calendar_[(now_cycle_ + 1) % credit_calendar_.size()].push_back({node, topology_.num_ports() + channel, vc, false});
  ++pending_deliveries_;
}

void Network::send_flit(int router, int out_port, const Flit& flit) {
  last_progress_cycle_ = now_cycle_;
  if (flit.head) {
    PacketRecord& packet = packets_.at(flit.tag);
    const std::uint64_t written =
        params_.switching == SwitchingMode::StoreAndForward ? packet.tail_arrival_cycle : packet.head_arrival_cycle;
    const std::uint64_t blocked = now_cycle_ - written - params_.pipeline_depth;
    packet.blocked_cycles += blocked;
    header_blocking_cycles_ += blocked;
    if (blocked > 0) {
      if (packet.step >= header_blocking_by_step_.size()) header_blocking_by_step_.resize(packet.step + 1, 0);
      header_blocking_by_step_[packet.step] += blocked;
    }
  }
  const int net_ports = topology_.num_ports();
  if (out_port >= net_ports) {
    flit_calendar_[(now_cycle_ + 1) % flit_calendar_.size()].push_back({router, out_port - net_ports, true, flit});
  } else {
    int next = topology_.neighbor(router, out_port);
    if (next < 0) {
      protocol_error("router " + std::to_string(router) + " routed packet tag " + std::to_string(flit.tag) +
                     " off the edge of the mesh through port " + std::to_string(out_port));
      return;
    }
    ++flit_hops_;
    ++flits_on_links_;
    flit_calendar_[(now_cycle_ + params_.link_latency_cycles) % flit_calendar_.size()].push_back(
        {next, topology_.reverse_port(out_port), false, flit});
  }
  ++pending_deliveries_;
}

void Network::send_credit(int router, int in_port, int vc) {
  const int net_ports = topology_.num_ports();
  if (in_port >= net_ports) {
    credit_calendar_[(now_cycle_ + 1) % credit_calendar_.size()].push_back({router, in_port - net_ports, vc, true});
  } else {
    credit_calendar_[(now_cycle_ + params_.link_latency_cycles) % credit_calendar_.size()].push_back(
        {topology_.neighbor(router, in_port), topology_.reverse_port(in_port), vc, false});
  }
  ++pending_deliveries_;
}

void Network::protocol_error(const std::string& what) { fail("protocol error: " + what, now_cycle_); }

void Network::fail(const std::string& what, std::uint64_t cycle) {
  if (failed()) return;
  failure_ = what + " (cycle " + std::to_string(cycle) + ")";
  for (const auto& router : routers_)
    if (router->buffered_flits() > 0)
      for (auto& line : router->describe_blocked(cycle)) blocked_.push_back(std::move(line));
  for (const NetworkEndpoint* endpoint : endpoints_)
    if (endpoint)
      for (auto& line : endpoint->describe_pending()) blocked_.push_back(std::move(line));
  if (on_failure_) on_failure_();
}

bool Network::busy() const {
  // Routers stepped only for their waveform probes (keep_stepping) are not work.
  return pending_deliveries_ > 0 || flits_in_network_ > 0 || !active_endpoints_.empty();
}

void Network::clock_edge() {
  tick_scheduled_ = false;
  step(current_cycle());
  if (failed()) return;
  const bool work = busy();
  // While routers are traced the clock keeps ticking, so their probes show idle cycles as idle.
  if (work || traced_routers_ > 0) {
    tick_.notify(period_);
    tick_scheduled_ = true;
  }
  if (!work && on_idle_) on_idle_();
}

void Network::step(std::uint64_t cycle) {
  now_cycle_ = cycle;
  ++cycles_stepped_;
  const std::size_t slot = cycle % flit_calendar_.size();

  auto& credits = credit_calendar_[slot];
  for (const CreditDelivery& c : credits) {
    if (c.to_endpoint) endpoints_[c.node]->injection_credit(c.port, c.vc);
    else {
      // A credit changes the router's state at this edge: it is stepped (a model with registered credit
      // counters, such as the RTL router, must see the edge; the SystemC router returns at once when empty).
      routers_[c.node]->receive_credit(c.port, c.vc);
      activate_router(c.node);
    }
  }
  pending_deliveries_ -= credits.size();
  credits.clear();

  auto& flits = flit_calendar_[slot];
  for (const FlitDelivery& d : flits) {
    if (d.to_endpoint) {
      --flits_in_network_;
      last_progress_cycle_ = cycle;
      endpoints_[d.node]->eject(d.port, d.flit, cycle);
    } else {
      if (d.port < topology_.num_ports()) {
        --flits_on_links_;
        last_progress_cycle_ = cycle;
      }
      if (d.flit.head) packets_.at(d.flit.tag).head_arrival_cycle = cycle;
      if (d.flit.tail) packets_.at(d.flit.tag).tail_arrival_cycle = cycle;
      routers_[d.node]->receive_flit(d.port, d.flit, cycle);
      activate_router(d.node);
    }
  }
  pending_deliveries_ -= flits.size();
  flits.clear();

  // Endpoints inject; one that runs out of work leaves the active list until it wakes again.
  for (std::size_t i = 0; i < active_endpoints_.size();) {
    int node = active_endpoints_[i];
    if (endpoints_[node] && endpoints_[node]->step(cycle)) {
      ++i;
    } else {
      endpoint_active_[node] = 0;
      active_endpoints_[i] = active_endpoints_.back();
      active_endpoints_.pop_back();
    }
  }

  // Routers with flits buffered (or traced) advance one cycle.
  for (std::size_t w = 0; w < active_routers_.size(); ++w) {
    for (std::uint64_t bits = active_routers_[w]; bits != 0; bits &= bits - 1) {
      const int node = static_cast<int>(w * 64) + __builtin_ctzll(bits);
      routers_[node]->step(cycle);
      if (routers_[node]->buffered_flits() == 0 && !router_always_[node])
        active_routers_[w] &= ~(std::uint64_t{1} << (node % 64));
    }
  }

  if (on_cycle_end_) on_cycle_end_(cycle);

  // Flits on a link are moving: only flits that sit in buffers for watchdog_cycles are a deadlock.
  if (flits_in_network_ > 0 && flits_on_links_ == 0 && cycle > last_progress_cycle_ + watchdog_cycles_)
    fail("deadlock: " + std::to_string(flits_in_network_) + " flits in the network and none moved for " +
             std::to_string(watchdog_cycles_) + " cycles",
         cycle);
}

std::uint64_t Network::body_stall_cycles() const {
  std::uint64_t sum = 0;
  for (const auto& r : routers_) sum += r->body_stall_cycles();
  return sum;
}

std::vector<LinkCount> Network::link_counts() const {
  std::vector<LinkCount> links;
  for (int n = 0; n < topology_.num_nodes(); ++n)
    for (int p = 0; p < topology_.num_ports(); ++p) {
      int next = topology_.neighbor(n, p);
      if (next >= 0) links.push_back({n, next, p, routers_[n]->flits_sent(p)});
    }
  return links;
}

}  // namespace meshmp
