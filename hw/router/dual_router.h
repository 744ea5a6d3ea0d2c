// The `dual` router model (hw/router/router_model.h): the SystemC router and the verilated RTL router side by
// side on the same inputs, in lockstep. The SystemC router's outputs drive the machine; in the first
// cycle where the two put out anything different (a flit on a port, a credit upstream, the body-stall
// count) the run ends with a protocol error naming the cycle, the router, the port and both values.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hw/router/router.h"
#include "hw/router/rtl_router.h"

namespace meshmp {

class DualRouter final : public RouterModel {
 public:
  // `rtl_model` is passed to the RTL router (tests only: see RtlRouter).
  DualRouter(int node, const Topology& topology, const RouterParams& params, PortModel port_model,
             RoutingFunction routing, RouterEnvironment* environment,
             const RtlModelConfiguration* rtl_model = nullptr);

  RtlRouter& rtl() { return rtl_; }
  int node() const override { return cpp_.node(); }
  int num_ports() const override { return cpp_.num_ports(); }
  void receive_flit(int in_port, const Flit& flit, std::uint64_t cycle) override;
  void receive_credit(int out_port, int vc) override;
  void step(std::uint64_t cycle) override;
  int buffered_flits() const override { return cpp_.buffered_flits(); }
  std::uint64_t flits_sent(int out_port) const override { return cpp_.flits_sent(out_port); }
  std::uint64_t body_stall_cycles() const override { return cpp_.body_stall_cycles(); }
  std::vector<std::string> describe_blocked(std::uint64_t cycle) const override {
    return cpp_.describe_blocked(cycle);
  }
  void set_probes_enabled(bool enabled) override { cpp_.set_probes_enabled(enabled); }
  const OutputPortProbe& probe(int out_port) const override { return cpp_.probe(out_port); }
  const int* credit_counter(int out_port, int vc) const override { return cpp_.credit_counter(out_port, vc); }
  // The SystemC router's counts (step() stops at the first cycle the RTL router's differ).
  std::optional<RouterActivity> activity() const override { return cpp_.activity(); }

 private:
  // What one of the two routers put out in a cycle.
  struct Outputs : RouterEnvironment {
    RouterEnvironment* machine = nullptr;
    std::string model;
    std::vector<std::pair<int, Flit>> flits;
    std::vector<std::pair<int, int>> credits;
    void send_flit(int, int out_port, const Flit& flit) override { flits.emplace_back(out_port, flit); }
    void send_credit(int, int in_port, int vc) override { credits.emplace_back(in_port, vc); }
    int packet_source(std::uint32_t tag) const override { return machine->packet_source(tag); }
    void protocol_error(const std::string& what) override { machine->protocol_error(model + " model: " + what); }
  };
  // Empty when both put out the same this cycle; otherwise the first difference.
  std::string first_difference();

  RouterEnvironment* env_;
  Outputs cpp_out_, rtl_out_;
  Router cpp_;
  RtlRouter rtl_;
  bool diverged_ = false;
};

}  // namespace meshmp
