// The `cpp` router model (hw/router/router_model.h): a cycle-level, input-buffered, credit-based wormhole
// router (000 §2, 001 §1), assembled from its pipeline stages: input units (buffer write, VC state),
// route computation, VC allocation, switch allocation, crossbar + output units (credits), with the
// timing of RouterParams. Also runs virtual
// cut-through and store-and-forward (002's packet-switched model) by changing when a head may advance.
//
// One call of step() is one clock cycle. Everything a router sends (flits downstream, credits upstream)
// goes through its RouterEnvironment, which delivers it link_latency cycles later; so the routers of a
// network can be stepped in any order within a cycle and the result is the same.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "hw/router/flit.h"
#include "hw/router/input_unit.h"
#include "hw/router/output_unit.h"
#include "hw/router/router_model.h"
#include "hw/router/router_params.h"
#include "hw/router/routing_unit.h"
#include "hw/router/switch_allocator.h"
#include "topology/topology.h"
#include "hw/router/vc_allocator.h"

namespace meshmp {

class Router final : public RouterModel {
 public:
  Router(int node, const Topology& topology, const RouterParams& params, PortModel port_model,
         RoutingFunction routing, RouterEnvironment* environment);

  int node() const override { return node_; }
  int num_local_ports() const { return local_ports_; }
  int num_ports() const override { return net_ports_ + local_ports_; }  // inputs = outputs

  // Buffer write: a flit arrives on an input port (network port, or injection port net_ports + i).
  void receive_flit(int in_port, const Flit& flit, std::uint64_t cycle) override;
  // A credit for output VC `vc` of `out_port` comes back from downstream.
  void receive_credit(int out_port, int vc) override;
  // One clock cycle. Evaluate: route computation, VC allocation and switch allocation decide from the
  // state latched at this edge (buffers, ages, VC states, credit counters). Update: the granted flits
  // traverse the switch (buffers, credits and VC states change) and the buffered flits age one cycle.
  void step(std::uint64_t cycle) override;

  int buffered_flits() const override { return buffered_flits_; }
  const InputUnit& input(int port) const { return inputs_[port]; }
  const OutputUnit& output(int port) const { return outputs_[port]; }
  std::uint64_t flits_sent(int out_port) const override;
  std::optional<RouterActivity> activity() const override;
  // Body-flit stalls, counted per cycle as an RTL performance counter would: a body flit at the front of
  // its VC, through its pipeline, that does not cross the switch this cycle (switch shared with other
  // packets, or no credit). (Header blocking is measured by the network from when heads arrive and leave.)
  std::uint64_t body_stall_cycles() const override { return body_stall_cycles_; }
  // One line per occupied input VC: what its front flit is waiting for (deadlock reports).
  std::vector<std::string> describe_blocked(std::uint64_t cycle) const override;

  // Waveform probes (updated every cycle the router is stepped).
  const OutputPortProbe& probe(int out_port) const override { return probes_[out_port]; }
  const int* credit_counter(int out_port, int vc) const override {
    return &outputs_[out_port].credit_counter(vc);
  }
  void set_probes_enabled(bool enabled) override { probes_enabled_ = enabled; }

 private:
  // Body flits skip route computation and VC allocation: switch allocation and traversal only.
  static constexpr int kBodyPipelineCycles = 2;
  // Cycles a flit spends in an idle router: pipeline_depth for a head, min(pipeline_depth, 2) for a body
  // flit.
  int flit_pipeline_cycles(const Flit& flit) const {
    return flit.head ? params_.pipeline_depth : std::min(params_.pipeline_depth, kBodyPipelineCycles);
  }
  // The front flit of VC v has been in the buffer for its pipeline (age >= flit_pipeline_cycles), or will
  // have been `lead` cycles from now; with the head pipeline from-front, a head also waits
  // pipeline_depth - 1 cycles after the tail ahead of it crossed (it is routed the cycle after).
  bool front_ready(const InputUnit& unit, int v, int lead = 0) const {
    const InputVirtualChannel& vc = unit.vc(v);
    if (params_.head_pipeline_from_front && vc.front_flit().head &&
        now_ + 1 + lead < vc.last_tail_cycle + params_.pipeline_depth)
      return false;
    return unit.front_age(v) + lead >= flit_pipeline_cycles(vc.front_flit());
  }
  // Store-and-forward: the front packet's tail is in the buffer and has been for the whole pipeline.
  bool tail_ready(const InputUnit& unit, int v) const;
  int packet_credits_needed(const Flit& head) const;
  // An adaptive head's output this cycle (router.selection) among `choices`, its VCs and class set in `vc`.
  void select_output(InputVirtualChannel& vc, const RouteChoices& choices, int credits_needed);
  RouteChoices& route_choices(int in_port, int vc) { return route_choices_[static_cast<std::size_t>(in_port) * params_.vcs + vc]; }
  void traverse(const SwitchGrant& grant);

  std::uint64_t now_ = 0;  // the cycle being stepped
  int node_;
  const Topology& topology_;
  RouterParams params_;
  int net_ports_;
  int local_ports_;
  RouterEnvironment* env_;
  RoutingUnit routing_unit_;
  // router.selection random, and the intermediate nodes of two-phase functions at their source router.
  std::mt19937_64 routing_random_;
  std::vector<InputUnit> inputs_;
  std::vector<RouteChoices> route_choices_;  // an adaptive function's outputs per input VC (in * vcs + vc)
  std::vector<OutputUnit> outputs_;
  VcAllocator vc_allocator_;
  // Cycles before its switch allocation that a head is VC-allocated: 0, in the same cycle (the per-port
  // allocator, as the RTL router); 1 with the iSLIP allocator, a stage of its own as in BookSim2's
  // router, when the pipeline has room for it (pipeline_depth >= 2).
  int vc_allocation_lead_;
  SwitchAllocator switch_allocator_;
  int buffered_flits_ = 0;
  // Crossbar traversals by input and output port (the flits each output sent are their sums); the buffer
  // writes are the input units' own counts.
  RouterActivity traversals_;
  std::uint64_t body_stall_cycles_ = 0;
  std::vector<OutputPortProbe> probes_;
  bool probes_enabled_ = false;
};

}  // namespace meshmp
