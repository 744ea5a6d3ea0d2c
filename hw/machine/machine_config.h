// Everything that describes one run of the machine: topology, router, node and run parameters, the
// algorithm and its block size, outputs. Plain data with defaults (the built-in default configuration),
// validate(), and reading from a JSON config file with errors that name the field.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "firmware/api/exchange_parameters.h"
#include "hw/fabric/fabric.h"
#include "hw/network/interconnect.h"
#include "hw/node/processor.h"
#include "hw/router/router_params.h"

namespace meshmp {

struct MachineConfig {
  std::string topology = "torus:8x8";
  std::string algorithm = "direct";
  std::map<std::string, std::string> algorithm_options;  // as given; checked against the algorithm's declarations
  std::map<std::string, std::string> workload_options;   // as given; checked against its workload's declarations
  std::uint32_t block_bytes = 64;
  RouterParams router;
  std::string routing = "dimension-order";
  PortModel port_model = PortModel::OnePort;
  // The level the router network is modelled at (hw/network/interconnect.h): cycle, tlm, or both (meshmp run
  // runs one machine at each and compares them).
  NetworkFidelity fidelity = NetworkFidelity::Cycle;
  // The router network's power and area model (hw/power): its technology file (empty: the built-in 32 nm
  // technology of hw/power/technology.h) and a flit's width in bits (0: the link's, 8 x router.flit_bytes).
  std::string technology_file;
  int channel_width_bits = 0;
  int priced_channel_width_bits() const { return channel_width_bits > 0 ? channel_width_bits : 8 * router.flit_bytes; }
  // A mesh's edge ports lead nowhere: priced as absent (false), or as idle channels (true), as BookSim2's
  // mesh builds them (--router-rules booksim2).
  bool price_edge_channels = false;
  // The clock a cycle lasts 1 / clock_ghz ns at, for energy's leakage and idle terms, average power and the
  // energy-delay product (statistics.energy); 0: the technology's own clock, 1 / (20 FO4).
  double clock_ghz = 0;
  ProcessorParams processor;
  FabricParams fabric;
  // The network interface's buffer for messages that arrive before their receive is posted.
  std::uint64_t unexpected_buffer_bytes = 1 << 20;
  std::uint64_t barrier_latency_cycles = 10;
  std::uint64_t watchdog_cycles = 20000;
  std::uint64_t max_cycles = 200000000;
  // Host threads stepping the routers (hw/network/router_step_pool.h): simulation speed only, never the result.
  int host_threads = 1;
  // Faults to inject, each a SPEC of hw/machine/fault_spec.h ("memory:15:31", "flip:0-1:100:3").
  std::vector<std::string> inject_faults;
  std::string stats_json = "meshmp-stats.json";  // where to write statistics; empty = nowhere
  std::string vcd;                   // waveform file; empty = no tracing
  std::string trace_rtl;             // FST waveform of the traced RTL routers' internals; empty = none
  std::string detail_csv;            // per-node, per-step rows (CSV); empty = none
  std::string messages_csv;          // one row per received message (CSV); empty = none
  std::string packet_trace;          // the packets offered to the network (hw/network/packet_trace.h); empty = none
  std::vector<int> trace_nodes{0};   // routers and DMA engines shown in the waveforms

  // Empty when valid; otherwise the first broken rule (field, value, rule). Checks the topology, router
  // and node parameters; the algorithm checks its own requirements.
  std::optional<std::string> validate() const;
  // The same for a topology already parsed from `topology`.
  std::optional<std::string> validate(const Topology& topo) const;

  // Overlays the keys present in `json` (a parsed config file). Throws ConfigError naming the key.
  void apply_json(const nlohmann::json& json);
  nlohmann::json to_json() const;
};

// node.startup_on: "processor" -> false, "channel" -> true; ConfigError(field, ...) otherwise.
bool parse_startup_on(const std::string& text, const std::string& field);

// What firmware sees of a configuration: the block size and the cost-model parameters.
ExchangeParameters exchange_parameters(const MachineConfig& config);

// The largest config file read, and its deepest nesting of objects and arrays.
inline constexpr std::size_t kMaxConfigFileBytes = std::size_t{16} << 20;
inline constexpr int kMaxConfigDepth = 32;
// Reads and applies a JSON config file: a regular file of at most kMaxConfigFileBytes, nested at most
// kMaxConfigDepth deep, no key twice in an object. Throws ConfigError naming the file and what is wrong.
void load_config_file(MachineConfig& config, const std::string& path);
// The same file read and parsed, not applied (a command with a section of its own: traffic).
nlohmann::json read_config_file(const std::string& path);
// ConfigError naming section.key for a key of `json` not in `known` (and for a `json` not an object).
void check_config_keys(const nlohmann::json& json, const std::string& section, const std::set<std::string>& known);

// output.trace_nodes as typed: node ids 0..Topology::kMaxNodes - 1 separated by commas, at least one;
// a node listed twice is traced once. Throws ConfigError(field, text, rule).
std::vector<int> parse_trace_nodes(const std::string& text, const std::string& field = "output.trace_nodes");

}  // namespace meshmp
