// The cycle-level interconnect: one router per node of the topology, full-duplex links between
// neighbours (latency link_latency_cycles, one flit per cycle per direction, credits flowing back), and
// the injection / ejection channels to each node's endpoint (latency 1).
//
// Clocking, chosen for speed: the whole network is one SystemC method process woken once per cycle by
// its own event, not a signal per wire and a process per port. Links are a calendar of deliveries keyed
// by arrival cycle, so a router with nothing buffered is not stepped at all, and when no flit, credit or
// endpoint has work the clock stops until an endpoint calls wake(). A deadlock watchdog ends the run when
// flits are in the network, none is on a link, and none has moved for watchdog_cycles.
//
// Within a cycle the endpoints step first, then the routers; neither sees what the other sends before the
// next cycle, so with host_threads > 1 worker threads step the routers while the simulation thread steps
// the endpoints (hw/network/router_step_pool.h), with the same result.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/network/interconnect.h"
#include "hw/network/link_faults.h"
#include "hw/network/packet_trace.h"
#include "hw/network/network_endpoint.h"
#include "hw/network/packet_records.h"
#include "hw/router/router_model.h"
#include "hw/router/router_params.h"
#include "hw/network/router_step_pool.h"
#include "hw/router/routing.h"
#include "hw/router/staged_router_environment.h"
#include "topology/topology.h"

namespace meshmp {

class Network : public sc_core::sc_module, public Interconnect, public RouterEnvironment {
 public:
  SC_HAS_PROCESS(Network);
  Network(sc_core::sc_module_name name, const Topology& topology, const RouterParams& params,
          PortModel port_model, RoutingFunction routing, sc_core::sc_time clock_period,
          std::uint64_t watchdog_cycles, int host_threads = 1);
  // Waits for workers still stepping routers (they read members destroyed before the pool).
  ~Network() override;

  NetworkFidelity fidelity() const override { return NetworkFidelity::Cycle; }
  const Topology& topology() const override { return topology_; }
  const RouterParams& params() const override { return params_; }
  PortModel port_model() const override { return port_model_; }
  RoutingFunction routing() const override { return routing_; }
  RouterModel& router(int node) {
    settle();
    return *routers_[node];
  }
  const sc_core::sc_time& clock_period() const { return period_; }

  void attach(int node, NetworkEndpoint* endpoint);
  // An endpoint has new work: the clock runs from the next cycle boundary on.
  void wake(int node);
  std::uint64_t current_cycle() const override;

  // Called by endpoints during their step: the flit enters the router's injection channel next cycle.
  void inject(int node, int channel, const Flit& flit, std::uint64_t cycle);
  // From now on every packet injected is appended to `trace` (its message's creation cycle, source,
  // destination, flits: hw/network/packet_trace.h), which must outlive the run.
  void record_packets(std::vector<TracePacket>* trace) { trace_ = trace; }
  // Called by an endpoint (during the network's step) when it has consumed an ejected flit: the slot of
  // ejection channel `channel`, VC `vc`, is free again; the router counts the credit 1 + credit_processing_cycles
  // cycles later (the channel's credit wire, then its output unit).
  void return_ejection_credit(int node, int channel, int vc);

  // Keeps a router stepped every cycle so its waveform probes are cleared (tracing only).
  void keep_stepping(int node);

  // Host records of the packets in flight, opened by packetizers and closed by endpoints once a packet's
  // tail has left the network; flits carry their index as tag.
  PacketRecords& packets() { return packets_; }
  const PacketRecords& packets() const { return packets_; }

  // With host threads, the routers of the last cycle stepped may still be running: settle() waits for them
  // and merges what they sent. The step of the next cycle settles first; the readers below settle too.
  void settle();

