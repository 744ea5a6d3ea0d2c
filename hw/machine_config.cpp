// Machine configuration: validation and JSON. See machine_config.h.
#include "hw/machine_config.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "topology/config_error.h"
#include "topology/topology.h"
#include "hw/config_limits.h"
#include "hw/router_model.h"
#include "hw/routing.h"

namespace meshmp {

std::optional<std::string> MachineConfig::validate() const {
  std::optional<Topology> topo;
  try {
    topo = Topology::parse(topology);
    find_routing_function(routing);
  } catch (const ConfigError& e) {
    return std::string(e.what());
  }
  auto bad = [](const std::string& field, const std::string& value, const std::string& rule) {
    return std::optional<std::string>(ConfigError(field, value, rule).what());
  };
  if (topo->fabric() == Fabric::None) {
    if (auto error = router.validate(*topo)) return error;
    if (auto error = router_model_unsupported(router.model, *topo, router, port_model)) return error;
  } else {
    // The router settings do not apply; the ones that would build routers or trace them are refused.
    const std::string machine = topology + " has no router network";
    if (router.model != "cpp") return bad("router.model", router.model, machine + " (cpp, the default, is ignored there)");
    if (port_model != PortModel::OnePort)
      return bad("node.port_model", to_string(port_model), machine + ": a node has one channel to the " + fabric_name(topo->fabric()));
    if (processor.startup_on_channel)
      return bad("node.startup_on", "channel", machine + ": a node has one channel, and its processor pays t_s (processor)");
    if (!vcd.empty()) return bad("output.vcd", vcd, machine + " to trace");
    if (!trace_rtl.empty()) return bad("output.trace_rtl", trace_rtl, machine + " to trace");
    if (host_threads != 1) return bad("run.host_threads", std::to_string(host_threads), machine + " to step in parallel");
    if (fabric.concurrent_transfers > topo->num_nodes())
      return bad("fabric.concurrent_transfers", std::to_string(fabric.concurrent_transfers),
                 "004's k* is at most k, the " + std::to_string(topo->num_nodes()) + " nodes of " + topology);
  }
  if (block_bytes == 0) return bad("block_bytes", "0", "a block must hold at least one byte");
  // The send and receive buffers (the algorithm's scratch comes on top: see run_machine).
  const std::uint64_t memory = 2ull * topo->num_nodes() * block_bytes;
  if (memory > 0xffffffffull)
    return bad("block_bytes", std::to_string(block_bytes),
               "a node's memory (2 x nodes x block_bytes = " + std::to_string(memory) + " bytes) must fit 32-bit addresses");
  if (memory * topo->num_nodes() > (8ull << 30))
    return bad("block_bytes", std::to_string(block_bytes),
               "the machine's memories (2 x nodes^2 x block_bytes = " + std::to_string(memory * topo->num_nodes()) +
                   " bytes) exceed 8 GiB");
  if (!copy_cycles_per_byte_valid(processor.copy_cycles_per_byte))
    return bad("node.copy_cycles_per_byte", std::to_string(processor.copy_cycles_per_byte),
               "must be a number 0..1e6 (cycles per byte)");
  try {
    check_integer(processor.startup_cycles, limits::kStartupCycles);
    check_integer(barrier_latency_cycles, limits::kBarrierLatency);
    check_integer(unexpected_buffer_bytes, limits::kUnexpectedBufferBytes);
    check_integer(watchdog_cycles, limits::kWatchdogCycles);
    check_integer(max_cycles, limits::kMaxCycles);
    check_integer(static_cast<std::uint64_t>(host_threads), limits::kHostThreads);
    check_integer(fabric.startup_cycles, limits::kFabricStartupCycles);
    check_integer(fabric.bytes_per_cycle, limits::kFabricBytesPerCycle);
    check_integer(static_cast<std::uint64_t>(fabric.concurrent_transfers), limits::kConcurrentTransfers);
    check_integer(static_cast<std::uint64_t>(fabric.memory_banks), limits::kMemoryBanks);
  } catch (const ConfigError& e) {
    return std::string(e.what());
  }
  // Waveform names: the VCD writer appends ".vcd" to the name it is given, so the name is taken without
  // it; the FST writer is named likewise. Either needs a name before its extension.
  for (const auto& [field, path, extension, kind] :
       {std::tuple{"output.vcd", &vcd, ".vcd", "a VCD waveform"}, std::tuple{"output.trace_rtl", &trace_rtl, ".fst", "an FST waveform"}}) {
    if (path->empty()) continue;
    const std::string name = std::filesystem::path(*path).filename().string();
    const std::string ext = extension;
    if (name.size() < ext.size() || name.compare(name.size() - ext.size(), ext.size(), ext) != 0)
      return bad(field, *path, std::string(kind) + " file name must end in " + ext);
    if (name.size() == ext.size())
      return bad(field, *path, std::string(kind) + " file needs a name before " + ext + " (e.g. wave" + ext + ")");
  }
  if (trace_nodes.empty()) return bad("output.trace_nodes", "", "must list at least one node id");
  for (int n : trace_nodes)
    if (n < 0 || n >= topo->num_nodes())
      return bad("output.trace_nodes", std::to_string(n),
                 "not a node of " + topology + " (0.." + std::to_string(topo->num_nodes() - 1) + ")");
  const unsigned host_cores = std::thread::hardware_concurrency();  // 0: unknown
  if (host_cores > 0 && static_cast<unsigned>(host_threads) > host_cores)
    return bad("run.host_threads", std::to_string(host_threads),
               "at most " + std::to_string(host_cores) + ", the hardware threads of this host (more only wait for each other)");
  // Waveform probes read host records the simulation thread changes while workers step routers.
  if (host_threads > 1 && (!vcd.empty() || !trace_rtl.empty()))
    return bad("run.host_threads", std::to_string(host_threads), "a run that writes waveforms steps its routers on one thread (1)");
  return std::nullopt;
}

namespace {

// Reads one typed value, naming the field on a type mismatch.
template <class T>
T get(const nlohmann::json& json, const std::string& field, const char* type_name) {
  try {
    return json.get<T>();
  } catch (const nlohmann::json::exception&) {
    throw ConfigError(field, json.dump(), std::string("must be ") + type_name);
  }
}

}  // namespace

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
  check_config_keys(json, "", {"topology", "algorithm", "algorithm_options", "workload_options", "block_bytes", "router", "node",
                        "fabric", "run", "output"});
  // A whole number within its real rule (hw/config_limits.h).
  auto whole = [](const nlohmann::json& j, const IntegerLimit& limit) {
    if (!j.is_number_unsigned()) throw ConfigError(limit.field, j.dump(), "is not a whole number; " + limit.rule());
    const std::uint64_t v = j.get<std::uint64_t>();
    check_integer(v, limit);
    return v;
  };
  if (json.contains("topology")) topology = get<std::string>(json["topology"], "topology", "a string");
  if (json.contains("algorithm")) algorithm = get<std::string>(json["algorithm"], "algorithm", "a string");
  if (json.contains("algorithm_options")) {
    const auto& o = json["algorithm_options"];
    if (!o.is_object()) throw ConfigError("algorithm_options", o.dump(), "must be a JSON object of option: value");
    for (const auto& item : o.items())
      algorithm_options[item.key()] = item.value().is_string() ? item.value().get<std::string>() : item.value().dump();
  }
  if (json.contains("workload_options")) {
    const auto& o = json["workload_options"];
    if (!o.is_object()) throw ConfigError("workload_options", o.dump(), "must be a JSON object of option: value");
    for (const auto& item : o.items())
      workload_options[item.key()] = item.value().is_string() ? item.value().get<std::string>() : item.value().dump();
  }
  if (json.contains("block_bytes")) block_bytes = static_cast<std::uint32_t>(whole(json["block_bytes"], limits::kBlockBytes));
  if (json.contains("router")) {
    const auto& r = json["router"];
    check_config_keys(r, "router", {"vcs", "buffer_flits", "pipeline_depth", "link_latency_cycles", "credit_latency_cycles",
                             "credit_processing_cycles", "flit_bytes", "max_packet_payload_flits", "switching",
                             "dateline", "dateline_classes", "head_pipeline", "vc_allocator", "routing", "model",
                             "rtl_power_on_seed"});
    if (r.contains("model")) router.model = get<std::string>(r["model"], "router.model", "a string");
    if (r.contains("rtl_power_on_seed"))
      router.rtl_power_on_seed = static_cast<std::uint32_t>(whole(r["rtl_power_on_seed"], limits::kRtlPowerOnSeed));
    if (r.contains("vcs")) router.vcs = static_cast<int>(whole(r["vcs"], limits::kVcs));
    if (r.contains("buffer_flits")) router.buffer_flits = static_cast<int>(whole(r["buffer_flits"], limits::kBufferFlits));
    if (r.contains("pipeline_depth")) router.pipeline_depth = static_cast<int>(whole(r["pipeline_depth"], limits::kPipelineDepth));
    if (r.contains("link_latency_cycles"))
      router.link_latency_cycles = static_cast<int>(whole(r["link_latency_cycles"], limits::kLinkLatency));
    if (r.contains("credit_latency_cycles"))
      router.credit_latency_cycles = static_cast<int>(whole(r["credit_latency_cycles"], limits::kCreditLatency));
    if (r.contains("credit_processing_cycles"))
      router.credit_processing_cycles = static_cast<int>(whole(r["credit_processing_cycles"], limits::kCreditProcessing));
    if (r.contains("flit_bytes")) router.flit_bytes = static_cast<int>(whole(r["flit_bytes"], limits::kFlitBytes));
    if (r.contains("max_packet_payload_flits"))
      router.max_packet_payload_flits = static_cast<int>(whole(r["max_packet_payload_flits"], limits::kMaxPacketPayloadFlits));
    if (r.contains("switching"))
      router.switching = parse_switching(get<std::string>(r["switching"], "router.switching", "a string"), "router.switching");
    if (r.contains("dateline")) router.dateline = get<bool>(r["dateline"], "router.dateline", "true or false");
    for (auto [rule, value] : {std::pair{&kDatelineClasses, &router.dateline_whole_segment},
                               std::pair{&kHeadPipeline, &router.head_pipeline_from_front},
                               std::pair{&kVcAllocator, &router.islip_vc_allocator}}) {
      const std::string key = std::string(rule->field).substr(7);  // after "router."
      if (r.contains(key)) *value = rule->parse(get<std::string>(r[key], rule->field, "a string"));
    }
    if (r.contains("routing")) routing = get<std::string>(r["routing"], "router.routing", "a string");
  }
  if (json.contains("node")) {
    const auto& n = json["node"];
    check_config_keys(n, "node", {"port_model", "startup_cycles", "startup_on", "copy_cycles_per_byte", "barrier_latency_cycles",
                           "unexpected_buffer_bytes"});
    if (n.contains("startup_on"))
      processor.startup_on_channel =
          parse_startup_on(get<std::string>(n["startup_on"], "node.startup_on", "a string"), "node.startup_on");
    if (n.contains("unexpected_buffer_bytes"))
      unexpected_buffer_bytes = whole(n["unexpected_buffer_bytes"], limits::kUnexpectedBufferBytes);
    if (n.contains("port_model"))
      port_model = parse_port_model(get<std::string>(n["port_model"], "node.port_model", "a string"), "node.port_model");
    if (n.contains("startup_cycles")) processor.startup_cycles = whole(n["startup_cycles"], limits::kStartupCycles);
    if (n.contains("copy_cycles_per_byte"))
      processor.copy_cycles_per_byte = get<double>(n["copy_cycles_per_byte"], "node.copy_cycles_per_byte", "a number 0..1e6");
    if (n.contains("barrier_latency_cycles"))
      barrier_latency_cycles = whole(n["barrier_latency_cycles"], limits::kBarrierLatency);
  }
  if (json.contains("fabric")) {
    const auto& f = json["fabric"];
    check_config_keys(f, "fabric", {"startup_cycles", "bytes_per_cycle", "concurrent_transfers", "memory_banks"});
    if (f.contains("startup_cycles")) fabric.startup_cycles = whole(f["startup_cycles"], limits::kFabricStartupCycles);
    if (f.contains("bytes_per_cycle"))
      fabric.bytes_per_cycle = static_cast<std::uint32_t>(whole(f["bytes_per_cycle"], limits::kFabricBytesPerCycle));
    if (f.contains("concurrent_transfers"))
      fabric.concurrent_transfers = static_cast<int>(whole(f["concurrent_transfers"], limits::kConcurrentTransfers));
    if (f.contains("memory_banks")) fabric.memory_banks = static_cast<int>(whole(f["memory_banks"], limits::kMemoryBanks));
  }
  if (json.contains("run")) {
    const auto& r = json["run"];
    check_config_keys(r, "run", {"watchdog_cycles", "max_cycles", "host_threads"});
    if (r.contains("watchdog_cycles")) watchdog_cycles = whole(r["watchdog_cycles"], limits::kWatchdogCycles);
    if (r.contains("max_cycles")) max_cycles = whole(r["max_cycles"], limits::kMaxCycles);
    if (r.contains("host_threads")) host_threads = static_cast<int>(whole(r["host_threads"], limits::kHostThreads));
  }
  if (json.contains("output")) {
    const auto& o = json["output"];
    check_config_keys(o, "output", {"stats_json", "vcd", "trace_nodes", "detail_csv", "messages_csv", "trace_rtl"});
    if (o.contains("trace_rtl")) trace_rtl = get<std::string>(o["trace_rtl"], "output.trace_rtl", "a string");
    if (o.contains("detail_csv")) detail_csv = get<std::string>(o["detail_csv"], "output.detail_csv", "a string");
    if (o.contains("messages_csv"))
      messages_csv = get<std::string>(o["messages_csv"], "output.messages_csv", "a string");
    if (o.contains("stats_json")) stats_json = get<std::string>(o["stats_json"], "output.stats_json", "a string");
    if (o.contains("vcd")) vcd = get<std::string>(o["vcd"], "output.vcd", "a string");
    if (o.contains("trace_nodes")) {
      if (!o["trace_nodes"].is_array()) throw ConfigError("output.trace_nodes", o["trace_nodes"].dump(), "must be a list of node ids");
      trace_nodes.clear();
      for (const auto& v : o["trace_nodes"]) {
        if (!v.is_number_unsigned() || v.get<std::uint64_t>() >= static_cast<std::uint64_t>(Topology::kMaxNodes))
          throw ConfigError("output.trace_nodes", v.dump(),
                            "must be node ids (whole numbers 0.." + std::to_string(Topology::kMaxNodes - 1) + ")");
        const int node = v.get<int>();
        if (std::find(trace_nodes.begin(), trace_nodes.end(), node) == trace_nodes.end()) trace_nodes.push_back(node);
      }
      if (trace_nodes.empty())
        throw ConfigError("output.trace_nodes", o["trace_nodes"].dump(), "must list at least one node id");
    }
  }
}

