// The router seam: what the network and the machine see of a router, whatever models it. The SystemC
// router of hw/router/router.h is the model `cpp`; a verilated RTL router (`rtl`) and a lockstep pair of both
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

#include "hw/router/flit.h"
#include "hw/router/router_activity.h"
#include "hw/router/router_params.h"
#include "hw/router/routing.h"
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

  // Its buffer and crossbar events since it was built (the power model's activity); none for a model that
  // does not count them (a library's own model may leave them out: its network then reports no power).
  virtual std::optional<RouterActivity> activity() const { return std::nullopt; }
};

// What builds the router of one node for a router model.
using RouterModelFactory = std::function<std::unique_ptr<RouterModel>(
    int node, const Topology& topology, const RouterParams& params, PortModel port_model, RoutingFunction routing,
    RouterEnvironment* environment)>;

// What the machine and the command line know of a router model besides how to build it. Each of meshmp's
// models registers its description from its own file (RouterModelRegistration); a program built on the
// library calls register_router_model(). Nothing else names a model.
struct RouterModelDescription {
  std::string name;  // router.model, --router-model
  // The run summary's words for the routers ("verilated RTL routers"); empty for the reference model.
  std::string routers;
  RouterModelFactory make;
  // Why the model cannot build the routers of this machine (the error, naming field, value and rule);
  // none when it can. Unset: it builds every machine.
  std::function<std::optional<std::string>(const Topology&, const RouterParams&, PortModel)> unsupported;
  // It is built from the SystemC router's stages, so it takes their BookSim2 rules (router.dateline_classes
  // whole-segment, router.head_pipeline from-front, router.vc_allocator islip).
  bool systemc_stages = false;
  // It holds verilated RTL: it writes the RTL's internals (output.trace_rtl) and takes a power-on state
  // (router.rtl_power_on_seed).
  bool verilated = false;
};

// The model a machine has unless told otherwise: the SystemC router, the reference the other models and
// the transaction level are compared with.
inline constexpr const char* kReferenceRouterModel = "cpp";

// Adds a router model that `router.model` (--router-model) can name, for programs built on the library
// (docs/library.md). Register before building a machine. Throws ConfigError("router.model", name, rule)
// for an empty or taken name or an empty factory.
void register_router_model(RouterModelDescription description);
// The same for a model described by its factory alone (it builds every machine, takes no stage rules and
// holds no RTL).
void register_router_model(const std::string& name, RouterModelFactory make);

// A model of meshmp's own registers itself in its own file, at static initialisation:
//   namespace { const RouterModelRegistration kRegistration{20, rtl_router_description}; }
// `list_position` orders the models in router_model_names() and the help.
struct RouterModelRegistration {
  RouterModelRegistration(int list_position, RouterModelDescription (*describe)());
};

// The description of model `name`; ConfigError("router.model", name, "unknown router model; known: ...").
const RouterModelDescription& find_router_model(const std::string& name);
std::vector<std::string> router_model_names();
// Builds one node's router of model `model`. Throws ConfigError for an unknown model.
std::unique_ptr<RouterModel> make_router(const std::string& model, int node, const Topology& topology,
                                         const RouterParams& params, PortModel port_model, RoutingFunction routing,
                                         RouterEnvironment* environment);
// Empty when router model `model` can build the routers of this machine; otherwise the error.
std::optional<std::string> router_model_unsupported(const std::string& model, const Topology& topology,
                                                    const RouterParams& params, PortModel port_model);

}  // namespace meshmp
