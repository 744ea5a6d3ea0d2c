// The transaction-level router network (network.fidelity tlm): the same topology, routing functions,
// source routes, router timing and port model as the cycle-level network (hw/network/network.h), with a message
// moved as one TLM-2.0 transaction (tlm/network_message.h) instead of flits stepped cycle by cycle.
//
// Timing. When a network interface hands over a message, the network computes its whole journey at
// once, packet by packet, along the route the routers would take, and reserves what it uses:
//  - its injection channel sends the node's messages one after the other, one flit per cycle from the
//    message's start (the DMA start, then the channel's start-up if node.startup_on = channel), as far
//    as its source router's input buffers (vcs x buffer_flits flits) have room: a packet's head enters
//    once the flits ahead of it have left enough room for its first buffer_flits flits (a slot is free
//    again the cycle after its flit left the router, as the credit comes back), and a packet longer
//    than one virtual channel's buffer injects its tail no earlier than the buffer behind its head
//    drains (the credit-stalled source of the cycle level, per packet rather than per flit);
//  - a packet's head is written into a router's buffer one cycle after injection and link_latency cycles
//    after leaving the previous router, and leaves pipeline_depth cycles later (store-and-forward: once
//    its tail is written); it then holds its output link, or at the destination its ejection channel,
//    for one cycle per flit. A link already reserved at that time, or whose virtual channels of the
//    head's dateline class are all held, delays the head to the first gap long enough for the whole
//    packet with a channel free (the header blocking the statistics report);
//  - once the packet reaches its ejection channel, it holds the virtual channel it took on each link
//    until its tail crossed it: streaming right behind its head, or later where the flits ahead waited
//    longer downstream than the next buffer absorbs (wormhole's chained blocking; never under
//    cut-through or store-and-forward, whose buffers take a whole packet);
//  - the message arrives (its bytes are delivered) the cycle after its last packet's tail leaves the
//    destination router; the send completes the cycle its last flit is injected.
// Nothing is done per cycle: the network acts only at the cycles a send completes or a message arrives
// (an event queue), and a message costs work in proportion to its packets times its hops.
//
// Exact where nothing waits: with no two packets wanting one link at once, every completion, arrival and
// link count equals the cycle-level network's (tests/transaction_network_test.cpp). Not modelled (the
// error against the cycle level is measured, docs/fidelity.md): virtual channels do not share a link's
// cycles flit by flit (a link carries one packet at a time), credits between routers never stall a
// flit (a packet streams behind its head once it left its source), head-of-line blocking inside a
// shared VC buffer, and the receiving interface's buffer never pushes back into the network.
// Reservations never wait in a cycle: the model cannot deadlock; a stall of the firmware is reported by
// the machine as on the cycle level. The messages handed over in one evaluation phase of the kernel are
// reserved together in the next, in the order of the cycle they may start at and then of the injection
// channels, taken in order from an offset and in a direction drawn for that cycle: which of two
// same-cycle messages takes a contended link first is the network's rule, favouring no node and no
// direction, and not the order SystemC happened to run the processes that handed them over (which
// depends on how each reached that cycle: one wait or several).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <vector>

#include "hw/network/interconnect.h"
#include "hw/network/lane_occupancy.h"
#include "hw/network/transaction_port.h"
#include "tlm/network_message.h"

namespace meshmp {

class TransactionNetwork : public sc_core::sc_module, public Interconnect {
 public:
  SC_HAS_PROCESS(TransactionNetwork);
  // Binding b: an injection channel of a node (bound in node order, each node's channels in order).
  tlm_utils::multi_passthrough_target_socket<TransactionNetwork> sources;
  // Binding n: node n's receiving side.
  tlm_utils::multi_passthrough_initiator_socket<TransactionNetwork> destinations;

  TransactionNetwork(sc_core::sc_module_name name, const Topology& topology, const RouterParams& params,
                     PortModel port_model, RoutingFunction routing, sc_core::sc_time clock_period);

  // Binds node `node`'s port (nodes in order 0, 1, ...); `describe_pending` says what its interface holds
  // when the run fails.
  void attach(int node, TransactionPort& port, std::function<std::vector<std::string>()> describe_pending);

  // Interconnect
  NetworkFidelity fidelity() const override { return NetworkFidelity::Transaction; }
  const Topology& topology() const override { return topology_; }
  const RouterParams& params() const override { return params_; }
  PortModel port_model() const override { return port_model_; }
  RoutingFunction routing() const override { return routing_; }
  std::uint64_t current_cycle() const override;
  const sc_core::sc_time& clock_period() const { return period_; }
  std::uint64_t flit_hops() const override { return flit_hops_; }
  std::uint64_t header_blocking_cycles() const override { return header_blocking_cycles_; }
  const std::vector<std::uint64_t>& header_blocking_by_step() const override { return header_blocking_by_step_; }
  std::uint64_t body_stall_cycles() const override { return 0; }  // flits never stall behind their head
  std::vector<LinkCount> link_counts() const override;
  std::uint64_t cycles_stepped() const override { return cycles_acted_; }
  bool failed() const override { return !failure_.empty(); }
  const std::string& failure() const override { return failure_; }
  std::uint64_t failure_cycle() const override { return failure_cycle_; }
  const std::vector<std::string>& blocked_channels() const override { return blocked_; }
  void report_failure(const std::string& what) override;
  void on_failure(std::function<void()> callback) override { on_failure_ = std::move(callback); }
  bool busy() const override { return messages_in_flight_ > 0; }
  void on_idle(std::function<void()> callback) override { on_idle_ = std::move(callback); }