nlohmann::json MachineConfig::to_json() const {
  return {
      {"topology", topology},
      {"algorithm", algorithm},
      {"algorithm_options", algorithm_options},
      {"workload_options", workload_options},
      {"block_bytes", block_bytes},
      {"router",
       {{"model", router.model},
        {"rtl_power_on_seed", router.rtl_power_on_seed},
        {"vcs", router.vcs},
        {"buffer_flits", router.buffer_flits},
        {"pipeline_depth", router.pipeline_depth},
        {"link_latency_cycles", router.link_latency_cycles},
        {"credit_latency_cycles", router.credit_latency_cycles},
        {"credit_processing_cycles", router.credit_processing_cycles},
        {"flit_bytes", router.flit_bytes},
        {"max_packet_payload_flits", router.max_packet_payload_flits},
        {"switching", to_string(router.switching)},
        {"dateline", router.dateline},
        {"dateline_classes", kDatelineClasses.name(router.dateline_whole_segment)},
        {"head_pipeline", kHeadPipeline.name(router.head_pipeline_from_front)},
        {"vc_allocator", kVcAllocator.name(router.islip_vc_allocator)},
        {"routing", routing}}},
      {"node",
       {{"port_model", to_string(port_model)},
        {"startup_cycles", processor.startup_cycles},
        {"startup_on", processor.startup_on_channel ? "channel" : "processor"},
        {"copy_cycles_per_byte", processor.copy_cycles_per_byte},
        {"barrier_latency_cycles", barrier_latency_cycles},
        {"unexpected_buffer_bytes", unexpected_buffer_bytes}}},
      {"fabric",
       {{"startup_cycles", fabric.startup_cycles},
        {"bytes_per_cycle", fabric.bytes_per_cycle},
        {"concurrent_transfers", fabric.concurrent_transfers},
        {"memory_banks", fabric.memory_banks}}},
      {"run", {{"watchdog_cycles", watchdog_cycles}, {"max_cycles", max_cycles}, {"host_threads", host_threads}}},
  };
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
  if (Topology::fabric_of(config.topology) != Fabric::None) {
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
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (std::filesystem::is_directory(status)) throw ConfigError("--config", path, "is a directory, not a JSON file");
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw ConfigError("--config", path, "is not a regular file (a device, FIFO or socket); a config must be a JSON file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError("--config", path, "the file cannot be opened");
  const std::string size_rule = "a config file must be at most " + std::to_string(kMaxConfigFileBytes) + " bytes (" +
                                std::to_string(kMaxConfigFileBytes >> 20) + " MiB)";
  std::string text(kMaxConfigFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxConfigFileBytes) throw ConfigError("--config", path, size_rule);
  if (in.bad()) throw ConfigError("--config", path, "the file cannot be read");
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
