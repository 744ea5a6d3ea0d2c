// Router parameter parsing and validation. See router_params.h.
#include "hw/router_params.h"

#include "hw/config_error.h"
#include "hw/flit.h"

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

std::string to_string(SwitchingMode mode) {
  switch (mode) {
    case SwitchingMode::Wormhole: return "wormhole";
    case SwitchingMode::VirtualCutThrough: return "cut-through";
    case SwitchingMode::StoreAndForward: return "store-and-forward";
  }
  return "?";
}

std::string to_string(PortModel model) { return model == PortModel::OnePort ? "one-port" : "all-port"; }

std::optional<std::string> RouterParams::validate(const Topology& topology) const {
  auto bad = [](const std::string& field, int value, const std::string& rule) {
    return std::string(ConfigError(field, std::to_string(value), rule).what());
  };
  if (vcs < 1 || vcs > 16) return bad("router.vcs", vcs, "must be 1..16");
  if (dateline && topology.has_rings() && vcs < 2)
    return bad("router.vcs", vcs,
               "a topology with rings needs at least 2 virtual channels for the dateline classes");
  if (buffer_flits < 1 || buffer_flits > 1024) return bad("router.buffer_flits", buffer_flits, "must be 1..1024");
  if (pipeline_depth < 1 || pipeline_depth > 5)
    return bad("router.pipeline_depth", pipeline_depth, "must be 1..5 cycles");
  if (link_latency_cycles < 1 || link_latency_cycles > 64)
    return bad("router.link_latency_cycles", link_latency_cycles, "must be 1..64");
  if (flit_bytes < 1 || flit_bytes > kMaxFlitBytes)
    return bad("router.flit_bytes", flit_bytes, "must be 1.." + std::to_string(kMaxFlitBytes));
  if (max_packet_payload_flits < 1 || max_packet_payload_flits > 4096)
    return bad("router.max_packet_payload_flits", max_packet_payload_flits, "must be 1..4096");
  if (switching != SwitchingMode::Wormhole && buffer_flits < max_packet_flits())
    return bad("router.buffer_flits", buffer_flits,
               to_string(switching) + " switching needs a buffer that holds a whole packet (" +
                   std::to_string(max_packet_flits()) + " flits = 1 head + max_packet_payload_flits)");
  return std::nullopt;
}

}  // namespace meshmp