  // Messages taken and not yet delivered.
  std::uint64_t messages_in_flight() const { return messages_in_flight_; }
  // The most messages held at once whose last flit was not injected yet: at most one per injection
  // channel (each hands over its next message once the one before is injected), so that the network
  // computes messages about in the order of their cycles and holds little of the future.
  std::uint64_t peak_messages_injecting() const { return peak_messages_injecting_; }
  // The most flits one injection channel ever had in its source router's input buffers at once (the
  // cycle a packet's head was injected): at most vcs x buffer_flits.
  std::uint64_t peak_source_buffer_flits() const { return peak_source_buffer_flits_; }
  // The most link and ejection-channel reservations held at once, over all channels: a message's packets
  // streaming back to back are one reservation per channel.
  std::uint64_t peak_reservations() const { return peak_reservations_; }

 private:
  // What the network does at a cycle: complete a send (BEGIN_RESP to its channel) or deliver a message.
  struct Event {
    std::uint64_t cycle;
    std::uint64_t order;  // events of one cycle in the order they were scheduled
    bool delivery;
    int binding;
    tlm::tlm_generic_payload* trans;
    const NetworkMessage* message;  // its extension
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.cycle != b.cycle ? a.cycle > b.cycle : a.order > b.order;
    }
  };

  tlm::tlm_sync_enum nb_transport_fw(int binding, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  // A message handed over and not reserved yet: the kernel's delta cycle it came in, the cycle it may start.
  struct HandOver {
    std::uint64_t delta;
    std::uint64_t ready;
    std::uint64_t rank;  // its place among the messages that may start at `ready` (same_cycle_rank)
    int binding;
    tlm::tlm_generic_payload* trans;
  };
  void admit_handed_over();  // SC_METHOD: reserves the messages handed over in earlier delta cycles
  // Reserves the whole journey of a message handed over on `binding` that may start at `ready`.
  void route_message(int binding, tlm::tlm_generic_payload& trans, std::uint64_t ready);
  tlm::tlm_sync_enum nb_transport_bw(int node, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  // A cycle range [from, to) a link or ejection channel is reserved for: one packet, or packets that
  // follow each other without a gap.
  struct Reservation {
    std::uint64_t from;
    std::uint64_t to;
  };
  // A channel's reservations, sorted; those before `first` are over. `last_to` is the end of the last
  // one: a head arriving after it finds the channel free without reading the list. While every
  // reservation but the last is over, the list is that one alone, kept here (`last`, `last_inline`)
  // rather than in `taken`, so that a head taking a free channel writes no line but the channel's own.
  struct Reservations {
    std::uint32_t first = 0;
    bool last_inline = false;  // the list is `last` alone; `taken` is empty
    std::uint64_t last_to = 0;
    Reservation last{0, 0};
    std::vector<Reservation> taken;
  };
  // A network link (node, port), all a head crossing it reads and writes kept together. Its first 64
  // bytes hold where the link leads (as the routers know it), the flits it carried, the end of its last
  // virtual-channel hold and of its last reservation, and that reservation itself while the others are
  // over: a head crossing a free link touches that one line. The reservations' list storage and the
  // virtual channels held per dateline class follow, read only when the link is busy at the head's cycle.
  struct alignas(64) Link {
    int next = -1;                      // the node at its far end, or -1 off the edge of a path
    int reverse_port = -1;              // the port at `next` leading back
    int dimension = 0;
    bool ring = false;                  // in a ring dimension
    bool crosses_dateline = false;
    std::uint64_t flits = 0;
    std::uint64_t lanes_held_until = 0;  // the end of the last hold on either class
    Reservations reservations;
    LaneOccupancy lanes[2];             // per dateline class: VCs held by packets' tails
  };
  // A link the head crossed: the link, the virtual channels of its class there and the cycle.
  struct Hop {
    Link* link;
    LaneOccupancy* lanes;
    std::uint64_t leaves;
  };

  // The first cycle >= earliest where `flits` cycles of `channel` are free, and at `position` the index
  // their reservation goes to; take() reserves them there.
  std::uint64_t first_gap(Reservations& channel, std::uint64_t earliest, std::uint32_t flits, std::size_t& position);
  void take(Reservations& channel, std::uint64_t from, std::uint32_t flits, std::size_t position);
  // Skips the reservations over before now_, and drops them once they are half the list.
  void drop_over(Reservations& channel);
  // Moves a list kept in the channel itself (Reservations::last) into `taken`.
  static void spill(Reservations& channel);
  // Both: reserves `flits` cycles of `channel` from the first cycle >= earliest where they fit.
  std::uint64_t reserve(Reservations& channel, std::uint64_t earliest, std::uint32_t flits);
  // A network link: the first cycle >= earliest where `flits` cycles of it are free and one of the `lanes`
  // virtual channels of the head's class is not held by another packet; reserves the cycles.
  std::uint64_t admit(Link& link, LaneOccupancy& held, int lanes, std::uint64_t earliest, std::uint32_t flits);
  // After a packet reached its ejection channel (its tail leaving the last router at
  // `tail_leaves_last`): holds the virtual channel it took on every link of hops_ from its head until its
  // tail crossed, the tail held back where the flits ahead waited longer than the buffer absorbs.
  // Returns the cycle its tail left the source router.
  std::uint64_t hold_lanes(std::uint64_t tail_leaves_last, std::uint32_t flits, std::uint64_t hop_cycles);
  // The first cycle >= earliest at which source binding `binding`'s router input buffers have room for
  // a packet of `flits` flits to start (see the header comment); counts the flits it finds there.
  std::uint64_t source_room(std::size_t binding, std::uint64_t earliest, std::uint32_t flits);
  // Whether the ring segment starting at `port` of `node` crosses the dateline (router.dateline_classes
  // whole-segment), as the routing unit decides it.
  bool segment_crosses_dateline(const NetworkMessage& message, std::size_t hop, int node, int port) const;
  // Sends one packet of `flits` flits whose head is injected at `injected` along the message's route;
  // returns the cycle its tail is delivered to the destination's interface and sets `tail_left_source`
  // to the cycle its tail left the source router. Adds its header blocking to `blocked`.
  std::uint64_t send_packet(const NetworkMessage& message, std::uint64_t injected, std::uint32_t flits,
                            std::uint64_t& blocked, std::uint64_t& tail_left_source);
  // A head waited `cycles` beyond its pipeline: counted for its message (`blocked`), its step and the run.
  void count_blocking(std::uint32_t step, std::uint64_t cycles, std::uint64_t& blocked);
  void schedule(const Event& event);
  void act();  // SC_METHOD: the events of the current cycle
  void fail(const std::string& what);
  std::size_t link_index(int node, int port) const {
    return static_cast<std::size_t>(node) * static_cast<std::size_t>(topology_.num_ports()) + static_cast<std::size_t>(port);
  }
  std::size_t ejection_index(int node, int channel) const {
    return static_cast<std::size_t>(node) * static_cast<std::size_t>(num_injection_channels()) +
           static_cast<std::size_t>(channel);
  }

  const Topology& topology_;
  RouterParams params_;
  PortModel port_model_;
  RoutingFunction routing_;
  sc_core::sc_time period_;
  std::vector<int> binding_node_;               // per source binding: its node
  std::vector<std::uint64_t> channel_free_;      // per source binding: first cycle it can inject again
  // A packet in a source router's input buffers: the cycle its head flit's slot is free again (flit i's
  // slot: i cycles later).
  struct BufferedPacket {
    std::uint64_t head_slot_free;
    std::uint32_t flits;
  };
  std::vector<std::vector<BufferedPacket>> source_buffers_;  // per source binding
  std::vector<std::uint64_t> slot_free_cycles_;              // source_room's scratch
  std::uint64_t peak_source_buffer_flits_ = 0;
  std::uint64_t reservations_held_ = 0, peak_reservations_ = 0;
  std::vector<std::function<std::vector<std::string>()>> describe_pending_;  // per node
  std::vector<Link> links_;                 // per link (node, port): link_index
  std::vector<Reservations> ejection_;      // per ejection channel: ejection_index
  std::vector<Hop> hops_;                   // the packet being routed
  std::uint64_t now_ = 0;                   // the cycle the message being routed is taken at
  std::priority_queue<Event, std::vector<Event>, Later> events_;
  std::uint64_t next_order_ = 0;
  sc_core::sc_event wake_;
  std::vector<HandOver> handed_over_;  // in the order they came
  std::vector<HandOver> admitting_;    // admit_handed_over's batch, in the order they are reserved
  sc_core::sc_event admit_;
  std::uint64_t wake_cycle_ = UINT64_MAX;  // the cycle wake_ is notified for
  bool acting_ = false;
  std::uint64_t messages_in_flight_ = 0;
  std::uint64_t messages_injecting_ = 0;
  std::uint64_t peak_messages_injecting_ = 0;
  std::uint64_t cycles_acted_ = 0;
  std::uint64_t flit_hops_ = 0;
  std::uint64_t header_blocking_cycles_ = 0;
  std::vector<std::uint64_t> header_blocking_by_step_;
  std::string failure_;
  std::uint64_t failure_cycle_ = 0;
  std::vector<std::string> blocked_;
  std::function<void()> on_failure_;
  std::function<void()> on_idle_;
};

}  // namespace meshmp
