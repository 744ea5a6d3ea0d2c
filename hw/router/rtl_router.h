// The `rtl` router model (hw/router/router_model.h): the RTL router of rtl/ verilated (--cc) and evaluated from
// the network's clock process, one clock cycle (a falling and a rising edge) per step, only when the
// router holds flits or receives a flit or a credit (skipping idle cycles is safe: an empty router's state
// does not change). Flits cross the model's ports in the wire format of hw/router/flit_wire.h; at construction
// the routing table is loaded from the routing function during reset, one destination per edge.
//
// The RTL is built for a small matrix of (ports, VCs) configurations (rtl/CMakeLists.txt); a machine the
// matrix does not cover is refused with a ConfigError that lists the built ones. A test may hand it another
// verilated configuration instead (the checked one: assertions, fault injection). The registers power up
// at 0 or at random (RouterParams::rtl_power_on_seed). For deadlock reports the adapter keeps, from the
// model's ports, which packets are in each input VC and which packet holds each output VC.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hw/router/router_model.h"

class VerilatedFstC;

namespace meshmp {

class RtlModelPort;             // the verilated model behind a uniform interface (hw/router/rtl_model_port.h)
struct RtlModelConfiguration;  // a verilated configuration (the same header)

// Slots per VC of every built RTL configuration (MESHMP_RTL_MAX_BUFFER, rtl/CMakeLists.txt): the deepest
// router.buffer_flits the RTL router takes.
inline constexpr int kRtlMaxBuffer = 32;

class RtlRouter final : public RouterModel {
 public:
  // `model` (tests only): the verilated configuration to build instead of the matrix's, one that fits
  // this machine: the checked configuration (tests/rtl_checked_model.h: the router's assertions compiled
  // in, a fault injected).
  RtlRouter(int node, const Topology& topology, const RouterParams& params, PortModel port_model,
            RoutingFunction routing, RouterEnvironment* environment, const RtlModelConfiguration* model = nullptr);
  ~RtlRouter() override;

  // Empty when the RTL matrix has a configuration for this machine; otherwise why not, listing the built
  // ones (field router.model).
  static std::optional<std::string> unsupported(const Topology& topology, const RouterParams& params,
                                                PortModel port_model);

  // How many RTL routers this process has built (the tests' rtl/ pass checks that each of its entries
  // built some, tests/test_main.cpp).
  static std::uint64_t built_count();

  // Adds this router's verilated model (ports and internals) to an FST waveform (RtlWaveform).
  void add_to_waveform(VerilatedFstC* file);

  int node() const override { return node_; }
  int num_ports() const override { return net_ports_ + local_ports_; }
  void receive_flit(int in_port, const Flit& flit, std::uint64_t cycle) override;
  void receive_credit(int out_port, int vc) override;
  void step(std::uint64_t cycle) override;
  int buffered_flits() const override { return buffered_flits_; }
  std::uint64_t flits_sent(int out_port) const override { return flits_sent_[out_port]; }
  std::optional<RouterActivity> activity() const override { return activity_; }
  std::uint64_t body_stall_cycles() const override;
  std::vector<std::string> describe_blocked(std::uint64_t cycle) const override;
  void set_probes_enabled(bool enabled) override { probes_enabled_ = enabled; }
  const OutputPortProbe& probe(int out_port) const override { return probes_[out_port]; }
  const int* credit_counter(int out_port, int vc) const override {
    return &credits_[static_cast<std::size_t>(out_port) * vcs_ + vc];
  }

 private:
  // The model's port for this router's port p (local ports follow the model's network ports).
  int model_port(int p) const { return p < net_ports_ ? p : model_net_ports_ + (p - net_ports_); }
  int machine_port(int model_p) const {
    return model_p < model_net_ports_ ? model_p : net_ports_ + (model_p - model_net_ports_);
  }

  // The packets whose flits are in each input VC, oldest first, from a head's arrival to its tail's
  // departure (packets follow one another in a VC): the blocked-channel report names the front packet
  // and where it heads. Kept per packet, not per flit, so that the bookkeeping costs little.
  struct HeldPacket {
    std::uint32_t tag;
    std::int32_t dst;
    std::uint8_t next_route_entry;    // the next output port of a source route, kNoPort if none
  };
  static constexpr int kHeldRing = kRtlMaxBuffer;  // per input VC: at most one packet per buffered flit

  int node_;
  const Topology& topology_;
  RoutingFunction routing_;
  RouterEnvironment* env_;
  int net_ports_;
  int local_ports_;
  int vcs_;
  int model_net_ports_ = 0;
  std::unique_ptr<RtlModelPort> model_;
  int buffered_flits_ = 0;
  std::vector<int> buffered_per_vc_;      // per (input port, VC): flits held (stall reports)
  std::vector<HeldPacket> held_;          // per (input port, VC): a ring of kHeldRing ...
  std::vector<std::uint8_t> held_front_;  // ... where its oldest packet is ...
  std::vector<std::uint8_t> held_count_;  // ... and how many
  std::vector<std::int64_t> output_owner_;  // per (output port, VC): the tag of the packet holding it, -1
  std::vector<std::size_t> output_source_;  // per (output port, VC): the input (port * vcs + VC) it leaves
  std::vector<std::uint64_t> flits_sent_;
  // The power model's events, seen at the RTL's edges: a flit written at its input port, and crossing to
  // its output port from the input VC whose oldest packet it belongs to.
  RouterActivity activity_;
  std::vector<int> credits_;              // per (output port, VC): a shadow of the RTL's counters (waveforms)
  std::vector<OutputPortProbe> probes_;
  bool probes_enabled_ = false;
  bool error_reported_ = false;
};

// The FST waveform of the traced RTL routers' internals (--trace-rtl): FIFO occupancy, write histories,
// VC states, allocator decisions, credits, one sample per cycle (time in cycles of 1 ns). enable() must
// come before any RTL router is built (the routers then keep their allocators on in both halves of the
// cycle, so that the samples taken after the rising edge show them); the traced routers must be stepped
// every cycle.
class RtlWaveform {
 public:
  static void enable();
  static bool enabled();
  static void open(const std::string& path, const std::vector<RtlRouter*>& routers);
  static void dump(std::uint64_t cycle);
  static void close();
};

// The description of a router model that holds the verilated RTL router (rtl, dual): it refuses the
// machines the RTL configurations built do not cover, naming `name`, and it traces the RTL.
RouterModelDescription verilated_router_description(const std::string& name, const std::string& routers,
                                                    RouterModelFactory make);
// The same for a model class built like the RTL router (node, topology, parameters, port model, routing,
// environment).
template <typename Model>
RouterModelDescription verilated_router_description(const std::string& name, const std::string& routers) {
  return verilated_router_description(
      name, routers,
      [](int node, const Topology& topology, const RouterParams& params, PortModel port_model, RoutingFunction routing,
         RouterEnvironment* environment) -> std::unique_ptr<RouterModel> {
        return std::make_unique<Model>(node, topology, params, port_model, routing, environment);
      });
}

}  // namespace meshmp
