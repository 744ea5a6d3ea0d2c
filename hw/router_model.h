// The router seam: what the network and the machine see of a router, whatever models it. The SystemC
// router of hw/router.h is the model `cpp`; a verilated RTL router (`rtl`) and a lockstep pair of both
// (`dual`) plug in here, made by the factory from the `router.model` setting.
//
// The contract (docs/architecture.md, "Router microarchitecture"): what arrives between two edges (flits
// and credits) is latched by the network and delivered before step() of the cycle it arrives in; step() is
// one clock edge, evaluate (decisions from the state at the edge) then update (the state changes);
// everything a router sends goes through its RouterEnvironment and arrives at the earliest one cycle
// later, so routers can be stepped in any order within a cycle. A router is stepped every cycle it holds
// flits and every cycle a flit or a credit arrives for it; otherwise it need not be.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hw/flit.h"
#include "hw/router_params.h"
#include "hw/routing.h"
#include "topology/topology.h"

namespace meshmp {

class RouterEnvironment {
 public:
  virtual ~RouterEnvironment() = default;
  // A flit crossed the switch of `router` towards output port `out_port` in this cycle.
  virtual void send_flit(int router, int out_port, const Flit& flit) = 0;
  // An input buffer slot of (in_port, vc) was freed in this cycle: a credit goes upstream.
  virtual void send_credit(int router, int in_port, int vc) = 0;
  // The source node of packet `tag`, for waveform probes (the wire carries no source).
  virtual int packet_source(std::uint32_t tag) const = 0;
  // The credit protocol was broken (a modelling bug): reported, never silently ignored.
  virtual void protocol_error(const std::string& what) = 0;
};

// Values a waveform shows for one output port: what crossed the switch in the last cycle stepped.
struct OutputPortProbe {
  bool flit_valid = false;
  bool head = false;
  bool tail = false;
  unsigned vc = 0;
  unsigned tag = 0;   // the packet's wire tag
  unsigned src = 0;   // its source (from the host record)
  unsigned dst = 0;   // its destination (from its head flit)

  // `flit` of a packet from node `source` crossed the switch this cycle.
  void show(const Flit& flit, int source) {
    flit_valid = true;
    head = flit.head;
    tail = flit.tail;
    vc = flit.vc;
    tag = flit.tag;
    src = static_cast<unsigned>(source);
    if (flit.head) dst = static_cast<unsigned>(flit.dst);
  }
};

class RouterModel {
 public:
  virtual ~RouterModel() = default;

  virtual int node() const = 0;
  virtual int num_ports() const = 0;  // network ports, then local (injection = ejection) ports

  // Buffer write: a flit arrives on an input port (network port, or injection port net_ports + i).
  virtual void receive_flit(int in_port, const Flit& flit, std::uint64_t cycle) = 0;
  // A credit for output VC `vc` of `out_port` comes back from downstream.
  virtual void receive_credit(int out_port, int vc) = 0;
  // One clock cycle.
  virtual void step(std::uint64_t cycle) = 0;

  virtual int buffered_flits() const = 0;
  virtual std::uint64_t flits_sent(int out_port) const = 0;
  virtual std::uint64_t body_stall_cycles() const = 0;
  // One line per occupied input VC: what its front flit is waiting for (deadlock reports).
  virtual std::vector<std::string> describe_blocked(std::uint64_t cycle) const = 0;

  // Waveform: per output port what crossed the switch in the last cycle, and its credit counters
  // (nullptr for a port without them).
  virtual void set_probes_enabled(bool enabled) = 0;
  virtual const OutputPortProbe& probe(int out_port) const = 0;
  virtual const int* credit_counter(int out_port, int vc) const = 0;
};

// What builds the router of one node for a router model.
using RouterModelFactory = std::function<std::unique_ptr<RouterModel>(
    int node, const Topology& topology, const RouterParams& params, PortModel port_model, RoutingFunction routing,
    RouterEnvironment* environment)>;

// Adds a router model that `router.model` (--router-model) can name, for programs built on the library
// (docs/library.md). Register before building a machine. Throws ConfigError("router.model", name, rule)
// for an empty or taken name or an empty factory.
void register_router_model(const std::string& name, RouterModelFactory make);

// Router models by name (`router.model`). Throws ConfigError("router.model", name, ...) for an unknown one.
std::unique_ptr<RouterModel> make_router(const std::string& model, int node, const Topology& topology,
                                         const RouterParams& params, PortModel port_model, RoutingFunction routing,
                                         RouterEnvironment* environment);
std::vector<std::string> router_model_names();
// Empty when router model `model` can build the routers of this machine; otherwise the error (field
// router.model, the rule; for `rtl`, the configurations built).
std::optional<std::string> router_model_unsupported(const std::string& model, const Topology& topology,
                                                    const RouterParams& params, PortModel port_model);

}  // namespace meshmp
