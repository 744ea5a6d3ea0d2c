// Machine configuration: validation and JSON. See machine_config.h.
#include "hw/machine/machine_config.h"

#include "hw/power/technology.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "topology/config_error.h"
#include "topology/input_file.h"
#include "topology/topology.h"
#include "hw/machine/fault_spec.h"
#include "hw/machine/machine_settings.h"
#include "hw/router/router_model.h"
#include "hw/router/routing.h"

namespace meshmp {

namespace {

std::optional<std::string> bad(const std::string& field, const std::string& value, const std::string& rule) {
  return std::optional<std::string>(ConfigError(field, value, rule).what());
}

// A router network's settings against the topology and the fidelity; on a machine joined by a fabric, the
// router settings that would build routers or trace them refused (the others do not apply).
std::optional<std::string> network_rules(const MachineConfig& c, const Topology& topo) {
  if (topo.fabric().empty()) {
    if (auto error = with_routing(c.router, c.routing).validate(topo)) return error;
    if (auto error = router_model_unsupported(c.router.model, topo, c.router, c.port_model)) return error;
    if (c.fidelity != NetworkFidelity::Cycle) {
      // The transaction-level network has no routers to build, trace or step.
      const std::string rule = "network.fidelity " + to_string(c.fidelity) + " models the network without routers";
      if (c.router.model != kReferenceRouterModel)
        return bad("router.model", c.router.model, rule + " (cpp, the default, is the one compared)");
      if (!c.vcd.empty()) return bad("output.vcd", c.vcd, rule + " to trace (use network.fidelity cycle)");
      if (!c.trace_rtl.empty()) return bad("output.trace_rtl", c.trace_rtl, rule + " to trace (use network.fidelity cycle)");
    }
    return std::nullopt;
  }
  const std::string machine = c.topology + " has no router network";
  if (c.router.model != kReferenceRouterModel)
    return bad("router.model", c.router.model, machine + " (cpp, the default, is ignored there)");
  if (c.port_model != PortModel::OnePort)
    return bad("node.port_model", to_string(c.port_model), machine + ": a node has one channel to the " + topo.fabric());
  if (c.processor.startup_on_channel)
    return bad("node.startup_on", "channel", machine + ": a node has one channel, and its processor pays t_s (processor)");
  if (!c.vcd.empty()) return bad("output.vcd", c.vcd, machine + " to trace");
  if (!c.trace_rtl.empty()) return bad("output.trace_rtl", c.trace_rtl, machine + " to trace");
  if (c.host_threads != 1) return bad("run.host_threads", std::to_string(c.host_threads), machine + " to step in parallel");
  if (c.fidelity != NetworkFidelity::Cycle)
    return bad("network.fidelity", to_string(c.fidelity), machine + ": its " + topo.fabric() +
                                                               " is a transaction-level model already (leave it at cycle)");
  if (c.fabric.concurrent_transfers > topo.num_nodes())
    return bad("fabric.concurrent_transfers", std::to_string(c.fabric.concurrent_transfers),
               "004's k* is at most k, the " + std::to_string(topo.num_nodes()) + " nodes of " + c.topology);
  return std::nullopt;
}

// The waveforms' names and nodes, and the host threads.
std::optional<std::string> output_rules(const MachineConfig& c, const Topology& topo) {
  // Waveform names: the VCD writer appends ".vcd" to the name it is given, so the name is taken without
  // it; the FST writer is named likewise. Either needs a name before its extension.
  for (const auto& [field, path, extension, kind] : {std::tuple{"output.vcd", &c.vcd, ".vcd", "a VCD waveform"},
                                                     std::tuple{"output.trace_rtl", &c.trace_rtl, ".fst", "an FST waveform"}}) {
    if (path->empty()) continue;
    const std::string name = std::filesystem::path(*path).filename().string();
    const std::string ext = extension;
    if (name.size() < ext.size() || name.compare(name.size() - ext.size(), ext.size(), ext) != 0)
      return bad(field, *path, std::string(kind) + " file name must end in " + ext);
    if (name.size() == ext.size())
      return bad(field, *path, std::string(kind) + " file needs a name before " + ext + " (e.g. wave" + ext + ")");
  }
  if (c.trace_nodes.empty()) return bad("output.trace_nodes", "", "must list at least one node id");
  for (int n : c.trace_nodes)
    if (n < 0 || n >= topo.num_nodes())
      return bad("output.trace_nodes", std::to_string(n),
                 "not a node of " + c.topology + " (0.." + std::to_string(topo.num_nodes() - 1) + ")");
  const unsigned host_cores = std::thread::hardware_concurrency();  // 0: unknown
  if (host_cores > 0 && static_cast<unsigned>(c.host_threads) > host_cores)
    return bad("run.host_threads", std::to_string(c.host_threads),
               "at most " + std::to_string(host_cores) + ", the hardware threads of this host (more only wait for each other)");
  // Waveform probes read host records the simulation thread changes while workers step routers.
  if (c.host_threads > 1 && (!c.vcd.empty() || !c.trace_rtl.empty()))
    return bad("run.host_threads", std::to_string(c.host_threads), "a run that writes waveforms steps its routers on one thread (1)");
  return std::nullopt;
}

// A setting's value as its config key shows it.
std::string setting_text(const MachineConfig& c, const std::string& key) {
  const nlohmann::json value = find_machine_setting(key)->get(c);
  if (value.is_string()) return value.get<std::string>();
  if (!value.is_array()) return value.dump();
  std::string list;  // a node list as it is typed: 0,9
  for (const auto& item : value) list += (list.empty() ? "" : ",") + item.dump();
  return list;
}

// One rule for every setting: a value that changes nothing in this run is refused, naming why, rather than
// accepted and ignored. Set means set away from its default (a config file or a program may repeat a
// default).
std::optional<std::string> inert_settings(const MachineConfig& c, const Topology& topo) {
  static const MachineConfig defaults;
  const bool on_fabric = !topo.fabric().empty();
  for (const MachineSetting& setting : machine_settings()) {
    if (setting.get(c) == setting.get(defaults)) continue;
    const std::string text = setting_text(c, setting.key);
    const std::string section = setting.section();
    // Under --cost-model 004 a fabric's b is the link width (fabric.bytes_per_cycle = router.flit_bytes).
    const bool fabric_b = setting.key == "router.flit_bytes" && c.router.flit_bytes == static_cast<int>(c.fabric.bytes_per_cycle);
    if (on_fabric && section == "router" && !fabric_b)
      return bad(setting.key, text, c.topology + " has no router network: a router setting changes nothing there");
    if (!on_fabric && section == "fabric")
      return bad(setting.key, text,
                 c.topology + " is a router network: fabric settings apply to 004's bus, shared memory and switch (" +
                     fabric_topologies() + ")");
    // The transaction-level network reserves links along the routers' route; it has no allocators,
    // credits or router pipelines whose order these settings choose.
    if (c.fidelity == NetworkFidelity::Transaction &&
        (setting.key == "router.vc_allocator" || setting.key == "router.head_pipeline" ||
         setting.key == "router.credit_latency_cycles" || setting.key == "router.credit_processing_cycles"))
      return bad(setting.key, text,
                 "network.fidelity tlm models the network without routers' allocators, credits and pipelines: it "
                 "changes nothing there (use network.fidelity cycle or both)");
  }
  if (c.router.dateline_whole_segment && !on_fabric && !c.router.dateline)
    return bad("router.dateline_classes", "whole-segment",
               "chooses the dateline class on a ring; with router.dateline off there are none");
  if (c.router.dateline_whole_segment && !on_fabric && !topo.has_rings())
    return bad("router.dateline_classes", "whole-segment",
               "chooses the dateline class on a ring; " + c.topology + " has none");
  if (c.trace_nodes != defaults.trace_nodes && c.vcd.empty() && c.trace_rtl.empty())
    return bad("output.trace_nodes", setting_text(c, "output.trace_nodes"),
               "names the nodes a waveform shows; no waveform is written (give output.vcd or output.trace_rtl)");
  return std::nullopt;
}

}  // namespace

std::optional<std::string> MachineConfig::validate() const {
  try {
    return validate(Topology::parse(topology));
  } catch (const ConfigError& e) {
    return std::string(e.what());
  }
}

std::optional<std::string> MachineConfig::validate(const Topology& topo) const {
  try {
    read_technology("power.technology_file", technology_file);  // a broken file is refused before the run
    const RoutingFunctionInfo& function = find_routing(routing);
    if (Topology::fabric_of(topology).empty()) {
      if (auto why = function.unsupported(topo)) throw ConfigError("router.routing", routing, *why);
      const std::string kind = function.routes_by_choices() ? "adaptive" : "oblivious, through a random intermediate node";
      if (function.beyond_one_route() && port_model == PortModel::AllPort)
        throw ConfigError("router.routing", routing,
                          "is " + kind + ": an all-port node injects on the channel of its route's first hop, which the "
                          "function leaves to the router (use node.port_model one-port)");
      if (function.beyond_one_route() && fidelity != NetworkFidelity::Cycle)
        throw ConfigError("router.routing", routing,
                          "is " + kind + ": the transaction-level network reserves one fixed path per message (use "
                          "network.fidelity cycle)");
      if (!router.escape_channels && !function.escape_channels)
        throw ConfigError("router.escape_channels", "false",
                          "turns off the escape channels of a function that has them (min-adaptive): " + routing +
                              " has none, so it changes nothing");
      if (!router.phase_classes && !function.two_phase())
        throw ConfigError("router.phase_classes", "false",
                          "puts both phases of a two-phase function (valiant, romm) on every VC: " + routing +
                              " has one phase, so it changes nothing");
    }
  } catch (const ConfigError& e) {
    return std::string(e.what());
  }
  if (auto error = network_rules(*this, topo)) return error;
  if (block_bytes == 0) return bad("block_bytes", "0", "a block must hold at least one byte");
  // The send and receive buffers (the algorithm's scratch comes on top: see run_machine).
  const std::uint64_t memory = 2ull * topo.num_nodes() * block_bytes;
  if (memory > 0xffffffffull)
    return bad("block_bytes", std::to_string(block_bytes),
               "a node's memory (2 x nodes x block_bytes = " + std::to_string(memory) + " bytes) must fit 32-bit addresses");
  if (memory * topo.num_nodes() > (8ull << 30))
    return bad("block_bytes", std::to_string(block_bytes),
               "the machine's memories (2 x nodes^2 x block_bytes = " + std::to_string(memory * topo.num_nodes()) +
                   " bytes) exceed 8 GiB");
  // Every value against its own rule (a configuration built in code has not been parsed).
  try {
    for (const MachineSetting& setting : machine_settings())
      if (setting.check) setting.check(*this);
  } catch (const ConfigError& e) {
    return std::string(e.what());
  }
  if (auto error = output_rules(*this, topo)) return error;
  try {
    for (const std::string& fault : inject_faults) check_fault_spec(parse_fault_spec(fault), topo, fidelity);
  } catch (const ConfigError& e) {
    return std::string(e.what());
  }
  return inert_settings(*this, topo);
}

void check_config_keys(const nlohmann::json& json, const std::string& section, const std::set<std::string>& known) {
  if (!json.is_object()) throw ConfigError(section.empty() ? "config" : section, json.dump(), "must be a JSON object");
  for (const auto& item : json.items())
    if (!known.count(item.key())) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw ConfigError((section.empty() ? "" : section + ".") + item.key(), item.value().dump(),
                        "unknown key; known keys here: " + list);
    }
}

