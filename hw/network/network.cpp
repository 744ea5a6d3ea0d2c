// The cycle-level interconnect: link calendar, clock process and deadlock watchdog. See network.h.
#include "hw/network/network.h"

#include "hw/router/channel_dependencies.h"

#include "hw/base/progress_poll.h"
#include "hw/base/stop_request.h"

#include <algorithm>
#include <utility>

namespace meshmp {

Network::Network(sc_core::sc_module_name name, const Topology& topology, const RouterParams& params,
                 PortModel port_model, RoutingFunction routing, sc_core::sc_time clock_period,
                 std::uint64_t watchdog_cycles, int host_threads)
    : sc_core::sc_module(name),
      topology_(topology),
      params_(params),
      port_model_(port_model),
      routing_(routing),
      period_(clock_period),
      watchdog_cycles_(watchdog_cycles),
      endpoints_(topology.num_nodes(), nullptr),
      // Every delivery lands within this many cycles of its sending: a flit's link, a credit's wire and
      // its processing, the ejection channel's credit (one cycle of wire).
      calendar_slots_(static_cast<std::size_t>(std::max({params.link_latency_cycles,
                                                          params.credit_wire_cycles() + params.credit_processing_cycles,
                                                          1 + params.credit_processing_cycles})) +
                      2),
      ejection_calendar_(calendar_slots_),
      injection_credit_calendar_(calendar_slots_),
      link_arrivals_(calendar_slots_, 0),
      host_threads_(std::max(1, host_threads)),
      active_routers_((topology.num_nodes() + 63) / 64, 0),
      router_always_(topology.num_nodes(), 0),
      endpoint_active_(topology.num_nodes(), 0) {
  // One chunk of consecutive nodes per host thread, as equal as can be. Chunk 0 is the simulation
  // thread's: its routers send into the network directly; the workers' chunks send into their stages.
  // (The simulation thread also steps the endpoints and the firmware, but the workers pay for their
  // routers' deliveries and sends crossing between cores: equal chunks measured best on 2 cores.)
  const int nodes = topology.num_nodes();
  const int chunks = std::min(nodes, host_threads_);
  chunk_of_node_.resize(static_cast<std::size_t>(nodes));
  for (int k = 0; k < chunks; ++k) {
    RouterChunk chunk;
    chunk.first_node = static_cast<int>(static_cast<std::int64_t>(nodes) * k / chunks);
    chunk.end_node = static_cast<int>(static_cast<std::int64_t>(nodes) * (k + 1) / chunks);
    chunk.first_word = static_cast<std::size_t>(chunk.first_node / 64);
    for (int w = chunk.first_node / 64; w <= (chunk.end_node - 1) / 64; ++w) {
      std::uint64_t mask = 0;
      for (int bit = 0; bit < 64; ++bit)
        if (w * 64 + bit >= chunk.first_node && w * 64 + bit < chunk.end_node) mask |= std::uint64_t{1} << bit;
      chunk.node_mask.push_back(mask);
    }
    chunk.woken.assign(chunk.node_mask.size(), 0);
    chunk.still_active.assign(chunk.node_mask.size(), 0);
    if (k > 0) chunk.stage = std::make_unique<StagedRouterEnvironment>(*this);
    RouterEnvironment* environment = chunk.stage ? static_cast<RouterEnvironment*>(chunk.stage.get()) : this;
    for (int n = chunk.first_node; n < chunk.end_node; ++n) {
      chunk_of_node_[static_cast<std::size_t>(n)] = k;
      routers_.push_back(make_router(params.model, n, topology, params, port_model, routing, environment));
    }
    chunks_.push_back(std::move(chunk));
  }
  flit_calendar_.resize(calendar_slots_ * chunks_.size());
  credit_calendar_.resize(calendar_slots_ * chunks_.size());
  if (chunks > 1)
    step_pool_ = std::make_unique<RouterStepPool>(chunks - 1, [this](int worker) { step_chunk(worker + 1); });
  SC_METHOD(clock_edge);
  sensitive << tick_;
  dont_initialize();
}

Network::~Network() {
  if (!step_pool_ || !routers_outstanding_) return;
  try {
    step_pool_->finish();
  } catch (...) {  // a failed last step: nothing is read any more
  }
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
  // A tick scheduled further ahead (the clock skipping a start-up) is brought forward: the earlier
  // notification replaces the later one.
  const std::uint64_t next_cycle = current_cycle() + 1;
  if ((tick_scheduled_ && scheduled_cycle_ <= next_cycle) || !failure_.empty()) return;
  tick_.notify(period_ * static_cast<double>(next_cycle) - sc_core::sc_time_stamp());
  tick_scheduled_ = true;
  scheduled_cycle_ = next_cycle;
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
  if (trace_ && flit.head)
    trace_->push_back({packets_.at(flit.tag).created_cycle, packets_.at(flit.tag).src, flit.dst, flit.packet_flits});
  ++flits_in_network_;
  last_progress_cycle_ = cycle;
  const std::uint64_t arrival = cycle + 1;
  stamp_arrival(flit, arrival);
  flit_calendar_[calendar_index(arrival % calendar_slots_, node)].push_back(
      {node, topology_.num_ports() + channel, flit});
  ++pending_deliveries_;
}

void Network::stamp_arrival(const Flit& flit, std::uint64_t arrival) {
  if (!flit.head && !flit.tail) return;
  PacketRecord& packet = packets_.at(flit.tag);
  if (flit.head) packet.head_arrival_cycle = arrival;
  if (flit.tail) packet.tail_arrival_cycle = arrival;
}

void Network::return_ejection_credit(int node, int channel, int vc) {
  // One cycle on the ejection channel's credit wire, then the output unit's processing.
  const std::uint64_t counted = now_cycle_ + 1 + params_.credit_processing_cycles;
  credit_calendar_[calendar_index(counted % calendar_slots_, node)].push_back({node, topology_.num_ports() + channel, vc});
  ++credits_in_flight_;
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
    ejection_calendar_[(now_cycle_ + 1) % calendar_slots_].push_back({router, out_port - net_ports, flit});
  } else {
    int next = topology_.neighbor(router, out_port);
    if (next < 0) {
      protocol_error("router " + std::to_string(router) + " routed packet tag " + std::to_string(flit.tag) +
                     " off the edge of the mesh through port " + std::to_string(out_port));
      return;
    }
    ++flit_hops_;
    if (flit.head) ++packets_.at(flit.tag).hops;
    if (link_faults_.empty()) {
      put_on_link(next, out_port, flit);
    } else {
      Flit crossing = flit;
      if (!link_faults_.pass_flit(router, next, now_cycle_, crossing)) {
        --flits_in_network_;  // dropped on the link: it never arrives
        return;
      }
      put_on_link(next, out_port, crossing);
    }
  }
  ++pending_deliveries_;
}

