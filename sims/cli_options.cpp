// The `meshmp run` options. See cli_options.h.
#include "sims/cli_options.h"

#include "topology/config_error.h"
#include "hw/config_limits.h"
#include "sims/data_files.h"
#include "topology/topology.h"

#include <type_traits>

namespace meshmp {

void RunOptions::add_to(CLI::App& c) {
  c.add_option("-c,--config", config_file_, "JSON config file (keys as printed in the stats' \"config\"); "
                                            "options given on the command line override it");
  c.add_flag("--print-config", print_config_,
             "print the configuration (the defaults, the --config file, then the options given) as a config file "
             "that reproduces this run, and exit without running");
  c.add_flag("-q,--quiet", quiet_, "print no summary (errors and failure reports still go to standard error)");
  add_network_options_to(c);
  c.add_option("-a,--algorithm", algorithm_, "exchange algorithm (see `meshmp list`)  [default direct]");
  c.add_option("-m,--block-bytes", block_bytes_, "bytes per block m  [default 64]");
  c.add_option("--algorithm-option", algorithm_options_,
               "KEY=VALUE: an option of the algorithm (see `meshmp list`); repeatable");
  c.add_option("--workload-option", workload_options_,
               "KEY=VALUE: an option of the algorithm's workload, e.g. rows=64 for a transpose (see `meshmp list`); "
               "repeatable");
  add_node_options_to(c);
}

void RunOptions::add_network_options_to(CLI::App& c, bool with_packet_limit) {
  c.add_option("-t,--topology", topology_,
               "mesh:RxC[x...], torus:AxB[x...], ring:N, hypercube:N, ghc:AxB[x...], or "
               "product:path4xring6xcomplete3  [default torus:8x8]");
  c.add_option("--router,--router-model", router_model_, "router model: cpp (the cycle-level SystemC router), rtl (the verilated RTL router of rtl/), dual (both in lockstep, stopping at the first cycle they differ)  [default cpp]");
  c.add_option("--rtl-power-on-seed", rtl_power_on_seed_, "the RTL routers' registers and memories power up at random values drawn from this seed (1..2147483647) instead of 0, before the reset (router model rtl or dual)  [default 0]");
  c.add_option("--vcs", vcs_, "virtual channels per input port  [default 4]");
  c.add_option("--buffer-flits", buffer_flits_, "buffer depth per virtual channel  [default 8]");
  c.add_option("--pipeline-depth", pipeline_depth_, "cycles a flit spends in an idle router, 1..5 (4 = route, VC allocation, switch allocation, traversal)  [default 2]");
  c.add_option("--link-latency", link_latency_, "link latency in cycles  [default 1]");
  c.add_option("--credit-latency", credit_latency_, "cycles a credit spends on its wire back upstream, 0..64 (0: the link latency)  [default 0]");
  c.add_option("--credit-processing-cycles", credit_processing_, "cycles the upstream output unit takes to register an arrived credit before its allocators count the freed slot, 0..8 (1: as BookSim2's input-queued router)  [default 1]");
  c.add_option("--flit-bytes", flit_bytes_, "link width in bytes per flit, 1..32  [default 8]");
  if (with_packet_limit)
    c.add_option("--packet-flits", packet_flits_, "maximum payload flits per packet  [default 16]");
  c.add_option("--switching", switching_, "wormhole, cut-through or store-and-forward  [default wormhole]");
  c.add_flag("--no-dateline", no_dateline_, "do not split virtual channels into dateline classes on rings "
                                            "(a torus can then deadlock)");
  c.add_option("--dateline-classes", dateline_classes_, "which VC class a packet takes on a ring: from-wrap-link (class 0, then class 1 from the wrap-around link on) or whole-segment (class 1 for the whole stretch of a ring that crosses the wrap-around link, as BookSim2's torus routing; SystemC router)  [default from-wrap-link]");
  c.add_option("--head-pipeline", head_pipeline_, "when a head queued behind another packet in its input VC starts its pipeline: from-write (its buffer write, as if routed while it waited) or from-front (once the packet ahead has left: one packet's state per input VC, as BookSim2's router; SystemC router)  [default from-write]");
  c.add_option("--vc-allocator", vc_allocator_, "the VC allocator: per-port (each output port serves every request it can, each head the lowest free VC with a credit) or islip (BookSim2's separable iSLIP allocator, one iteration, credits not checked; SystemC router)  [default per-port]");
  c.add_option("--routing", routing_, "routing function  [default dimension-order]");
  c.add_option("--port-model", port_model_, "one-port or all-port  [default one-port]");
  c.add_option("--watchdog-cycles", watchdog_cycles_, "deadlock watchdog: cycles without any flit or credit moving  [default 20000]");
  c.add_option("--host-threads", host_threads_, "host threads stepping the routers in parallel, 1..64 and at most this "
                                                "host's hardware threads (speed only: the simulated machine and every "
                                                "statistic are the same; waveform runs use 1)  [default 1]");
}

void RunOptions::add_node_options_to(CLI::App& c) {
  c.add_option("--startup-cycles", startup_cycles_, "start-up cost t_s per message, in cycles  [default 100]");
  c.add_option("--startup-on", startup_on_,
               "who pays t_s: processor (before each send descriptor, one at a time) or channel (each injection "
               "channel before the message's first flit: all-port nodes start up on every channel at once)  [default processor]");
  c.add_option("--copy-cycles-per-byte", copy_cycles_per_byte_, "local copy cost rho, cycles per byte  [default 0.25]");
  c.add_option("--unexpected-buffer-bytes", unexpected_buffer_bytes_,
               "network interface buffer for messages that arrive before their receive is posted; when full, "
               "they wait in the network  [default 1048576]");
  c.add_option("--fabric-startup-cycles", fabric_startup_cycles_, "004's tau of the bus, shared memory or switch (topology bus:K, shared-memory:K, omega:K): a transfer's start-up, in cycles  [default 100]");
  c.add_option("--fabric-bytes-per-cycle", fabric_bytes_per_cycle_, "004's b: bytes per cycle of a node's channel to the bus, memory or switch  [default 8]");
  c.add_option("--concurrent-transfers", concurrent_transfers_, "004's k*: transfers the bus, or accesses the shared memory, serves at once  [default 1]");
  c.add_option("--memory-banks", memory_banks_, "the shared memory's word-interleaved banks; 0 for one per node  [default 0]");
  c.add_option("--cost-model", cost_model_,
               "machine: every setting as given; 004: paper 004's model on all six of its machines, tau = "
               "--startup-cycles and b = --flit-bytes on each (ring, grid, hypercube: all-port nodes paying t_s on "
               "every channel; bus, shared memory, switch: t_s of 0 and a fabric start-up of tau - 1, plus the "
               "cycle of arbitration; rho = 0 everywhere)  [default machine]");
  c.add_option("--barrier-latency", barrier_latency_, "hardware barrier latency in cycles  [default 10]");
  c.add_option("--max-cycles", max_cycles_, "end the run after this many cycles  [default 200000000]");
  c.add_option("-o,--stats-json", stats_json_, "write statistics (and the config) as JSON to this file; - for standard output (the summary then goes to standard error), \"\" for none  [default meshmp-stats.json]");
  c.add_option("--detail-csv", detail_csv_, "write one row per node per step (messages, bytes, begin cycle, zero-load cost) to this CSV file");
  c.add_option("--messages-csv", messages_csv_, "write one row per received message (source, destination, bytes, latency, header blocking) to this CSV file");
  c.add_option("--vcd", vcd_, "write a VCD waveform of the traced routers and DMA engines to this file");
  c.add_option("--trace-rtl", trace_rtl_, "write an FST waveform of the traced RTL routers' internals (FIFO occupancy, VC states, allocator decisions, credits) to this file (router model rtl or dual)");
  c.add_option("--trace-nodes", trace_nodes_,
               "nodes whose router and DMA engine the waveform shows: node ids separated by commas, e.g. 0,9  [default 0]");
}

MachineConfig RunOptions::resolve() const {
  MachineConfig config;
  if (!config_file_.empty()) load_config_file(config, data_file(config_file_));
  return resolve_over(std::move(config));
}

MachineConfig RunOptions::resolve_over(MachineConfig config) const {
  auto integer = [](const std::optional<std::string>& text, const IntegerLimit& limit, auto& field) {
    if (text) field = static_cast<std::remove_reference_t<decltype(field)>>(parse_integer(*text, limit));
  };
  if (topology_) config.topology = *topology_;
  if (router_model_) config.router.model = *router_model_;
  if (algorithm_) config.algorithm = *algorithm_;
  // KEY=VALUE options over the config file's; a key given twice on the command line is an error, as a
  // repeated flag is (which of the two was meant?).
  auto key_values = [](const std::vector<std::string>& given, const char* flag, const std::string& section,
                       std::map<std::string, std::string>& into) {
    std::map<std::string, std::string> seen;
    for (const std::string& option : given) {
      const auto equals = option.find('=');
      if (equals == std::string::npos || equals == 0) throw ConfigError(flag, option, "expected KEY=VALUE");
      const std::string key = option.substr(0, equals), value = option.substr(equals + 1);
      if (const auto it = seen.find(key); it != seen.end())
        throw ConfigError(section + "." + key, value,
                          std::string("is given twice (") + flag + " " + echo(key + "=" + it->second) + " and " +
                              echo(option) + "); give each option once");
      seen[key] = value;
      into[key] = value;
    }
  };
  key_values(algorithm_options_, "--algorithm-option", "algorithm_options", config.algorithm_options);
  key_values(workload_options_, "--workload-option", "workload_options", config.workload_options);
  integer(block_bytes_, limits::kBlockBytes, config.block_bytes);
  integer(vcs_, limits::kVcs, config.router.vcs);
  integer(buffer_flits_, limits::kBufferFlits, config.router.buffer_flits);
  integer(pipeline_depth_, limits::kPipelineDepth, config.router.pipeline_depth);
  integer(link_latency_, limits::kLinkLatency, config.router.link_latency_cycles);
  integer(credit_latency_, limits::kCreditLatency, config.router.credit_latency_cycles);
  integer(credit_processing_, limits::kCreditProcessing, config.router.credit_processing_cycles);
  integer(flit_bytes_, limits::kFlitBytes, config.router.flit_bytes);
  integer(packet_flits_, limits::kMaxPacketPayloadFlits, config.router.max_packet_payload_flits);
  integer(rtl_power_on_seed_, limits::kRtlPowerOnSeed, config.router.rtl_power_on_seed);
  if (switching_) config.router.switching = parse_switching(*switching_, "router.switching");
  if (no_dateline_) config.router.dateline = false;
  if (dateline_classes_) config.router.dateline_whole_segment = kDatelineClasses.parse(*dateline_classes_);
  if (head_pipeline_) config.router.head_pipeline_from_front = kHeadPipeline.parse(*head_pipeline_);
  if (vc_allocator_) config.router.islip_vc_allocator = kVcAllocator.parse(*vc_allocator_);
  if (routing_) config.routing = *routing_;
  if (port_model_) config.port_model = parse_port_model(*port_model_, "node.port_model");
  integer(startup_cycles_, limits::kStartupCycles, config.processor.startup_cycles);
  if (startup_on_) config.processor.startup_on_channel = parse_startup_on(*startup_on_, "--startup-on");
  if (copy_cycles_per_byte_) config.processor.copy_cycles_per_byte = parse_copy_cycles_per_byte(*copy_cycles_per_byte_);
  integer(barrier_latency_, limits::kBarrierLatency, config.barrier_latency_cycles);
  integer(fabric_startup_cycles_, limits::kFabricStartupCycles, config.fabric.startup_cycles);
  integer(fabric_bytes_per_cycle_, limits::kFabricBytesPerCycle, config.fabric.bytes_per_cycle);
  integer(concurrent_transfers_, limits::kConcurrentTransfers, config.fabric.concurrent_transfers);
  integer(memory_banks_, limits::kMemoryBanks, config.fabric.memory_banks);
  integer(unexpected_buffer_bytes_, limits::kUnexpectedBufferBytes, config.unexpected_buffer_bytes);
  integer(watchdog_cycles_, limits::kWatchdogCycles, config.watchdog_cycles);
  integer(max_cycles_, limits::kMaxCycles, config.max_cycles);
  integer(host_threads_, limits::kHostThreads, config.host_threads);
  if (stats_json_) config.stats_json = *stats_json_;
  if (vcd_) config.vcd = *vcd_;
  if (detail_csv_) config.detail_csv = *detail_csv_;
  if (messages_csv_) config.messages_csv = *messages_csv_;
  if (trace_rtl_) config.trace_rtl = *trace_rtl_;
  if (trace_nodes_) config.trace_nodes = parse_trace_nodes(*trace_nodes_);
  if (cost_model_) apply_cost_model(config);
  return config;
}

void RunOptions::apply_cost_model(MachineConfig& config) const {
  if (*cost_model_ == "machine") return;
  if (*cost_model_ != "004")
    throw ConfigError("--cost-model", *cost_model_,
                      "must be machine (every setting as given) or 004 (paper 004's tau and b on all six machines)");
  // The settings the model decides may not be given beside it: which of the two was meant?
  for (const auto& [flag, given] : {std::pair{"--port-model", &port_model_}, {"--startup-on", &startup_on_},
                                    {"--copy-cycles-per-byte", &copy_cycles_per_byte_},
                                    {"--fabric-startup-cycles", &fabric_startup_cycles_},
                                    {"--fabric-bytes-per-cycle", &fabric_bytes_per_cycle_}})
    if (*given)
      throw ConfigError(flag, **given, "is set by --cost-model 004 (tau = --startup-cycles, b = --flit-bytes); give one of the two");
  config.processor.copy_cycles_per_byte = 0;
  if (Topology::fabric_of(config.topology) == Fabric::None) {
    config.port_model = PortModel::AllPort;
    config.processor.startup_on_channel = true;
    return;
  }
  const std::uint64_t tau = config.processor.startup_cycles;
  if (tau == 0)
    throw ConfigError("--startup-cycles", "0",
                      "--cost-model 004 on " + config.topology + " needs tau >= 1: a transfer's tau includes its cycle of arbitration");
  config.processor.startup_cycles = 0;
  config.fabric.startup_cycles = tau - 1;
  config.fabric.bytes_per_cycle = static_cast<std::uint32_t>(config.router.flit_bytes);
}

}  // namespace meshmp