void MachineConfig::apply_json(const nlohmann::json& json) {
  // The known keys of the top level and of each section, from the table of settings.
  std::set<std::string> top;
  std::map<std::string, std::set<std::string>> sections;
  for (const MachineSetting& setting : machine_settings()) {
    const std::string section = setting.section();
    top.insert(section.empty() ? setting.key : section);
    if (!section.empty()) sections[section].insert(setting.name());
  }
  check_config_keys(json, "", top);
  for (const auto& [section, keys] : sections)
    if (json.contains(section)) check_config_keys(json[section], section, keys);
  for (const MachineSetting& setting : machine_settings()) {
    const std::string section = setting.section();
    if (!section.empty() && !json.contains(section)) continue;
    const nlohmann::json& scope = section.empty() ? json : json[section];
    if (scope.contains(setting.name())) setting.read_json(*this, scope[setting.name()]);
  }
}

nlohmann::json MachineConfig::to_json() const {
  nlohmann::json json = nlohmann::json::object();
  for (const MachineSetting& setting : machine_settings()) {
    if (!setting.recorded) continue;
    const std::string section = setting.section();
    (section.empty() ? json[setting.key] : json[section][setting.name()]) = setting.get(*this);
  }
  return json;
}

std::vector<int> parse_trace_nodes(const std::string& text, const std::string& field) {
  const std::string rule = "must be node ids 0.." + std::to_string(Topology::kMaxNodes - 1) +
                           " separated by commas, at least one (e.g. 0,9)";
  if (text.empty()) throw ConfigError(field, text, rule);
  std::vector<int> nodes;
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = text.find(',', begin);
    const std::string id = text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    if (id.empty()) throw ConfigError(field, text, "an empty node id; " + rule);
    std::uint64_t node = 0;
    const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), node);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && end == id.data() + id.size() &&
                                                   node >= static_cast<std::uint64_t>(Topology::kMaxNodes)))
      throw ConfigError(field, text, "node id " + echo(id) + " is out of range; " + rule);
    if (ec != std::errc() || end != id.data() + id.size())
      throw ConfigError(field, text, "'" + echo(id) + "' is not a node id; " + rule);
    if (std::find(nodes.begin(), nodes.end(), static_cast<int>(node)) == nodes.end())
      nodes.push_back(static_cast<int>(node));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  return nodes;
}