void Network::put_on_link(int next, int out_port, const Flit& flit) {
  ++flits_on_links_;
  const std::uint64_t arrival = now_cycle_ + params_.link_latency_cycles;
  stamp_arrival(flit, arrival);
  ++link_arrivals_[arrival % calendar_slots_];
  flit_calendar_[calendar_index(arrival % calendar_slots_, next)].push_back({next, topology_.reverse_port(out_port), flit});
}

void Network::send_credit(int router, int in_port, int vc) {
  const int net_ports = topology_.num_ports();
  if (in_port >= net_ports) {
    injection_credit_calendar_[(now_cycle_ + 1) % calendar_slots_].push_back({router, in_port - net_ports, vc});
  } else {
    const int upstream = topology_.neighbor(router, in_port);
    if (!link_faults_.empty() && !link_faults_.pass_credit(upstream, router, now_cycle_)) return;  // withheld
    // On the wire, then registered by the upstream output unit: handed to it when its allocators may
    // count the slot (a router model sees a credit at the cycle it counts).
    const std::uint64_t counted = now_cycle_ + params_.credit_wire_cycles() + params_.credit_processing_cycles;
    credit_calendar_[calendar_index(counted % calendar_slots_, upstream)].push_back(
        {upstream, topology_.reverse_port(in_port), vc});
  }
  ++credits_in_flight_;
  ++pending_deliveries_;
}

