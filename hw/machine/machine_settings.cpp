// The table of a run's settings. See machine_settings.h.
#include "hw/machine/machine_settings.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <type_traits>

#include "hw/machine/fault_spec.h"
#include "topology/config_error.h"
#include "topology/topology.h"
#include "hw/base/config_limits.h"

namespace meshmp {

namespace {

// Reads one typed value of a config file, naming the key on a type mismatch.
template <class T>
T json_as(const nlohmann::json& json, const std::string& key, const char* type_name) {
  try {
    return json.get<T>();
  } catch (const nlohmann::json::exception&) {
    throw ConfigError(key, json.dump(), std::string("must be ") + type_name);
  }
}

// A whole number within its IntegerLimit, whose field is the key. `Field` reaches the value from a
// MachineConfig, const or not: [](auto& c) -> auto& { return c.router.vcs; }.
template <class Field>
MachineSetting whole(const IntegerLimit& limit, std::string flags, std::string help, bool network, Field field) {
  using Value = std::remove_reference_t<decltype(field(std::declval<MachineConfig&>()))>;
  MachineSetting s;
  s.key = limit.field;
  s.flags = std::move(flags);
  s.help = std::move(help);
  s.rule = std::to_string(limit.min) + ".." + std::to_string(limit.max);
  s.kind = SettingKind::WholeNumber;
  s.network = network;
  s.get = [field](const MachineConfig& c) { return nlohmann::json(field(c)); };
  s.read_json = [field, &limit](MachineConfig& c, const nlohmann::json& j) {
    // A parsed file holds a positive number as unsigned; a json built in code (to_json) as signed.
    if (!j.is_number_integer()) throw ConfigError(limit.field, j.dump(), "is not a whole number; " + limit.rule());
    if (!j.is_number_unsigned() && j.get<std::int64_t>() < 0) throw ConfigError(limit.field, j.dump(), limit.rule());
    const std::uint64_t value = j.get<std::uint64_t>();
    check_integer(value, limit);
    field(c) = static_cast<Value>(value);
  };
  s.read_text = [field, &limit](MachineConfig& c, const std::string& text) {
    field(c) = static_cast<Value>(parse_integer(text, limit));
  };
  s.check = [field, &limit](const MachineConfig& c) {
    const auto value = field(c);
    if constexpr (std::is_signed_v<Value>)
      if (value < 0) throw ConfigError(limit.field, std::to_string(value), limit.rule());
    check_integer(static_cast<std::uint64_t>(value), limit);
  };
  return s;
}

// A string setting; `parse` turns the text into the field's value (throwing ConfigError naming the key),
// `show` the value back into its name.
template <class Field, class Parse, class Show>
MachineSetting text(std::string key, std::string flags, std::string help, bool network, Field field, Parse parse,
                    Show show, SettingKind kind = SettingKind::Choice) {
  MachineSetting s;
  s.key = std::move(key);
  s.flags = std::move(flags);
  s.help = std::move(help);
  s.kind = kind;
  s.network = network;
  s.get = [field, show](const MachineConfig& c) { return nlohmann::json(show(field(c))); };
  s.read_text = [field, parse](MachineConfig& c, const std::string& value) { field(c) = parse(value); };
  s.read_json = [read_text = s.read_text, key = s.key](MachineConfig& c, const nlohmann::json& j) {
    read_text(c, json_as<std::string>(j, key, "a string"));
  };
  return s;
}

// A free-form string (topology, algorithm, a file name): its rule is checked where it is used.
template <class Field>
MachineSetting plain_text(std::string key, std::string flags, std::string help, bool network, Field field) {
  const auto same = [](const std::string& v) { return v; };
  return text(std::move(key), std::move(flags), std::move(help), network, field, same, same, SettingKind::Text);
}

// A router rule with two named settings (hw/router/router_params.h).
template <class Field>
MachineSetting router_rule(const RouterRuleChoice& rule, std::string flags, std::string help, Field field) {
  return text(
      rule.field, std::move(flags), std::move(help), true, field, [&rule](const std::string& v) { return rule.parse(v); },
      [&rule](bool on) { return std::string(rule.name(on)); });
}

// An output file: written where the run puts it, never recorded in its results.
template <class Field>
MachineSetting output_path(std::string key, std::string flags, std::string help, Field field) {
  MachineSetting s = plain_text(std::move(key), std::move(flags), std::move(help), false, field);
  s.recorded = false;
  return s;
}

// KEY=VALUE options of the algorithm or its workload, checked against their declarations by the
// algorithm; a config file gives them as an object whose values may be strings or numbers.
template <class Field>
MachineSetting option_map(std::string key, std::string flags, std::string help, Field field) {
  MachineSetting s;
  s.key = key;
  s.flags = std::move(flags);
  s.help = std::move(help);
  s.kind = SettingKind::OptionMap;
  s.get = [field](const MachineConfig& c) { return nlohmann::json(field(c)); };
  s.read_json = [field, key](MachineConfig& c, const nlohmann::json& j) {
    if (!j.is_object()) throw ConfigError(key, j.dump(), "must be a JSON object of option: value");
    for (const auto& item : j.items())
      field(c)[item.key()] = item.value().is_string() ? item.value().get<std::string>() : item.value().dump();
  };
  s.read_text = [field, flag = s.flags](MachineConfig& c, const std::string& option) {
    const auto equals = option.find('=');
    if (equals == std::string::npos || equals == 0) throw ConfigError(flag, option, "expected KEY=VALUE");
    field(c)[option.substr(0, equals)] = option.substr(equals + 1);
  };
  return s;
}

std::vector<MachineSetting> declare_settings() {
  std::vector<MachineSetting> s;
  // The network: topology, routers, links, routing (meshmp traffic takes these too).
  s.push_back(plain_text("topology", "-t,--topology",
                         "mesh:RxC[x...], torus:AxB[x...], ring:N, hypercube:N, ghc:AxB[x...], product:path4xring6xcomplete3, "
                         "or one of 004's shared-resource machines bus:K, shared-memory:K, omega:K",
                         true, [](auto& c) -> auto& { return c.topology; }));
  s.push_back(plain_text("router.model", "--router,--router-model",
                         "router model: cpp (the cycle-level SystemC router), rtl (the verilated RTL router of rtl/), dual "
                         "(both in lockstep, stopping at the first cycle they differ), or one a library registered",
                         true, [](auto& c) -> auto& { return c.router.model; }));
  s.push_back(whole(limits::kRtlPowerOnSeed, "--rtl-power-on-seed",
                    "the RTL routers' registers and memories power up at random values drawn from this seed instead of 0, "
                    "before the reset (router model rtl or dual)",
                    true, [](auto& c) -> auto& { return c.router.rtl_power_on_seed; }));
  s.push_back(whole(limits::kVcs, "--vcs", "virtual channels per input port", true, [](auto& c) -> auto& { return c.router.vcs; }));
  s.push_back(whole(limits::kBufferFlits, "--buffer-flits", "buffer depth per virtual channel, in flits", true,
                    [](auto& c) -> auto& { return c.router.buffer_flits; }));
  s.push_back(whole(limits::kPipelineDepth, "--pipeline-depth",
                    "cycles a flit spends in an idle router (4 = route, VC allocation, switch allocation, traversal)", true,
                    [](auto& c) -> auto& { return c.router.pipeline_depth; }));
  s.push_back(whole(limits::kLinkLatency, "--link-latency", "link latency in cycles", true,
                    [](auto& c) -> auto& { return c.router.link_latency_cycles; }));
  s.push_back(whole(limits::kCreditLatency, "--credit-latency",
                    "cycles a credit spends on its wire back upstream (0: the link latency)", true,
                    [](auto& c) -> auto& { return c.router.credit_latency_cycles; }));
  s.push_back(whole(limits::kCreditProcessing, "--credit-processing-cycles",
                    "cycles the upstream output unit takes to register an arrived credit before its allocators count the "
                    "freed slot (1: as BookSim2's input-queued router)",
                    true, [](auto& c) -> auto& { return c.router.credit_processing_cycles; }));
  s.push_back(whole(limits::kFlitBytes, "--flit-bytes", "link width in bytes per flit", true,
                    [](auto& c) -> auto& { return c.router.flit_bytes; }));
  s.push_back(whole(limits::kMaxPacketPayloadFlits, "--packet-flits", "maximum payload flits per packet", true,
                    [](auto& c) -> auto& { return c.router.max_packet_payload_flits; }));
  s.push_back(text(
      "router.switching", "--switching", "wormhole, cut-through (or vct) or store-and-forward (or saf)", true,
      [](auto& c) -> auto& { return c.router.switching; },
      [](const std::string& v) { return parse_switching(v, "router.switching"); },
      [](SwitchingMode mode) { return to_string(mode); }));
  {
    MachineSetting dateline;
    dateline.key = "router.dateline";
    dateline.flags = "--no-dateline";
    dateline.help = "do not split virtual channels into dateline classes on rings (a torus can then deadlock)";
    dateline.kind = SettingKind::OffSwitch;
    dateline.network = true;
    dateline.get = [](const MachineConfig& c) { return nlohmann::json(c.router.dateline); };
    dateline.read_json = [](MachineConfig& c, const nlohmann::json& j) {
      c.router.dateline = json_as<bool>(j, "router.dateline", "true or false");
    };
    dateline.read_text = [](MachineConfig& c, const std::string&) { c.router.dateline = false; };
    s.push_back(std::move(dateline));
  }
  s.push_back(router_rule(kDatelineClasses, "--dateline-classes",
                          "which VC class a packet takes on a ring: from-wrap-link (class 0, then class 1 from the "
                          "wrap-around link on) or whole-segment (class 1 for the whole stretch of a ring that crosses the "
                          "wrap-around link, as BookSim2's torus routing; SystemC router)",
                          [](auto& c) -> auto& { return c.router.dateline_whole_segment; }));
  s.push_back(router_rule(kHeadPipeline, "--head-pipeline",
                          "when a head queued behind another packet in its input VC starts its pipeline: from-write (its "
                          "buffer write, as if routed while it waited) or from-front (once the packet ahead has left: one "
                          "packet's state per input VC, as BookSim2's router; SystemC router)",
                          [](auto& c) -> auto& { return c.router.head_pipeline_from_front; }));
  s.push_back(router_rule(kVcAllocator, "--vc-allocator",
                          "the VC allocator: per-port (each output port serves every request it can, each head the lowest "
                          "free VC with a credit) or islip (BookSim2's separable iSLIP allocator, one iteration, credits not "
                          "checked; SystemC router)",
                          [](auto& c) -> auto& { return c.router.islip_vc_allocator; }));
  s.push_back(plain_text("router.routing", "--routing", "routing function (see `meshmp list`)", true,
                         [](auto& c) -> auto& { return c.routing; }));
  const auto off_switch = [&](const char* key, const char* flag, const char* help, bool RouterParams::*member) {
    MachineSetting setting;
    setting.key = key;
    setting.flags = flag;
    setting.help = help;
    setting.kind = SettingKind::OffSwitch;
    setting.network = true;
    setting.get = [member](const MachineConfig& c) { return nlohmann::json(c.router.*member); };
    setting.read_json = [key, member](MachineConfig& c, const nlohmann::json& j) {
      c.router.*member = json_as<bool>(j, key, "true or false");
    };
    setting.read_text = [member](MachineConfig& c, const std::string&) { c.router.*member = false; };
    s.push_back(std::move(setting));
  };
  off_switch("router.escape_channels", "--no-escape-channels",
             "min-adaptive: no escape channels, the adaptive outputs on every VC (can deadlock: for the study of deadlock)",
             &RouterParams::escape_channels);
  off_switch("router.phase_classes", "--no-phase-classes",
             "valiant, romm: both phases on every VC, not a VC class each (can deadlock: for the study of deadlock)",
             &RouterParams::phase_classes);
  s.push_back(text(
      "router.selection", "--selection",
      "how a head picks among an adaptive routing function's outputs: first, random or most-credits (the "
      "function's first by default; refused beside a deterministic function)",
      true, [](auto& c) -> auto& { return c.router.selection; },
      [](const std::string& v) { return parse_route_selection(v, "router.selection"); },
      [](RouteSelection selection) { return to_string(selection); }));
  s.push_back(text(
      "node.port_model", "--port-model", "one-port or all-port: the channels a node injects and ejects on at once", true,
      [](auto& c) -> auto& { return c.port_model; },
      [](const std::string& v) { return parse_port_model(v, "node.port_model"); },
      [](PortModel model) { return to_string(model); }));
  s.push_back(text(
      "network.fidelity", "--fidelity",
      "the level the router network is modelled at: cycle (routers stepped cycle by cycle), tlm (a message as one TLM-2.0 "
      "transaction along the same route and timing; exact when no two packets want one link at once, docs/fidelity.md) "
      "or both (meshmp run: one run at each, their completions and the error)",
      true, [](auto& c) -> auto& { return c.fidelity; },
      [](const std::string& v) { return parse_network_fidelity(v, "network.fidelity"); },
      [](NetworkFidelity fidelity) { return to_string(fidelity); }));
  s.push_back(plain_text("power.technology_file", "--technology-file",
                         "the power and area model's technology file (BookSim2's techfile format, docs/energy.md); empty: the "
                         "built-in 32 nm technology",
                         true, [](auto& c) -> auto& { return c.technology_file; }));
  s.push_back(whole(limits::kChannelWidthBits, "--channel-width",
                    "a flit's width in bits, which the power and area model prices every wire, buffer and crossbar at; 0 (the "
                    "default): the link's width, 8 x --flit-bytes",
                    true,
                    [](auto& c) -> auto& { return c.channel_width_bits; }));
  s.push_back(text(
      "power.edge_channels", "--edge-channels",
      "a mesh's edge ports, which lead nowhere: absent (no channel priced) or idle (an idle channel priced at each, as "
      "BookSim2's mesh builds them; --router-rules booksim2)",
      true, [](auto& c) -> auto& { return c.price_edge_channels; },
      [](const std::string& v) {
        if (v != "absent" && v != "idle")
          throw ConfigError("power.edge_channels", v, "must be absent (no channel at a mesh's edge port) or idle");
        return v == "idle";
      },
      [](bool idle) { return idle ? "idle" : "absent"; }));
  {
    const auto valid = [](double ghz) { return std::isfinite(ghz) && ghz >= 0 && ghz <= 1000; };
    const std::string rule = "a number of GHz 0..1000 (0: the technology's clock, 1 / (20 FO4))";
    MachineSetting clock;
    clock.key = "power.clock_ghz";
    clock.flags = "--clock-ghz";
    clock.help = "the clock a cycle lasts at, for the energy's leakage, average power and energy-delay product; 0 (the "
                 "default): the technology's clock, 1 / (20 FO4)";
    clock.rule = rule;
    clock.kind = SettingKind::Number;
    clock.get = [](const MachineConfig& c) { return nlohmann::json(c.clock_ghz); };
    clock.read_text = [valid, rule](MachineConfig& c, const std::string& v) {
      char* end = nullptr;
      const double ghz = std::strtod(v.c_str(), &end);
      if (v.empty() || end != v.c_str() + v.size() || !valid(ghz)) throw ConfigError("power.clock_ghz", v, "must be " + rule);
      c.clock_ghz = ghz;
    };
    clock.read_json = [valid, rule](MachineConfig& c, const nlohmann::json& j) {
      const double ghz = json_as<double>(j, "power.clock_ghz", rule.c_str());
      if (!valid(ghz)) throw ConfigError("power.clock_ghz", j.dump(), "must be " + rule);
      c.clock_ghz = ghz;
    };
    clock.check = [valid, rule](const MachineConfig& c) {
      if (!valid(c.clock_ghz)) throw ConfigError("power.clock_ghz", std::to_string(c.clock_ghz), "must be " + rule);
    };
    s.push_back(std::move(clock));
  }
  s.push_back(whole(limits::kWatchdogCycles, "--watchdog-cycles", "deadlock watchdog: cycles without any flit or credit moving",
                    true, [](auto& c) -> auto& { return c.watchdog_cycles; }));
  s.push_back(whole(limits::kHostThreads, "--host-threads",
                    "host threads stepping the routers in parallel, at most this host's hardware threads (speed only: the "
                    "simulated machine and every statistic are the same; waveform runs use 1)",
                    true, [](auto& c) -> auto& { return c.host_threads; }));

  // The exchange: the algorithm, its data and the nodes that run it.
  s.push_back(plain_text("algorithm", "-a,--algorithm", "exchange algorithm (see `meshmp list`)", false,
                         [](auto& c) -> auto& { return c.algorithm; }));
  s.push_back(whole(limits::kBlockBytes, "-m,--block-bytes", "bytes per block m", false,
                    [](auto& c) -> auto& { return c.block_bytes; }));
  s.push_back(option_map("algorithm_options", "--algorithm-option",
                         "KEY=VALUE: an option of the algorithm (see `meshmp list`); repeatable",
                         [](auto& c) -> auto& { return c.algorithm_options; }));
  s.push_back(option_map("workload_options", "--workload-option",
                         "KEY=VALUE: an option of the algorithm's workload, e.g. rows=64 for a transpose (see `meshmp list`); "
                         "repeatable",
                         [](auto& c) -> auto& { return c.workload_options; }));
  s.push_back(whole(limits::kStartupCycles, "--startup-cycles", "start-up cost t_s per message, in cycles", false,
                    [](auto& c) -> auto& { return c.processor.startup_cycles; }));
  s.push_back(text(
      "node.startup_on", "--startup-on",
      "who pays t_s: processor (before each send descriptor, one at a time) or channel (each injection channel before "
      "the message's first flit: all-port nodes start up on every channel at once)",
      false, [](auto& c) -> auto& { return c.processor.startup_on_channel; },
      [](const std::string& v) { return parse_startup_on(v, "node.startup_on"); },
      [](bool channel) { return std::string(channel ? "channel" : "processor"); }));
  {
    MachineSetting rho;
    rho.key = "node.copy_cycles_per_byte";
    rho.flags = "--copy-cycles-per-byte";
    rho.help = "local copy cost rho, cycles per byte";
    rho.rule = "a number 0..1e6";
    rho.kind = SettingKind::Number;
    rho.get = [](const MachineConfig& c) { return nlohmann::json(c.processor.copy_cycles_per_byte); };
    rho.read_text = [](MachineConfig& c, const std::string& v) {
      c.processor.copy_cycles_per_byte = parse_copy_cycles_per_byte(v);
    };
    rho.read_json = [](MachineConfig& c, const nlohmann::json& j) {
      const double value = json_as<double>(j, "node.copy_cycles_per_byte", "a number 0..1e6");
      if (!copy_cycles_per_byte_valid(value))
        throw ConfigError("node.copy_cycles_per_byte", j.dump(), "must be a number 0..1e6 (cycles per byte)");
      c.processor.copy_cycles_per_byte = value;
    };
    rho.check = [](const MachineConfig& c) {
      if (!copy_cycles_per_byte_valid(c.processor.copy_cycles_per_byte))
        throw ConfigError("node.copy_cycles_per_byte", std::to_string(c.processor.copy_cycles_per_byte),
                          "must be a number 0..1e6 (cycles per byte)");
    };
    s.push_back(std::move(rho));
  }
  s.push_back(whole(limits::kUnexpectedBufferBytes, "--unexpected-buffer-bytes",
                    "network interface buffer for messages that arrive before their receive is posted; when full, they "
                    "wait in the network",
                    false, [](auto& c) -> auto& { return c.unexpected_buffer_bytes; }));
  s.push_back(whole(limits::kBarrierLatency, "--barrier-latency", "hardware barrier latency in cycles", false,
                    [](auto& c) -> auto& { return c.barrier_latency_cycles; }));
  s.push_back(whole(limits::kFabricStartupCycles, "--fabric-startup-cycles",
                    "004's tau of the bus, shared memory or switch (topology bus:K, shared-memory:K, omega:K): a "
                    "transfer's start-up, in cycles",
                    false, [](auto& c) -> auto& { return c.fabric.startup_cycles; }));
  s.push_back(whole(limits::kFabricBytesPerCycle, "--fabric-bytes-per-cycle",
                    "004's b: bytes per cycle of a node's channel to the bus, memory or switch", false,
                    [](auto& c) -> auto& { return c.fabric.bytes_per_cycle; }));
  s.push_back(whole(limits::kConcurrentTransfers, "--concurrent-transfers",
                    "004's k*: transfers the bus, or accesses the shared memory, serves at once", false,
                    [](auto& c) -> auto& { return c.fabric.concurrent_transfers; }));
  s.push_back(whole(limits::kMemoryBanks, "--memory-banks", "the shared memory's word-interleaved banks; 0 for one per node",
                    false, [](auto& c) -> auto& { return c.fabric.memory_banks; }));
  s.push_back(whole(limits::kMaxCycles, "--max-cycles", "end the run after this many cycles", false,
                    [](auto& c) -> auto& { return c.max_cycles; }));
  {
    MachineSetting faults;
    faults.key = "run.inject_faults";
    faults.flags = "--inject-fault";
    faults.help = "SPEC: a fault to inject, to see what the run makes of it (repeatable): memory:NODE:ADDRESS[:BIT] "
                  "flips a bit of a node's memory before the verifier; flip:FROM-TO:CYCLE[:BIT], drop:FROM-TO:CYCLE "
                  "and credit:FROM-TO:CYCLE flip a bit of, or drop, the first payload flit on the link FROM->TO from "
                  "CYCLE on, or withhold its first credit (cycle-level router network)";
    faults.kind = SettingKind::TextList;
    faults.get = [](const MachineConfig& c) { return nlohmann::json(c.inject_faults); };
    faults.read_text = [](MachineConfig& c, const std::string& v) {
      parse_fault_spec(v);
      c.inject_faults.push_back(v);
    };
    faults.read_json = [](MachineConfig& c, const nlohmann::json& j) {
      if (!j.is_array()) throw ConfigError("run.inject_faults", j.dump(), "must be a list of fault specs");
      std::vector<std::string> list;
      for (const auto& v : j) {
        if (!v.is_string()) throw ConfigError("run.inject_faults", v.dump(), kFaultSpecRule);
        parse_fault_spec(v.get<std::string>());
        list.push_back(v.get<std::string>());
      }
      c.inject_faults = std::move(list);
    };
    faults.check = [](const MachineConfig& c) {
      for (const std::string& v : c.inject_faults) parse_fault_spec(v);
    };
    s.push_back(std::move(faults));
  }

  // Outputs.
  s.push_back(output_path("output.stats_json", "-o,--stats-json",
                          "write statistics (and the config) as JSON to this file; - for standard output (the summary "
                          "then goes to standard error), \"\" for none",
                          [](auto& c) -> auto& { return c.stats_json; }));
  s.push_back(output_path("output.detail_csv", "--detail-csv",
                          "write one row per node per step (messages, bytes, begin cycle, zero-load cost) to this CSV file",
                          [](auto& c) -> auto& { return c.detail_csv; }));
  s.push_back(output_path("output.messages_csv", "--messages-csv",
                          "write one row per received message (source, destination, bytes, latency, header blocking) to "
                          "this CSV file",
                          [](auto& c) -> auto& { return c.messages_csv; }));
  s.push_back(output_path("output.packet_trace", "--record-trace",
                          "write every packet offered to the network (cycle source destination flits, one a line) to "
                          "this file, which meshmp traffic --trace replays (cycle-level network)",
                          [](auto& c) -> auto& { return c.packet_trace; }));
  s.push_back(output_path("output.vcd", "--vcd", "write a VCD waveform of the traced routers and DMA engines to this file",
                          [](auto& c) -> auto& { return c.vcd; }));
  s.push_back(output_path("output.trace_rtl", "--trace-rtl",
                          "write an FST waveform of the traced RTL routers' internals (FIFO occupancy, VC states, "
                          "allocator decisions, credits) to this file (router model rtl or dual)",
                          [](auto& c) -> auto& { return c.trace_rtl; }));
  {
    MachineSetting nodes;
    nodes.key = "output.trace_nodes";
    nodes.flags = "--trace-nodes";
    nodes.help = "nodes whose router and DMA engine the waveform shows: node ids separated by commas, e.g. 0,9";
    nodes.kind = SettingKind::NodeList;
    nodes.recorded = false;
    nodes.get = [](const MachineConfig& c) { return nlohmann::json(c.trace_nodes); };
    nodes.read_text = [](MachineConfig& c, const std::string& v) { c.trace_nodes = parse_trace_nodes(v); };
    nodes.read_json = [](MachineConfig& c, const nlohmann::json& j) {
      if (!j.is_array()) throw ConfigError("output.trace_nodes", j.dump(), "must be a list of node ids");
      std::vector<int> list;
      for (const auto& v : j) {
        if (!v.is_number_integer() || v.get<std::int64_t>() < 0 ||
            v.get<std::uint64_t>() >= static_cast<std::uint64_t>(Topology::kMaxNodes))
          throw ConfigError("output.trace_nodes", v.dump(),
                            "must be node ids (whole numbers 0.." + std::to_string(Topology::kMaxNodes - 1) + ")");
        const int node = v.get<int>();
        if (std::find(list.begin(), list.end(), node) == list.end()) list.push_back(node);
      }
      if (list.empty()) throw ConfigError("output.trace_nodes", j.dump(), "must list at least one node id");
      c.trace_nodes = std::move(list);
    };
    s.push_back(std::move(nodes));
  }
  return s;
}

}  // namespace

std::string MachineSetting::section() const {
  const auto dot = key.find('.');
  return dot == std::string::npos ? "" : key.substr(0, dot);
}

std::string MachineSetting::name() const {
  const auto dot = key.find('.');
  return dot == std::string::npos ? key : key.substr(dot + 1);
}

std::string MachineSetting::option_help() const {
  if (kind == SettingKind::OffSwitch || kind == SettingKind::OptionMap || kind == SettingKind::TextList) return help;
  static const MachineConfig defaults;
  const nlohmann::json value = get(defaults);
  std::string shown;
  if (value.is_string()) shown = value.get<std::string>();
  else if (value.is_array())
    for (const auto& item : value) shown += (shown.empty() ? "" : ",") + item.dump();
  else shown = value.dump();
  std::string text = help + "  [";
  if (!rule.empty()) text += rule + ", ";
  return text + "default " + (shown.empty() ? "none" : shown) + "]";
}

const std::vector<MachineSetting>& machine_settings() {
  static const std::vector<MachineSetting> settings = declare_settings();
  return settings;
}

const MachineSetting* find_machine_setting(const std::string& key) {
  for (const MachineSetting& s : machine_settings())
    if (s.key == key) return &s;
  return nullptr;
}

std::string config_file_help() {
  // Top-level keys first, then each section with its keys, in the table's order.
  std::vector<std::string> sections;
  std::string top;
  for (const MachineSetting& s : machine_settings()) {
    if (s.section().empty()) top += (top.empty() ? "" : ", ") + s.key + (s.kind == SettingKind::OptionMap ? " {name: value}" : "");
    else if (std::find(sections.begin(), sections.end(), s.section()) == sections.end()) sections.push_back(s.section());
  }
  std::string text = "JSON with the keys " + top + " and the sections";
  for (const std::string& section : sections) {
    std::string keys;
    for (const MachineSetting& s : machine_settings())
      if (s.section() == section) keys += (keys.empty() ? "" : ", ") + s.name();
    text += "\n  " + section + " {" + keys + "}";
  }
  return text;
}

}  // namespace meshmp
