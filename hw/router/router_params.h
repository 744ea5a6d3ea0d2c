// Parameters of the cycle-level wormhole router and its links (000 §2, 001 §1: wormhole routing; 002:
// the packet-switched model = store-and-forward). Plain data with validate().
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hw/router/routing.h"
#include "topology/topology.h"

namespace meshmp {

enum class SwitchingMode { Wormhole, VirtualCutThrough, StoreAndForward };
enum class PortModel { OnePort, AllPort };
// How a head picks among the outputs an adaptive routing function allows (router.selection), each cycle
// until it holds an output VC, among those with a free VC that has a credit (the function's first when
// none has): the function's first, one at random (a generator per router, seeded from routing_seed and
// the node), or the one whose free VCs hold the most credits (the first on a tie). Unset: first, and
// refused beside a deterministic function, which has nothing to select.
enum class RouteSelection { Unset, First, Random, MostCredits };

SwitchingMode parse_switching(const std::string& text, const std::string& field);
PortModel parse_port_model(const std::string& text, const std::string& field);
RouteSelection parse_route_selection(const std::string& text, const std::string& field);
std::string to_string(SwitchingMode mode);
std::string to_string(PortModel model);
std::string to_string(RouteSelection selection);
// A router rule with two settings: the default (false) and BookSim2's (true), which only the SystemC
// router has; `stage` is where it acts, `rtl_does` what the RTL router does instead.
struct RouterRuleChoice {
  const char* field;
  const char* off;
  const char* on;
  const char* stage;
  const char* rtl_does;
  // Throws ConfigError naming the field and both settings when `text` is neither.
  bool parse(const std::string& text) const;
  const char* name(bool value) const { return value ? on : off; }
};
inline constexpr RouterRuleChoice kDatelineClasses{"router.dateline_classes", "from-wrap-link", "whole-segment",
                                                   "route computation", "takes class 1 from the wrap-around link on"};
inline constexpr RouterRuleChoice kHeadPipeline{"router.head_pipeline", "from-write", "from-front", "input units",
                                                "counts a head's pipeline from its buffer write"};
inline constexpr RouterRuleChoice kVcAllocator{"router.vc_allocator", "per-port", "islip", "VC allocation",
                                               "serves every request it can, each with the lowest free VC that has a credit"};

struct RouterParams {
  std::string model = "cpp";         // which router model the network builds (hw/router/router_model.h)
  // The RTL routers' power-on state (models rtl and dual): 0, every register and memory starts at 0;
  // N > 0, at values drawn at random from seed N (and the router's node), as real flip-flops and SRAMs
  // power up, before the reset. A router whose reset is complete behaves the same from any of them.
  std::uint32_t rtl_power_on_seed = 0;
  int vcs = 4;                       // virtual channels per input port
  int buffer_flits = 8;              // buffer depth per virtual channel
  // Cycles a flit spends in an idle router, from its buffer write to leaving on the output link (1..5):
  // a flit written at cycle t crosses the switch at t + pipeline_depth. Depth 4 is the classic
  // input-queued router with route computation, VC allocation, switch allocation and switch traversal
  // one cycle each; smaller depths fold stages together (speculation, lookahead routing).
  int pipeline_depth = 2;
  int link_latency_cycles = 1;       // link traversal latency of a flit
  // The credit loop. A router frees a buffer slot when the flit in it crosses the switch and sends the
  // credit upstream: it is on the wire credit_latency_cycles (0: the link latency), and the upstream
  // output unit registers it before its allocators may count it, credit_processing_cycles more (1: the
  // slot is allocated again the cycle after the credit arrives, as in BookSim2's input-queued router,
  // whose credit is sent at switch allocation, one cycle before traversal, and read a cycle after its
  // channel latency). The same holds for the ejection channel's credits (a 1-cycle wire).
  int credit_latency_cycles = 0;
  int credit_processing_cycles = 1;
  int flit_bytes = 8;                // link width
  int max_packet_payload_flits = 16; // messages are cut into packets of at most this many payload flits
  SwitchingMode switching = SwitchingMode::Wormhole;
  bool dateline = true;              // dateline virtual-channel classes on rings (deadlock freedom)
  // Which class a packet takes on a ring (hw/router/routing_unit.h): false, class 0 until it crosses the ring's
  // wrap-around link and class 1 after ("from-wrap-link"); true, class 1 for the whole stretch of a
  // ring that crosses the wrap-around link, chosen as the packet enters the ring ("whole-segment", as
  // BookSim2's dim_order_torus: the two classes carry the wrapping and the other packets).
  bool dateline_whole_segment = false;
  // When a head queued behind another packet in its input VC starts its pipeline: false ("from-write"),
  // from its buffer write, as if its route computation and VC allocation ran while it waited (lookahead);
  // true ("from-front"), only once it is the front of the VC and the packet ahead has left: the input VC
  // holds one packet's route and output VC at a time, so the head is routed the cycle after that tail
  // crossed the switch and crosses pipeline_depth - 1 cycles after it at the earliest (BookSim2's
  // input-queued router). A head written into an empty VC is unaffected.
  bool head_pipeline_from_front = false;
  // The VC allocator's architecture (hw/router/vc_allocator.h): false ("per-port"), each output port serves
  // every request it can, each head the lowest free VC with a credit; true ("islip"), BookSim2's
  // separable iSLIP allocator, one iteration, credits not checked.
  bool islip_vc_allocator = false;
  // Ejection channels take one packet at a time (a node's DMA engine receives one worm at a time: the
  // one-port rule). Off for the bare sinks of synthetic traffic, which take a flit per cycle from any
  // packet, interleaved on the ejection channel's VCs.
  bool exclusive_ejection = true;
  // The routing function named router.routing (hw/router/routing.h) when it decides more than one output
  // per destination (adaptive or two-phase oblivious); null when the network's deterministic function
  // routes every head. Set by whoever builds the network (with_routing()).
  const RoutingFunctionInfo* routing_function = nullptr;
  // Duato's escape channels for a function that has them (router.escape_channels; off: the adaptive
  // outputs on every VC, which can deadlock, for the study of deadlock).
  bool escape_channels = true;
  // A two-phase function's phases on separate VC classes (router.phase_classes; off: both phases on every
  // VC, which can deadlock).
  bool phase_classes = true;
  RouteSelection selection = RouteSelection::Unset;
  // Seeds each router's generator: router.selection random, and the intermediate nodes of two-phase
  // functions (drawn at the source router).
  std::uint64_t routing_seed = 1;

  bool adaptive() const { return routing_function != nullptr && routing_function->routes_by_choices(); }
  bool two_phase() const { return routing_function != nullptr && routing_function->two_phase(); }

  int max_packet_flits() const { return 1 + max_packet_payload_flits; }
  int credit_wire_cycles() const { return credit_latency_cycles > 0 ? credit_latency_cycles : link_latency_cycles; }
  // Empty when valid; otherwise the first broken rule, naming field, value and rule.
  std::optional<std::string> validate(const Topology& topology) const;
};

// `params` routed by the function named `routing` (router.routing): routing_function set when it decides
// beyond one route per destination. Throws ConfigError for an unknown name.
RouterParams with_routing(RouterParams params, const std::string& routing);

}  // namespace meshmp