bool parse_startup_on(const std::string& text, const std::string& field) {
  if (text == "processor") return false;
  if (text == "channel") return true;
  throw ConfigError(field, text, "must be processor (t_s before each send descriptor) or channel (t_s per message on its injection channel)");
}

ExchangeParameters exchange_parameters(const MachineConfig& config) {
  ExchangeParameters p;
  p.block_bytes = config.block_bytes;
  p.startup_cycles = config.processor.startup_cycles;
  p.flit_bytes = config.router.flit_bytes;
  if (!Topology::fabric_of(config.topology).empty()) {
    // 004's tau and b of a shared-resource machine: a transfer costs the processor's t_s, a cycle of
    // arbitration and the fabric's start-up, then m / b over the node's channel.
    p.startup_cycles = config.processor.startup_cycles + 1 + config.fabric.startup_cycles;
    p.flit_bytes = static_cast<int>(config.fabric.bytes_per_cycle);
    p.concurrent_transfers = config.fabric.concurrent_transfers;
  }
  p.copy_cycles_per_byte = config.processor.copy_cycles_per_byte;
  p.all_port = config.port_model == PortModel::AllPort;
  p.max_packet_payload_flits = config.router.max_packet_payload_flits;
  p.workload_options = config.workload_options;
  return p;
}