void Network::protocol_error(const std::string& what) { fail("protocol error: " + what, now_cycle_); }

void Network::fail(const std::string& what, std::uint64_t cycle) {
  if (!failure_.empty()) return;
  settle();  // the report reads every router
  failure_ = what + " (cycle " + std::to_string(cycle) + ")";
  failure_cycle_ = cycle;
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
  if (stop_signal() != 0) {  // SIGINT / SIGTERM: the run ends at this edge
    sc_core::sc_stop();
    return;
  }
  poll_progress();
  step(current_cycle());
  if (!failure_.empty()) return;
  // Exact before the routers' step is settled: routers send only while they hold flits, and then
  // flits_in_network_ > 0.
  const bool work = busy();
  if (!work) settle();
  if (!failure_.empty()) return;
  // While routers are traced the clock keeps ticking, so their probes show idle cycles as idle.
  if (work || traced_routers_ > 0) {
    const std::uint64_t next = next_tick_cycle(work);
    tick_.notify(period_ * static_cast<double>(next - now_cycle_));
    tick_scheduled_ = true;
    scheduled_cycle_ = next;
  }
  if (!work && on_idle_) on_idle_();
}

std::uint64_t Network::next_tick_cycle(bool work) const {
  // With nothing in the network (no flit, credit or delivery on its way) the routers have nothing to do
  // and only the endpoints' own times matter: a channel's start-up is skipped, as an idle network is.
  if (!work || traced_routers_ > 0 || on_cycle_end_ || flits_in_network_ > 0 || credits_in_flight_ > 0 ||
      pending_deliveries_ > 0)
    return now_cycle_ + 1;
  std::uint64_t next = UINT64_MAX;
  for (int node : active_endpoints_)
    next = std::min(next, endpoints_[node] ? endpoints_[node]->next_work_cycle(now_cycle_) : now_cycle_ + 1);
  return next == UINT64_MAX ? now_cycle_ + 1 : next;
}

void Network::step(std::uint64_t cycle) {
  settle();  // the last cycle's routers
  if (!failure_.empty()) return;
  now_cycle_ = cycle;
  ++cycles_stepped_;
  const std::size_t slot = cycle % calendar_slots_;

  // What arrives for routers this cycle is delivered by step_chunk; count it as delivered now. A credit
  // that arrives is progress: it may be what a blocked flit waits for.
  std::size_t credits = 0;
  for (std::size_t k = 0; k < chunks_.size(); ++k) {
    credits += credit_calendar_[slot * chunks_.size() + k].size();
    pending_deliveries_ -= flit_calendar_[slot * chunks_.size() + k].size() +
                           credit_calendar_[slot * chunks_.size() + k].size();
  }
  if (credits > 0) {
    credits_in_flight_ -= credits;
    last_progress_cycle_ = cycle;
  }
  if (link_arrivals_[slot] > 0) {
    flits_on_links_ -= link_arrivals_[slot];
    link_arrivals_[slot] = 0;
    last_progress_cycle_ = cycle;
  }

  routers_outstanding_ = true;
  if (step_pool_) {
    step_pool_->start();
    step_endpoints(cycle);  // chunk 0 and the workers' are settled at the next edge, or when read
  } else {
    step_endpoints(cycle);
    settle();
  }
}

void Network::settle() {
  if (!routers_outstanding_) return;
  routers_outstanding_ = false;
  step_chunk(0);
  if (step_pool_) step_pool_->finish();
  // Routers with flits buffered (or traced) stay active; then what the chunks sent, in node order.
  for (RouterChunk& chunk : chunks_)
    for (std::size_t i = 0; i < chunk.node_mask.size(); ++i) {
      std::uint64_t& word = active_routers_[chunk.first_word + i];
      word = (word & ~chunk.node_mask[i]) | chunk.still_active[i];
    }
  for (RouterChunk& chunk : chunks_)
    if (chunk.stage) chunk.stage->replay();

  if (on_cycle_end_) on_cycle_end_(now_cycle_);

  // Flits and credits on a link are moving: only flits that sit in buffers for watchdog_cycles with no
  // credit on its way to free them are a deadlock.
  if (flits_in_network_ > 0 && flits_on_links_ == 0 && credits_in_flight_ == 0 &&
      now_cycle_ > last_progress_cycle_ + watchdog_cycles_)
    fail("deadlock: " + std::to_string(flits_in_network_) + " flits in the network and none moved for " +
             std::to_string(watchdog_cycles_) + " cycles" + dependency_cycle_note(),
         now_cycle_);
}