  // Statistics.
  std::uint64_t flits_in_network() const {
    settled();
    return flits_in_network_;
  }
  std::uint64_t flit_hops() const override {
    settled();
    return flit_hops_;
  }
  // Header blocking, measured here for every router model: the cycles a head flit stayed in a router
  // beyond its zero-load pipeline (pipeline_depth cycles from its buffer write; under store-and-forward
  // from its tail's buffer write), summed over the heads and the routers they crossed.
  std::uint64_t header_blocking_cycles() const override {
    settled();
    return header_blocking_cycles_;
  }
  // The same, by the algorithm step the packets' messages were sent in (index = step; may be shorter
  // than the steps run: missing steps met none).
  const std::vector<std::uint64_t>& header_blocking_by_step() const override {
    settled();
    return header_blocking_by_step_;
  }
  std::uint64_t body_stall_cycles() const override;
  std::vector<LinkCount> link_counts() const override;
  std::optional<RouterActivity> router_activity(int node) const override {
    return routers_[static_cast<std::size_t>(node)]->activity();
  }
  std::uint64_t cycles_stepped() const override { return cycles_stepped_; }
  // Host threads stepping the network (speed only: the simulated machine is the same at any count).
  int host_threads() const override { return host_threads_; }

  // Faults on the links (hw/network/link_faults.h), injected before the run; what each did, after it.
  void inject_link_faults(std::vector<LinkFault> faults) { link_faults_ = LinkFaults(std::move(faults)); }
  const LinkFaults& link_faults() const {
    settled();
    return link_faults_;
  }

  // Set when the run must end: a deadlock (with blocked channels) or a protocol error.
  bool failed() const override {
    settled();
    return !failure_.empty();
  }
  const std::string& failure() const override {
    settled();
    return failure_;
  }
  // The cycle the run stopped at: where the network found its failure (a deadlock, a protocol error), or
  // when a node reported one.
  std::uint64_t failure_cycle() const override {
    settled();
    return failure_cycle_;
  }
  const std::vector<std::string>& blocked_channels() const override {
    settled();
    return blocked_;
  }
  // Ends the run with an error (deadlock, protocol or firmware error); the blocked channels are listed.
  void report_failure(const std::string& what) override {
    if (!failure_.empty()) return;
    fail(what, now_cycle_);
    failure_cycle_ = current_cycle();  // reported from the nodes' side: the run stops now
  }
  // Called when the network fails; the owner stops the simulation.
  void on_failure(std::function<void()> callback) override { on_failure_ = std::move(callback); }
  // True while flits, credits or endpoint work are pending (the clock runs). Exact without settling:
  // routers send only while they hold flits, and then flits are in the network.
  bool busy() const override;
  // Called at the end of every cycle the network steps (waveforms of stepped models).
  void on_cycle_end(std::function<void(std::uint64_t)> callback) { on_cycle_end_ = std::move(callback); }
  // Called when the network falls idle (the clock stops).
  void on_idle(std::function<void()> callback) override { on_idle_ = std::move(callback); }

  // RouterEnvironment
  void send_flit(int router, int out_port, const Flit& flit) override;
  void send_credit(int router, int in_port, int vc) override;
  int packet_source(std::uint32_t tag) const override { return packets_.at(tag).src; }
  void protocol_error(const std::string& what) override;

 private:
  struct FlitDelivery {
    int node;
    int port;  // input port of the router
    Flit flit;
  };
  struct CreditDelivery {
    int node;
    int port;  // output port of the router
    int vc;
  };
  struct EndpointFlit {
    int node;
    int channel;  // ejection channel
    Flit flit;
  };
  struct EndpointCredit {
    int node;
    int channel;  // injection channel
    int vc;
  };
  // Consecutive routers stepped together (the unit a host thread claims); what arrives for them waits in
  // their own calendar lists, and with host threads what they send waits in their stage.
  struct RouterChunk {
    int first_node = 0;
    int end_node = 0;
    std::size_t first_word = 0;               // of active_routers_
    std::vector<std::uint64_t> node_mask;     // per word it covers: its nodes' bits
    std::vector<std::uint64_t> woken;         // the same words: routers a delivery reached this cycle
    std::vector<std::uint64_t> still_active;  // the same words: routers active after this cycle's step
    std::unique_ptr<StagedRouterEnvironment> stage;
  };