nlohmann::json read_config_file(const std::string& path) {
  // Only a regular file of at most kMaxConfigFileBytes is read: a device or a FIFO could give bytes
  // without end, and a config is a few hundred bytes.
  const std::string text =
      read_input_file("--config", path,
                      InputFileRule{"a JSON file", kMaxConfigFileBytes,
                                    "a config file must be at most " + std::to_string(kMaxConfigFileBytes) + " bytes (" +
                                        std::to_string(kMaxConfigFileBytes >> 20) + " MiB)"});
  // Duplicate keys are refused (the parser would keep only the last): track the keys of every open object.
  // Nesting deeper than kMaxConfigDepth is refused as it opens (a config is three levels deep; a deeper
  // value would only cost stack in every later walk over it).
  std::vector<std::set<std::string>> open_objects;
  auto check_event = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    if ((event == nlohmann::json::parse_event_t::object_start || event == nlohmann::json::parse_event_t::array_start) &&
        depth >= kMaxConfigDepth)
      throw ConfigError("--config", path,
                        "objects and arrays nest more than " + std::to_string(kMaxConfigDepth) +
                            " levels deep; a config nests at most " + std::to_string(kMaxConfigDepth));
    if (event == nlohmann::json::parse_event_t::object_start) open_objects.emplace_back();
    else if (event == nlohmann::json::parse_event_t::object_end && !open_objects.empty()) open_objects.pop_back();
    else if (event == nlohmann::json::parse_event_t::key && !open_objects.empty() &&
             !open_objects.back().insert(parsed.get<std::string>()).second)
      throw ConfigError("--config", path, "the key \"" + echo(parsed.get<std::string>()) + "\" appears twice in one object");
    return true;
  };
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text, check_event);
  } catch (const nlohmann::json::exception& e) {
    // A syntax error, or a number past a double's range (1e400) or a 64-bit integer's.
    throw ConfigError("--config", path, std::string("is not valid JSON: ") + echo(e.what(), 240));
  }
  return json;
}

void load_config_file(MachineConfig& config, const std::string& path) { config.apply_json(read_config_file(path)); }

}  // namespace meshmp