std::string Network::dependency_cycle_note() const {
  if (!checked_before_run(topology_, params_)) return "";
  const ChannelDependencyReport report = check_channel_dependencies(topology_, params_, port_model_, routing_);
  if (report.acyclic()) return "";
  std::string note = "; the routing's channel dependency graph has this cycle (meshmp check): ";
  for (std::size_t i = 0; i < report.cycle.size(); ++i) note += (i ? " -> " : "") + report.cycle[i];
  return note;
}

void Network::step_endpoints(std::uint64_t cycle) {
  const std::size_t slot = cycle % calendar_slots_;
  auto& credits = injection_credit_calendar_[slot];
  for (const EndpointCredit& c : credits) endpoints_[c.node]->injection_credit(c.channel, c.vc);
  if (!credits.empty()) {
    credits_in_flight_ -= credits.size();
    last_progress_cycle_ = cycle;
  }
  pending_deliveries_ -= credits.size();
  credits.clear();

  auto& flits = ejection_calendar_[slot];
  for (const EndpointFlit& d : flits) {
    --flits_in_network_;
    last_progress_cycle_ = cycle;
    endpoints_[d.node]->eject(d.channel, d.flit, cycle);
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
}

void Network::step_chunk(int k) {
  RouterChunk& chunk = chunks_[static_cast<std::size_t>(k)];
  const std::size_t list = (now_cycle_ % calendar_slots_) * chunks_.size() + static_cast<std::size_t>(k);
  auto wake_router = [&chunk](int node) {
    chunk.woken[static_cast<std::size_t>(node / 64) - chunk.first_word] |= std::uint64_t{1} << (node % 64);
  };
  // A credit changes the router's state at this edge: it is stepped (a model with registered credit
  // counters, such as the RTL router, must see the edge; the SystemC router returns at once when empty).
  auto& credits = credit_calendar_[list];
  for (const CreditDelivery& c : credits) {
    routers_[c.node]->receive_credit(c.port, c.vc);
    wake_router(c.node);
  }
  credits.clear();
  auto& flits = flit_calendar_[list];
  for (const FlitDelivery& d : flits) {
    routers_[d.node]->receive_flit(d.port, d.flit, now_cycle_);
    wake_router(d.node);
  }
  flits.clear();

  for (std::size_t i = 0; i < chunk.node_mask.size(); ++i) {
    const std::size_t w = chunk.first_word + i;
    std::uint64_t still_active = 0;
    for (std::uint64_t bits = (active_routers_[w] | chunk.woken[i]) & chunk.node_mask[i]; bits != 0; bits &= bits - 1) {
      const int bit = __builtin_ctzll(bits);
      const int node = static_cast<int>(w * 64) + bit;
      routers_[node]->step(now_cycle_);
      if (routers_[node]->buffered_flits() != 0 || router_always_[node]) still_active |= std::uint64_t{1} << bit;
    }
    chunk.woken[i] = 0;
    chunk.still_active[i] = still_active;
  }
}

std::uint64_t Network::body_stall_cycles() const {
  settled();
  std::uint64_t sum = 0;
  for (const auto& r : routers_) sum += r->body_stall_cycles();
  return sum;
}

std::vector<LinkCount> Network::link_counts() const {
  settled();
  std::vector<LinkCount> links;
  for (int n = 0; n < topology_.num_nodes(); ++n)
    for (int p = 0; p < topology_.num_ports(); ++p) {
      int next = topology_.neighbor(n, p);
      if (next >= 0) links.push_back({n, next, p, routers_[n]->flits_sent(p)});
    }
  return links;
}

}  // namespace meshmp
