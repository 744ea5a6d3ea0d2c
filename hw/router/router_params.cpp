// Router parameter parsing and validation. See router_params.h.
#include "hw/router/router_params.h"

#include "topology/config_error.h"
#include "hw/base/config_limits.h"
#include "hw/router/router_model.h"

#include <algorithm>
#include "hw/router/flit.h"

namespace meshmp {

SwitchingMode parse_switching(const std::string& text, const std::string& field) {
  if (text == "wormhole") return SwitchingMode::Wormhole;
  if (text == "cut-through" || text == "vct") return SwitchingMode::VirtualCutThrough;
  if (text == "store-and-forward" || text == "saf") return SwitchingMode::StoreAndForward;
  throw ConfigError(field, text, "expected wormhole, cut-through or store-and-forward");
}

PortModel parse_port_model(const std::string& text, const std::string& field) {
  if (text == "one-port") return PortModel::OnePort;
  if (text == "all-port") return PortModel::AllPort;
  throw ConfigError(field, text, "expected one-port or all-port");
}

RouterParams with_routing(RouterParams params, const std::string& routing) {
  const RoutingFunctionInfo& function = find_routing(routing);
  params.routing_function = function.beyond_one_route() ? &function : nullptr;
  return params;
}

RouteSelection parse_route_selection(const std::string& text, const std::string& field) {
  if (text == "first") return RouteSelection::First;
  if (text == "random") return RouteSelection::Random;
  if (text == "most-credits") return RouteSelection::MostCredits;
  if (text.empty()) return RouteSelection::Unset;
  throw ConfigError(field, text, "expected first, random or most-credits");
}

std::string to_string(RouteSelection selection) {
  switch (selection) {
    case RouteSelection::Unset: return "";
    case RouteSelection::First: return "first";
    case RouteSelection::Random: return "random";
    case RouteSelection::MostCredits: return "most-credits";
  }
  return "?";
}

std::string to_string(SwitchingMode mode) {
  switch (mode) {
    case SwitchingMode::Wormhole: return "wormhole";
    case SwitchingMode::VirtualCutThrough: return "cut-through";
    case SwitchingMode::StoreAndForward: return "store-and-forward";
  }
  return "?";
}

std::string to_string(PortModel model) { return model == PortModel::OnePort ? "one-port" : "all-port"; }

bool RouterRuleChoice::parse(const std::string& text) const {
  if (text == off) return false;
  if (text == on) return true;
  throw ConfigError(field, text, std::string("expected ") + off + " or " + on);
}

std::optional<std::string> RouterParams::validate(const Topology& topology) const {
  auto bad = [](const std::string& field, int value, const std::string& rule) {
    return std::string(ConfigError(field, std::to_string(value), rule).what());
  };
  const RouterModelDescription* description = nullptr;
  try {
    description = &find_router_model(model);
  } catch (const ConfigError& e) {
    return std::string(e.what());
  }
  for (const auto& [value, limit] : {std::pair{vcs, &limits::kVcs}, std::pair{buffer_flits, &limits::kBufferFlits},
                                     std::pair{pipeline_depth, &limits::kPipelineDepth},
                                     std::pair{link_latency_cycles, &limits::kLinkLatency},
                                     std::pair{credit_latency_cycles, &limits::kCreditLatency},
                                     std::pair{credit_processing_cycles, &limits::kCreditProcessing},
                                     std::pair{flit_bytes, &limits::kFlitBytes},
                                     std::pair{max_packet_payload_flits, &limits::kMaxPacketPayloadFlits}})
    if (value < 0 || static_cast<std::uint64_t>(value) < limit->min || static_cast<std::uint64_t>(value) > limit->max)
      return bad(limit->field, value, limit->rule());
  if (rtl_power_on_seed > limits::kRtlPowerOnSeed.max)
    return std::string(ConfigError(limits::kRtlPowerOnSeed.field, std::to_string(rtl_power_on_seed),
                                   limits::kRtlPowerOnSeed.rule()).what());
  if (rtl_power_on_seed != 0 && !description->verilated)
    return std::string(ConfigError(limits::kRtlPowerOnSeed.field, std::to_string(rtl_power_on_seed),
                                   "sets the power-on state of RTL routers: needs router.model rtl or dual, not " + echo(model)).what());
  // BookSim2's rules that only the SystemC router has (the RTL router keeps the defaults).
  for (const auto& [on, rule] : {std::pair{dateline_whole_segment, &kDatelineClasses},
                                 std::pair{head_pipeline_from_front, &kHeadPipeline},
                                 std::pair{islip_vc_allocator, &kVcAllocator}})
    if (on && !description->systemc_stages)
      return std::string(ConfigError(rule->field, rule->on,
                                     std::string("is a rule of the SystemC router's ") + rule->stage +
                                         ": needs router.model cpp, not " + echo(model) + " (the RTL router " +
                                         rule->rtl_does + ")")
                             .what());
  if (!adaptive() && selection != RouteSelection::Unset)
    return std::string(ConfigError("router.selection", to_string(selection),
                                   "picks among the outputs of an adaptive routing function: the deterministic "
                                   "router.routing gives one (see `meshmp list`)").what());
  if (dateline && topology.has_rings() && vcs < 2)
    return bad("router.vcs", vcs,
               "a topology with rings needs at least 2 virtual channels for the dateline classes");
  const int dateline_classes = dateline && topology.has_rings() ? 2 : 1;
  if (adaptive() && routing_function->escape_channels && escape_channels && vcs < dateline_classes + 1)
    return bad("router.vcs", vcs,
               std::string(routing_function->name) + " needs " + std::to_string(dateline_classes) + " escape VC" +
                   (dateline_classes > 1 ? "s (one per dateline class)" : "") +
                   " and at least 1 adaptive VC: at least " + std::to_string(dateline_classes + 1) +
                   " (or router.escape_channels off, which can deadlock)");
  if (two_phase() && phase_classes && vcs < 2 * dateline_classes)
    return bad("router.vcs", vcs,
               std::string(routing_function->name) + " needs a VC class per phase" +
                   (dateline_classes > 1 ? " and dateline class" : "") + ": at least " +
                   std::to_string(2 * dateline_classes) + " (or router.phase_classes off, which can deadlock)");
  if (switching != SwitchingMode::Wormhole && buffer_flits < max_packet_flits())
    return bad("router.buffer_flits", buffer_flits,
               to_string(switching) + " switching needs a buffer that holds a whole packet (" +
                   std::to_string(max_packet_flits()) + " flits = 1 head + max_packet_payload_flits)");
  return std::nullopt;
}

}  // namespace meshmp