  void clock_edge();
  // Results are read from a network that is not const; settling only completes what the last step began.
  void settled() const { const_cast<Network*>(this)->settle(); }
  void step(std::uint64_t cycle);
  void activate_router(int node);
  // Records when a head or tail flit will be written into the next router's buffer (header blocking is
  // measured from there). Taken when the flit is sent, on the simulation thread: workers that deliver it
  // never touch a packet record.
  void stamp_arrival(const Flit& flit, std::uint64_t arrival);
  // A flit from the router before `next` onto the link into `next` through `out_port`, arriving after the link latency.
  void put_on_link(int next, int out_port, const Flit& flit);
  // The endpoints' deliveries and steps of this cycle (simulation thread).
  void step_endpoints(std::uint64_t cycle);
  // Chunk k's deliveries and router steps of this cycle (any thread): touches only its routers and lists.
  void step_chunk(int k);
  std::size_t calendar_index(std::size_t slot, int node) const {
    return slot * chunks_.size() + static_cast<std::size_t>(chunk_of_node_[node]);
  }
  void fail(const std::string& what, std::uint64_t cycle);
  // For a deadlock report: the cycle of the routing's channel dependency graph, if it has one (machines of
  // up to kChannelCheckBeforeRunMaxNodes nodes), else empty.
  std::string dependency_cycle_note() const;

  const Topology& topology_;
  RouterParams params_;
  PortModel port_model_;
  RoutingFunction routing_;
  sc_core::sc_time period_;
  std::uint64_t watchdog_cycles_;
  std::vector<std::unique_ptr<RouterModel>> routers_;
  std::vector<NetworkEndpoint*> endpoints_;
  PacketRecords packets_;
  std::vector<TracePacket>* trace_ = nullptr;  // record_packets()

  // Link calendar: deliveries by arrival cycle modulo its length (calendar_slots_), to routers per chunk
  // (index slot * chunks + chunk), to endpoints per slot.
  std::size_t calendar_slots_;
  std::vector<std::vector<FlitDelivery>> flit_calendar_;
  std::vector<std::vector<CreditDelivery>> credit_calendar_;
  std::vector<std::vector<EndpointFlit>> ejection_calendar_;
  std::vector<std::vector<EndpointCredit>> injection_credit_calendar_;
  std::vector<std::uint64_t> link_arrivals_;  // per slot: flits that come off a link then
  std::size_t pending_deliveries_ = 0;

  int host_threads_;
  std::vector<RouterChunk> chunks_;
  std::vector<int> chunk_of_node_;
  std::unique_ptr<RouterStepPool> step_pool_;
  // The routers' step of now_cycle_ has not been settled yet (see settle()).
  bool routers_outstanding_ = false;

  // Routers to step this cycle, one bit per node, visited in node order (memory order: the routers'
  // state is walked front to back, which keeps the caches and the prefetcher useful at thousands of nodes).
  std::vector<std::uint64_t> active_routers_;
  std::vector<char> router_always_;
  int traced_routers_ = 0;
  std::vector<int> active_endpoints_;
  std::vector<char> endpoint_active_;

  // The cycle of the next clock edge after this one: the next, or later when the network holds nothing
  // and every active endpoint waits for a start-up.
  std::uint64_t next_tick_cycle(bool work) const;
  sc_core::sc_event tick_;
  bool tick_scheduled_ = false;
  std::uint64_t scheduled_cycle_ = 0;  // the cycle tick_ is notified for, while tick_scheduled_
  std::uint64_t now_cycle_ = 0;
  std::uint64_t cycles_stepped_ = 0;
  std::uint64_t flits_in_network_ = 0;
  std::uint64_t flit_hops_ = 0;
  LinkFaults link_faults_;
  std::uint64_t flits_on_links_ = 0;
  // Credits sent and not yet delivered (on a link, or on their way to or from an endpoint): a credit in
  // flight is progress, so the watchdog waits for it as it waits for a flit on a link.
  std::uint64_t credits_in_flight_ = 0;
  std::vector<std::uint64_t> header_blocking_by_step_;
  std::uint64_t header_blocking_cycles_ = 0;  // between routers, in flight on a link
  std::uint64_t last_progress_cycle_ = 0;
  std::string failure_;
  std::uint64_t failure_cycle_ = 0;
  std::vector<std::string> blocked_;
  std::function<void()> on_failure_;
  std::function<void()> on_idle_;
  std::function<void(std::uint64_t)> on_cycle_end_;
};

}  // namespace meshmp
