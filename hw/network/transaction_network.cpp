// The transaction-level router network: reservations along the route, an event queue. See
// transaction_network.h.
#include "hw/network/transaction_network.h"

#include <algorithm>
#include <iterator>

#include "hw/network/zero_load_model.h"

namespace meshmp {

namespace {
// The order in which messages that may start at one cycle are reserved: the injection channels in
// their order (node, channel) from an offset and in a direction both drawn afresh for every cycle
// (splitmix64 of the cycle). No node is favoured cycle after cycle, as the routers' round-robin
// arbiters favour no input, and neither direction along the machine is: ordered by node alone, the
// first nodes won every contended link of every step of Bruck's synchronized shifts (torus:16x16
// finishing 35 % earlier than at the cycle level instead of 22 %; docs/speed.md). Neighbouring channels stay next to
// each other, so a cycle's messages walk the network's state in order (a permutation drawn per channel
// cost torus:64x64 direct 1.23x the time in cache misses).
std::uint64_t same_cycle_rank(std::uint64_t cycle, int binding, std::size_t bindings) {
  std::uint64_t x = cycle + 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  const std::uint64_t n = bindings, offset = (x >> 1) % n, b = static_cast<std::uint64_t>(binding);
  return (x & 1) ? (b + n - offset) % n : (offset + n - b) % n;
}
}  // namespace

TransactionNetwork::TransactionNetwork(sc_core::sc_module_name name, const Topology& topology,
                                       const RouterParams& params, PortModel port_model, RoutingFunction routing,
                                       sc_core::sc_time clock_period)
    : sc_core::sc_module(name),
      sources("sources"),
      destinations("destinations"),
      topology_(topology),
      params_(params),
      port_model_(port_model),
      routing_(routing),
      period_(clock_period),
      describe_pending_(static_cast<std::size_t>(topology.num_nodes())),
      links_(static_cast<std::size_t>(topology.num_nodes()) * static_cast<std::size_t>(topology.num_ports())),
      ejection_(static_cast<std::size_t>(topology.num_nodes()) * static_cast<std::size_t>(num_injection_channels())) {
  for (int n = 0; n < topology.num_nodes(); ++n)
    for (int p = 0; p < topology.num_ports(); ++p) {
      Link& link = links_[link_index(n, p)];
      link.next = topology.neighbor(n, p);
      link.reverse_port = topology.reverse_port(p);
      link.dimension = topology.port(p).dimension;
      link.ring = topology.dimension(link.dimension).kind == DimensionKind::Ring;
      link.crosses_dateline = topology.crosses_dateline(n, p);
    }
  sources.register_nb_transport_fw(this, &TransactionNetwork::nb_transport_fw);
  destinations.register_nb_transport_bw(this, &TransactionNetwork::nb_transport_bw);
  SC_METHOD(act);
  sensitive << wake_;
  dont_initialize();
  SC_METHOD(admit_handed_over);
  sensitive << admit_;
  dont_initialize();
}

void TransactionNetwork::attach(int node, TransactionPort& port,
                                std::function<std::vector<std::string>()> describe_pending) {
  for (int c = 0; c < port.channels(); ++c) {
    port.out.bind(sources);
    binding_node_.push_back(node);
    channel_free_.push_back(0);
    source_buffers_.emplace_back();
  }
  destinations.bind(port.in);
  describe_pending_[static_cast<std::size_t>(node)] = std::move(describe_pending);
}

std::uint64_t TransactionNetwork::current_cycle() const {
  return static_cast<std::uint64_t>(sc_core::sc_time_stamp() / period_);
}

tlm::tlm_sync_enum TransactionNetwork::nb_transport_fw(int binding, tlm::tlm_generic_payload& trans,
                                                       tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  NetworkMessage* message = trans.get_extension<NetworkMessage>();
  if (phase != tlm::BEGIN_REQ || !message || !trans.has_mm()) {
    fail("protocol error: injection channel binding " + std::to_string(binding) +
         " sent a request without BEGIN_REQ, a NetworkMessage extension or a memory manager");
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  // Reserved with the others handed over in this delta cycle, in the network's order, in the next one.
  if (handed_over_.empty()) admit_.notify(sc_core::SC_ZERO_TIME);
  const std::uint64_t ready = current_cycle() + static_cast<std::uint64_t>(delay / period_);
  handed_over_.push_back({sc_core::sc_delta_count(), ready, same_cycle_rank(ready, binding, binding_node_.size()), binding,
                          &trans});
  trans.acquire();  // held until delivered
  ++messages_in_flight_;
  phase = tlm::END_REQ;
  delay = sc_core::SC_ZERO_TIME;
  return tlm::TLM_UPDATED;
}

void TransactionNetwork::admit_handed_over() {
  // The batch: every hand-over of an earlier delta cycle (those of this one, made by processes the kernel
  // ran before this method, wait for the next, with the rest of their delta cycle).
  const std::uint64_t delta = sc_core::sc_delta_count();
  const auto later = std::find_if(handed_over_.begin(), handed_over_.end(), [delta](const HandOver& h) { return h.delta >= delta; });
  if (later == handed_over_.end()) {  // the common case: every one came in an earlier delta cycle
    admitting_.swap(handed_over_);
    handed_over_.clear();
  } else {
    admitting_.assign(handed_over_.begin(), later);
    handed_over_.erase(handed_over_.begin(), later);
  }
  std::sort(admitting_.begin(), admitting_.end(), [](const HandOver& a, const HandOver& b) {
    if (a.ready != b.ready) return a.ready < b.ready;
    return a.rank != b.rank ? a.rank < b.rank : a.binding < b.binding;
  });
  now_ = current_cycle();
  for (const HandOver& h : admitting_) {
    if (!failure_.empty()) break;
    route_message(h.binding, *h.trans, h.ready);
  }
  if (!handed_over_.empty()) admit_.notify(sc_core::SC_ZERO_TIME);
}

void TransactionNetwork::route_message(int binding, tlm::tlm_generic_payload& trans, std::uint64_t ready) {
  NetworkMessage* message = trans.get_extension<NetworkMessage>();
  // The channel starts the message when the DMA engine may and the channel is free, after its start-up.
  const auto b = static_cast<std::size_t>(binding);
  const std::uint64_t first_flit = std::max(ready, channel_free_[b]) + message->startup_cycles;
  // Its packets, one after the other: payloads of at most max_packet_payload_flits flits behind a head.
  const std::uint32_t bytes = trans.get_data_length();
  const std::uint32_t packets = message_packets(params_, bytes);
  const std::uint64_t per_packet = static_cast<std::uint64_t>(params_.max_packet_payload_flits) * params_.flit_bytes;
  std::uint64_t injected = first_flit, arrival = 0, blocked = 0;
  for (std::uint32_t k = 0; k < packets; ++k) {
    const std::uint64_t payload = std::min<std::uint64_t>(per_packet, bytes - k * per_packet);
    const auto flits = static_cast<std::uint32_t>(1 + (payload + params_.flit_bytes - 1) / params_.flit_bytes);
    injected = source_room(b, injected, flits);
    if (k == 0) message->head_injected_cycle = injected;
    std::uint64_t tail_left_source = injected + flits;
    arrival = std::max(arrival, send_packet(*message, injected, flits, blocked, tail_left_source));
    if (k == 0) message->hops = static_cast<std::uint32_t>(hops_.size());
    // Each flit's slot is free again the cycle after it left the source router (streaming behind its
    // head, up to its tail); a packet longer than one virtual channel's buffer injects its tail once the
    // flit buffer_flits ahead of it has left.
    const std::uint64_t head_slot_free = tail_left_source + 2 - flits;
    source_buffers_[b].push_back({head_slot_free, flits});
    std::uint64_t tail_injected = injected + flits - 1;
    const auto buffer = static_cast<std::uint32_t>(params_.buffer_flits);
    if (flits > buffer) tail_injected = std::max(tail_injected, head_slot_free + (flits - 1 - buffer));
    injected = tail_injected + 1;
  }
  channel_free_[b] = injected;
  message->blocked_cycles = blocked;
  peak_messages_injecting_ = std::max(peak_messages_injecting_, ++messages_injecting_);
  schedule({injected - 1, next_order_++, false, binding, &trans, message});
  schedule({arrival, next_order_++, true, binding, &trans, message});
}

tlm::tlm_sync_enum TransactionNetwork::nb_transport_bw(int node, tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                                       sc_core::sc_time&) {
  fail("protocol error: node " + std::to_string(node) + " answered a delivery on the backward path");
  return tlm::TLM_COMPLETED;
}

std::uint64_t TransactionNetwork::send_packet(const NetworkMessage& message, std::uint64_t injected,
                                              std::uint32_t flits, std::uint64_t& blocked,
                                              std::uint64_t& tail_left_source) {
  const int net_ports = topology_.num_ports();
  const std::uint64_t store = params_.switching == SwitchingMode::StoreAndForward ? flits - 1 : 0;
  const std::uint64_t hop_cycles = params_.pipeline_depth + params_.link_latency_cycles + store;
  std::uint64_t written = injected + 1;  // the head in the source router's buffer
  int node = message.source;
  int in_port = -1;                      // the injection channel
  std::size_t hop = 0;
  int ring_dimension = -1, vc_class = 0;  // the dateline class, as the routers assign it
  hops_.clear();
  for (int routers = 0; routers <= topology_.num_nodes() + kMaxRouteHops; ++routers) {
    const std::uint64_t nominal = written + params_.pipeline_depth + store;
    const bool at_end = message.route.empty() ? node == message.destination : hop == message.route.size();
    if (at_end) {
      // The ejection channel: the one facing the port the packet came in on (all-port), or the node's one.
      const int channel = port_model_ == PortModel::AllPort && in_port >= 0 ? in_port : 0;
      const std::uint64_t leaves = reserve(ejection_[ejection_index(node, channel)], nominal, flits);
      count_blocking(message.step, leaves - nominal, blocked);
      tail_left_source = hold_lanes(leaves + flits - 1, flits, hop_cycles);
      return leaves + flits;
    }
    const int port = message.route.empty() ? routing_(topology_, node, message.destination) : message.route[hop];
    Link* link = port >= 0 && port < net_ports ? &links_[link_index(node, port)] : nullptr;
    if (!link || link->next < 0) {
      fail("protocol error: the route of a message from node " + std::to_string(message.source) + " to node " +
           std::to_string(message.destination) + " leaves node " + std::to_string(node) + " through port " +
           std::to_string(port) + ", which leads nowhere");
      return injected;
    }
    // The virtual channels the head may take on this link: all, or on a ring its dateline class's half.
    const int dimension = link->dimension;
    int lanes = params_.vcs;
    if (params_.dateline && link->ring) {
      if (ring_dimension != dimension) {
        ring_dimension = dimension;
        vc_class = params_.dateline_whole_segment && segment_crosses_dateline(message, hop, node, port) ? 1 : 0;
      }
      if (!params_.dateline_whole_segment && link->crosses_dateline) vc_class = 1;
      lanes = params_.vcs / 2;
    } else {
      ring_dimension = dimension;
      vc_class = 0;
    }
    LaneOccupancy& held = link->lanes[vc_class];
    const std::uint64_t leaves = admit(*link, held, lanes, nominal, flits);
    count_blocking(message.step, leaves - nominal, blocked);
    hops_.push_back({link, &held, leaves});
    link->flits += flits;
    flit_hops_ += flits;
    written = leaves + params_.link_latency_cycles;
    in_port = link->reverse_port;
    node = link->next;
    ++hop;
  }
  fail("protocol error: a message from node " + std::to_string(message.source) + " to node " +
       std::to_string(message.destination) + " never reached it (a routing loop)");
  return injected;
}

bool TransactionNetwork::segment_crosses_dateline(const NetworkMessage& message, std::size_t hop, int node,
                                                  int port) const {
  const int dimension = topology_.port(port).dimension;
  if (!message.route.empty()) {
    for (std::size_t i = hop; i < message.route.size() && topology_.port(message.route[i]).dimension == dimension; ++i) {
      if (topology_.crosses_dateline(node, message.route[i])) return true;
      node = topology_.neighbor(node, message.route[i]);
    }
    return false;
  }
  const int here = topology_.coordinate(node, dimension), there = topology_.coordinate(message.destination, dimension);
  return topology_.port(port).offset > 0 ? there < here : there > here;
}

std::uint64_t TransactionNetwork::hold_lanes(std::uint64_t tail_leaves_last, std::uint32_t flits,
                                             std::uint64_t hop_cycles) {
  // Backwards from the destination: the tail crosses a link once it has streamed behind its head, and no
  // earlier than the buffer ahead (buffer_flits) lets it while the flits ahead wait downstream.
  std::uint64_t downstream_tail = tail_leaves_last;
  for (auto hop = hops_.rbegin(); hop != hops_.rend(); ++hop) {
    const std::uint64_t behind_downstream = downstream_tail > hop_cycles + static_cast<std::uint64_t>(params_.buffer_flits)
                                                ? downstream_tail - hop_cycles - static_cast<std::uint64_t>(params_.buffer_flits)
                                                : 0;
    const std::uint64_t streamed = hop->leaves + flits;  // the cycle after its tail crossed, streaming
    const std::uint64_t tail = std::max(streamed - 1, behind_downstream);
    // While it streams it holds the link itself (its reservation); only a tail held back beyond that
    // keeps a virtual channel that another packet could have taken.
    if (tail + 1 > streamed) {
      hop->lanes->hold(streamed, tail + 1);
      hop->link->lanes_held_until = std::max(hop->link->lanes_held_until, tail + 1);
    }
    downstream_tail = tail;
  }
  return downstream_tail;
}

std::uint64_t TransactionNetwork::source_room(std::size_t binding, std::uint64_t earliest, std::uint32_t flits) {
  std::vector<BufferedPacket>& buffered = source_buffers_[binding];
  buffered.erase(std::remove_if(buffered.begin(), buffered.end(),
                                [earliest](const BufferedPacket& p) { return p.head_slot_free + p.flits - 1 <= earliest; }),
                 buffered.end());
  slot_free_cycles_.clear();
  for (const BufferedPacket& p : buffered)
    for (std::uint32_t i = 0; i < p.flits; ++i)
      if (p.head_slot_free + i > earliest) slot_free_cycles_.push_back(p.head_slot_free + i);
  // Its first buffer_flits flits (one virtual channel's buffer) must fit beside the flits still there.
  const auto capacity = static_cast<std::size_t>(params_.vcs) * static_cast<std::size_t>(params_.buffer_flits);
  const std::size_t room = std::min<std::size_t>(flits, static_cast<std::size_t>(params_.buffer_flits));
  std::uint64_t start = earliest;
  std::size_t still_there = slot_free_cycles_.size();
  if (still_there + room > capacity) {
    const std::size_t to_free = still_there + room - capacity;
    std::nth_element(slot_free_cycles_.begin(), slot_free_cycles_.begin() + static_cast<std::ptrdiff_t>(to_free - 1),
                     slot_free_cycles_.end());
    start = slot_free_cycles_[to_free - 1];
    still_there = static_cast<std::size_t>(
        std::count_if(slot_free_cycles_.begin(), slot_free_cycles_.end(), [start](std::uint64_t free) { return free > start; }));
  }
  peak_source_buffer_flits_ = std::max<std::uint64_t>(peak_source_buffer_flits_, still_there + room);
  return start;
}

std::uint64_t TransactionNetwork::admit(Link& link, LaneOccupancy& held, int lanes, std::uint64_t earliest,
                                        std::uint32_t flits) {
  // No hold reaches the head's cycle: every virtual channel is free whenever the link is.
  const bool lanes_free = link.lanes_held_until <= earliest;
  if (!lanes_free) held.forget_before(now_);
  std::uint64_t from = earliest;
  std::size_t position = 0;
  for (;;) {
    from = first_gap(link.reservations, from, flits, position);
    if (lanes_free) break;
    // A virtual channel of its class must be free when the head crosses: else it waits for the first to
    // free. The link is free then, so what holds one is a packet whose tail is held back behind it.
    const std::uint64_t lane_free = held.first_below(from, lanes);
    if (lane_free == from) break;
    from = lane_free;
  }
  take(link.reservations, from, flits, position);
  return from;
}

void TransactionNetwork::count_blocking(std::uint32_t step, std::uint64_t cycles, std::uint64_t& blocked) {
  if (cycles == 0) return;
  blocked += cycles;
  header_blocking_cycles_ += cycles;
  if (step >= header_blocking_by_step_.size()) header_blocking_by_step_.resize(step + 1, 0);
  header_blocking_by_step_[step] += cycles;
}

std::uint64_t TransactionNetwork::first_gap(Reservations& channel_state, std::uint64_t earliest, std::uint32_t flits,
                                            std::size_t& position) {
  std::vector<Reservation>& taken = channel_state.taken;
  if (channel_state.last_to <= earliest) {  // after them all: the common case, found without reading them
    position = taken.size();
    return earliest;
  }
  spill(channel_state);
  drop_over(channel_state);
  // The first gap of `flits` cycles from `earliest` on (reservations are sorted and disjoint, so their
  // ends are sorted too: the first that ends after `earliest` is found by bisection).
  auto at = std::upper_bound(taken.begin() + static_cast<std::ptrdiff_t>(channel_state.first), taken.end(), earliest,
                             [](std::uint64_t cycle, const Reservation& r) { return cycle < r.to; });
  std::uint64_t from = earliest;
  for (; at != taken.end() && at->from < from + flits; ++at) from = std::max(from, at->to);
  // Every reservation before `at` ends by `from`, and `at` starts after the gap: the new one goes there.
  position = static_cast<std::size_t>(at - taken.begin());
  return from;
}

void TransactionNetwork::drop_over(Reservations& channel_state) {
  // Reservations over before now hold nothing any more (every new one starts after now): skipped, and
  // dropped once they are half the list.
  std::vector<Reservation>& taken = channel_state.taken;
  while (channel_state.first < taken.size() && taken[channel_state.first].to <= now_) ++channel_state.first;
  if (channel_state.first > 16 && 2 * channel_state.first > taken.size()) {
    taken.erase(taken.begin(), taken.begin() + static_cast<std::ptrdiff_t>(channel_state.first));
    reservations_held_ -= channel_state.first;
    channel_state.first = 0;
  }
}

void TransactionNetwork::spill(Reservations& channel_state) {
  if (!channel_state.last_inline) return;
  channel_state.taken.push_back(channel_state.last);
  channel_state.last_inline = false;
}

void TransactionNetwork::take(Reservations& channel_state, std::uint64_t from, std::uint32_t flits,
                              std::size_t position) {
  // Reservations that meet end to end are kept as one: the packets of a message streaming back to back
  // hold one entry per link instead of one each (the free cycles first_gap finds are the same).
  std::vector<Reservation>& taken = channel_state.taken;
  const std::uint64_t to = from + flits;
  if (position == taken.size()) {  // after every reservation
    if (channel_state.last_inline && channel_state.last_to == from) {
      channel_state.last.to = to;
    } else if (!taken.empty() && channel_state.last_to == from) {  // (a list in the link leaves `taken` empty)
      taken.back().to = to;
    } else if (channel_state.last_to <= now_) {
      // Every reservation is over: the list starts afresh with this one, kept in the channel itself.
      reservations_held_ -= taken.size() + (channel_state.last_inline ? 1 : 0);
      taken.clear();
      channel_state.first = 0;
      channel_state.last = Reservation{from, to};
      channel_state.last_inline = true;
      peak_reservations_ = std::max(peak_reservations_, ++reservations_held_);
    } else {
      spill(channel_state);
      if (taken.size() == taken.capacity()) drop_over(channel_state);  // before the list grows
      taken.push_back({from, to});
      peak_reservations_ = std::max(peak_reservations_, ++reservations_held_);
    }
    channel_state.last_to = to;
    return;
  }
  const auto at = taken.begin() + static_cast<std::ptrdiff_t>(position);
  const bool joins_previous = position > 0 && std::prev(at)->to == from;
  const bool joins_next = at != taken.end() && at->from == to;
  if (joins_previous && joins_next) {
    std::prev(at)->to = at->to;
    taken.erase(at);
    --reservations_held_;
  } else if (joins_previous) {
    std::prev(at)->to = to;
  } else if (joins_next) {
    at->from = from;
  } else {
    taken.insert(at, Reservation{from, to});
    peak_reservations_ = std::max(peak_reservations_, ++reservations_held_);
  }
}

std::uint64_t TransactionNetwork::reserve(Reservations& channel, std::uint64_t earliest, std::uint32_t flits) {
  std::size_t position = 0;
  const std::uint64_t from = first_gap(channel, earliest, flits, position);
  take(channel, from, flits, position);
  return from;
}

void TransactionNetwork::schedule(const Event& event) {
  events_.push(event);
  if (acting_ || event.cycle >= wake_cycle_) return;  // act() notifies for its next cycle when it is done
  wake_cycle_ = event.cycle;
  wake_.notify(period_ * static_cast<double>(event.cycle) - sc_core::sc_time_stamp());
}

void TransactionNetwork::act() {
  const std::uint64_t now = current_cycle();
  acting_ = true;
  wake_cycle_ = UINT64_MAX;
  ++cycles_acted_;
  while (!events_.empty() && events_.top().cycle <= now && failure_.empty()) {
    const Event event = events_.top();
    events_.pop();
    const auto b = static_cast<std::size_t>(event.binding);
    tlm::tlm_phase phase = event.delivery ? tlm::BEGIN_REQ : tlm::BEGIN_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (!event.delivery) {
      // The channel injected the message's last flit: the send is complete.
      --messages_injecting_;
      if (sources[event.binding]->nb_transport_bw(*event.trans, phase, delay) != tlm::TLM_COMPLETED)
        fail("protocol error: node " + std::to_string(binding_node_[b]) + " did not complete a send's response");
      continue;
    }
    const NetworkMessage* message = event.message;
    const int destination = message->destination;
    if (destinations[destination]->nb_transport_fw(*event.trans, phase, delay) != tlm::TLM_COMPLETED ||
        event.trans->get_response_status() != tlm::TLM_OK_RESPONSE)
      fail("protocol error: node " + std::to_string(destination) + " refused a message from node " +
           std::to_string(message->source) + " (" + event.trans->get_response_string() + ")");
    --messages_in_flight_;
    event.trans->release();
  }
  acting_ = false;
  if (!failure_.empty()) return;
  if (!events_.empty()) {
    wake_cycle_ = events_.top().cycle;
    wake_.notify(period_ * static_cast<double>(wake_cycle_) - sc_core::sc_time_stamp());
  } else if (on_idle_ && handed_over_.empty()) {
    on_idle_();
  }
}

std::vector<LinkCount> TransactionNetwork::link_counts() const {
  std::vector<LinkCount> links;
  for (int n = 0; n < topology_.num_nodes(); ++n)
    for (int p = 0; p < topology_.num_ports(); ++p) {
      const int next = topology_.neighbor(n, p);
      if (next >= 0) links.push_back({n, next, p, links_[link_index(n, p)].flits});
    }
  return links;
}

void TransactionNetwork::report_failure(const std::string& what) {
  if (!failure_.empty()) return;
  fail(what);
}

void TransactionNetwork::fail(const std::string& what) {
  if (!failure_.empty()) return;
  failure_cycle_ = current_cycle();
  failure_ = what + " (cycle " + std::to_string(failure_cycle_) + ")";
  for (const auto& describe : describe_pending_)
    if (describe)
      for (auto& line : describe()) blocked_.push_back(std::move(line));
  if (on_failure_) on_failure_();
}

}  // namespace meshmp
