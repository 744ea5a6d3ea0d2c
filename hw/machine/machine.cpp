// The machine assembled from its configuration, and one run of it. See machine.h.
#include "hw/machine/machine.h"

#include <algorithm>
#include <chrono>

#include "hw/router/dual_router.h"
#include "hw/router/routing.h"
#include "hw/router/rtl_router.h"
#include "hw/base/stop_request.h"
#include "topology/config_error.h"

namespace meshmp {

Node::Node(sc_core::sc_module_name name, int id, const Topology& topology, const DmaEngineFactory& make_engine,
           const TransferTiming& timing, sc_core::sc_time clock_period, const Workload& workload,
           const ProcessorParams& params, HardwareBarrier& barrier, StepStatistics& step_statistics,
           ZeroLoadObserver& zero_load, Firmware firmware, const AlgorithmOptions& options, std::function<void()> on_finish)
    : sc_core::sc_module(name),
      memory("memory", workload.memory_bytes()),
      engine_(make_engine(id, workload.memory_bytes())),
      register_bus("register_bus"),
      cpu("cpu", id, topology, workload, params, timing, clock_period, barrier, step_statistics, zero_load,
          engine_->completion_irq(), [this] { return engine_->last_error(); },
          [this](Handle h) { return engine_->describe_descriptor(static_cast<std::uint32_t>(h)); }, std::move(firmware),
          options, std::move(on_finish)) {
  cpu.dma_port.bind(register_bus.initiators);
  register_bus.engine.bind(engine_->register_target());
  cpu.memory_port.bind(memory.cpu_port);
  engine_->memory_initiator().bind(memory.dma_port);
}

NetworkInterface& Node::network_interface() {
  if (auto* engine = dynamic_cast<NetworkInterface*>(engine_.get())) return *engine;
  throw std::logic_error(std::string(name()) + " is not on a router network");
}

const NetworkInterface& Node::network_interface() const { return const_cast<Node*>(this)->network_interface(); }

std::string to_string(RunStatus status) {
  switch (status) {
    case RunStatus::Completed: return "completed";
    case RunStatus::NetworkFailure: return "network failure";
    case RunStatus::FirmwareError: return "firmware error";
    case RunStatus::Stalled: return "stalled";
    case RunStatus::Timeout: return "cycle limit reached";
    case RunStatus::Interrupted: return "interrupted";
  }
  return "?";
}

Machine::Machine(sc_core::sc_module_name name, const MachineConfig& config, Firmware firmware, AlgorithmOptions options,
                 std::uint64_t scratch_bytes, const std::string& workload)
    : Machine(name, config, Topology::parse(config.topology), exchange_parameters(config), std::move(firmware),
              std::move(options), scratch_bytes, workload) {}

Machine::Machine(sc_core::sc_module_name name, const MachineConfig& config, Topology topology,
                 const ExchangeParameters& parameters, Firmware firmware, AlgorithmOptions options,
                 std::uint64_t scratch_bytes, const std::string& workload)
    : sc_core::sc_module(name),
      config_(config),
      technology_(read_technology("power.technology_file", config.technology_file)),
      topology_(std::move(topology)),
      workload_(make_workload(workload, topology_, parameters, scratch_bytes)),
      options_(std::move(options)),
      period_(kClockPeriodNs, sc_core::SC_NS) {
  const DmaEngineFactory make_engine = topology_.fabric().empty() ? build_network() : build_fabric();
  TransferTiming timing;
  if (network_) {
    timing.router = network_->params();
    timing.port_model = network_->port_model();
    timing.routing = network_->routing();
  } else {
    timing.fabric = FabricTiming{config.fabric.startup_cycles, config.fabric.bytes_per_cycle};
    timing.concurrent_transfers = config.fabric.concurrent_transfers;
    timing.operations = fabric_kind_->operations;
  }
  timing.broadcast_machines = fabrics_offering(&NodeOperations::broadcast);
  timing.global_memory_machines = fabrics_offering(&NodeOperations::global_memory);
  if (fabric_kind_ && fabric_kind_->shared_slots)
    step_statistics_.set_shared_slots(SharedSlots{config.fabric.concurrent_transfers,
                                                  config.processor.startup_cycles,
                                                  config.fabric.startup_cycles, config.fabric.bytes_per_cycle,
                                                  fabric_kind_->handover_at_release});
  zero_load_ = std::make_unique<ZeroLoadObserver>(topology_, timing, config.processor);
  barrier_ = std::make_unique<HardwareBarrier>(topology_.num_nodes(),
                                               period_ * static_cast<double>(config.barrier_latency_cycles));
  SC_METHOD(stop_simulation);
  sensitive << stop_requested_;
  dont_initialize();
  for (int n = 0; n < topology_.num_nodes(); ++n)
    nodes_.push_back(std::make_unique<Node>(("node" + std::to_string(n)).c_str(), n, topology_, make_engine, timing,
                                            period_, *workload_, config.processor, *barrier_, step_statistics_,
                                            *zero_load_, firmware, options_, [this, n] { node_finished(n); }));
  prepare_faults();
}

void Machine::prepare_faults() {
  std::vector<LinkFault> link_faults;
  for (const std::string& text : config_.inject_faults) {
    FaultSpec fault = parse_fault_spec(text);
    check_fault_spec(fault, topology_, config_.fidelity);
    if (fault.kind == FaultSpec::Kind::Link) link_faults.push_back(fault.link);
    const std::size_t memory = fault.kind == FaultSpec::Kind::Memory ? nodes_[fault.node]->memory.bytes().size() : 0;
    if (fault.kind == FaultSpec::Kind::Memory && fault.address >= memory)
      throw ConfigError("run.inject_faults", text,
                        "names byte " + std::to_string(fault.address) + " of node " + std::to_string(fault.node) +
                            "'s memory, which has bytes 0.." + std::to_string(memory - 1));
    faults_.push_back(std::move(fault));
  }
  memory_fault_reports_.resize(faults_.size());
  if (!link_faults.empty()) cycle_network_->inject_link_faults(std::move(link_faults));
}

void Machine::apply_memory_faults() {
  for (std::size_t i = 0; i < faults_.size(); ++i) {
    const FaultSpec& fault = faults_[i];
    if (fault.kind != FaultSpec::Kind::Memory) continue;
    std::uint8_t& byte = nodes_[fault.node]->memory.bytes()[fault.address];
    const unsigned was = byte;
    byte ^= static_cast<std::uint8_t>(1u << fault.bit);
    FaultReport& report = memory_fault_reports_[i];
    report.fired = true;
    report.cycle = current_cycle();
    report.effect = "flipped bit " + std::to_string(fault.bit) + " of node " + std::to_string(fault.node) + "'s byte " +
                    std::to_string(fault.address) + " (" + std::to_string(was) + " -> " + std::to_string(byte) +
                    ") after the run";
  }
}

std::vector<FaultReport> Machine::fault_reports() const {
  std::vector<FaultReport> reports;
  std::size_t link = 0;
  for (std::size_t i = 0; i < faults_.size(); ++i) {
    FaultReport report = memory_fault_reports_[i];
    report.spec = faults_[i].text;
    if (faults_[i].kind == FaultSpec::Kind::Link) {
      const LinkFaultOutcome& outcome = cycle_network_->link_faults().outcomes()[link++];
      report.fired = outcome.fired;
      report.cycle = outcome.cycle;
      report.effect = outcome.fired ? outcome.what
                                    : std::string("never fired: no ") +
                                          (faults_[i].link.kind == LinkFault::Kind::HoldCredit ? "credit" : "payload flit") +
                                          " crossed the link from cycle " + std::to_string(faults_[i].link.cycle) + " on";
    } else if (!report.fired) {
      report.effect = "never applied: the run was interrupted";
    }
    reports.push_back(std::move(report));
  }
  return reports;
}

DmaEngineFactory Machine::build_network() {
  const RoutingFunction routing = find_routing_function(config_.routing);
  switch (config_.fidelity) {
    case NetworkFidelity::Cycle:
      if (!config_.trace_rtl.empty()) RtlWaveform::enable();  // before the RTL routers are built
      cycle_network_ = std::make_unique<Network>("network", topology_, with_routing(config_.router, config_.routing),
                                                 config_.port_model, routing,
                                                 period_, config_.watchdog_cycles, config_.host_threads);
      network_ = cycle_network_.get();
      break;
    case NetworkFidelity::Transaction:
      transaction_network_ =
          std::make_unique<TransactionNetwork>("network", topology_, config_.router, config_.port_model, routing, period_);
      network_ = transaction_network_.get();
      break;
    case NetworkFidelity::Both:
      throw ConfigError("network.fidelity", "both",
                        "a machine is built at one level, cycle or tlm (meshmp run runs one of each to compare them)");
  }
  network_->on_failure([] { sc_core::sc_stop(); });
  // The run ends when every node has finished and the network has drained (a message still in flight
  // must arrive, to be checked).
  network_->on_idle([this] {
    if (finished_nodes_ == topology_.num_nodes()) stop_requested_.notify(sc_core::SC_ZERO_TIME);
  });
  return [this](int node, std::size_t memory_bytes) -> std::unique_ptr<DmaEngine> {
    auto engine = std::make_unique<NetworkInterface>(
        "dma", node, *network_, memory_bytes, config_.unexpected_buffer_bytes, messages_,
        config_.processor.startup_on_channel ? config_.processor.startup_cycles : 0);
    engine->observe_zero_load(zero_load_.get());  // built before the nodes
    return engine;
  };
}

DmaEngineFactory Machine::build_fabric() {
  fabric_kind_ = &find_fabric(topology_.fabric());
  FabricBuild build;
  build.nodes = topology_.num_nodes();
  build.params = config_.fabric;
  build.cycle = period_;
  build.node_memory_bytes = workload_->memory_bytes();
  build.word_bytes = workload_->unit_bytes();
  fabric_ = fabric_kind_->make(build);
  return [this](int node, std::size_t memory_bytes) { return fabric_->make_engine(node, memory_bytes); };
}

Interconnect& Machine::network() {
  if (!network_) throw std::logic_error("the machine " + topology_.spec() + " has no router network");
  return *network_;
}

const Interconnect& Machine::network() const { return const_cast<Machine*>(this)->network(); }

Network& Machine::cycle_network() {
  if (!cycle_network_) throw std::logic_error("the machine " + topology_.spec() + " has no cycle-level router network");
  return *cycle_network_;
}

std::uint64_t Machine::current_cycle() const {
  return network_ ? network_->current_cycle() : static_cast<std::uint64_t>(sc_core::sc_time_stamp() / period_);
}

Machine::Machine(sc_core::sc_module_name name, const RunSpec& spec)
    : Machine(name, spec.config, spec.topology, spec.parameters, spec.algorithm->firmware, spec.options,
              spec.scratch_bytes, spec.algorithm->workload) {
  enforce_port_rule(*spec.algorithm);
}

Machine::Machine(sc_core::sc_module_name name, const MachineConfig& config, const Algorithm& algorithm)
    : Machine(name, make_run_spec(config, algorithm)) {}

void Machine::enforce_port_rule(const Algorithm& algorithm) {
  if (!algorithm.port_rule) return;
  port_rule_check_ = std::make_unique<PortRuleCheck>(topology_, algorithm.port_rule(topology_, options_));
  for (auto& node : nodes_)
    if (auto* engine = dynamic_cast<NetworkInterface*>(&node->dma())) engine->set_message_rule(port_rule_check_.get());
}

const ExchangeLayout& Machine::layout() const {
  if (const ExchangeLayout* blocks = workload_->block_layout()) return *blocks;
  throw std::logic_error("the machine's workload " + workload_->name() + " has no block layout");
}

void Machine::fill_memory() {
  for (int n = 0; n < topology_.num_nodes(); ++n) workload_->fill(n, nodes_[n]->memory.bytes());
}

VerificationReport Machine::verify() const {
  return workload_->verify([this](int n) -> const std::vector<std::uint8_t>& { return nodes_[n]->memory.bytes(); });
}

Machine::~Machine() {
  close_waveforms();
  // The nodes go in the reverse of the order they were built in. SystemC's registries remove an object
  // by a linear search and fill its place with their last entry; the ports' and exports' search starts
  // at their end, so in this order it finds each at once, while in build order tearing down the 10^5
  // sockets of 32,768 nodes is quadratic (32 of the 73 s a tseng-c64 run on 32x32x32 spends outside the
  // simulation). The modules' registry searches from its front: it stays quadratic, 6 modules a node.
  while (!nodes_.empty()) nodes_.pop_back();
}

void Machine::close_waveforms() {
  if (waveform_) sc_core::sc_close_vcd_trace_file(waveform_);
  waveform_ = nullptr;
  if (!config_.trace_rtl.empty()) RtlWaveform::close();
}

void Machine::node_finished(int node) {
  ++finished_nodes_;
  const bool failed = !nodes_[static_cast<std::size_t>(node)]->cpu.error().empty();
  // A fabric's transfers end before their senders' descriptors do: nothing can be in flight.
  if (failed || (finished_nodes_ == topology_.num_nodes() && (!network_ || !network_->busy())))
    stop_requested_.notify(sc_core::SC_ZERO_TIME);
}

void Machine::open_rtl_waveform(const std::string& path, const std::vector<int>& nodes) {
  std::vector<RtlRouter*> routers;
  Network& network = cycle_network();
  for (int n : nodes) {
    RouterModel& model = network.router(n);
    RtlRouter* rtl = dynamic_cast<RtlRouter*>(&model);
    if (auto* dual = dynamic_cast<DualRouter*>(&model)) rtl = &dual->rtl();
    if (!rtl) throw ConfigError("output.trace_rtl", path, "needs router.model rtl or dual");
    network.keep_stepping(n);  // traced routers are evaluated every cycle
    routers.push_back(rtl);
  }
  RtlWaveform::open(path, routers);
  network.on_cycle_end([](std::uint64_t cycle) { RtlWaveform::dump(cycle); });
}

void Machine::open_waveform(const std::string& path, const std::vector<int>& nodes) {
  std::string base = path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
  waveform_ = sc_core::sc_create_vcd_trace_file(base.c_str());
  waveform_->set_time_unit(kClockPeriodNs, sc_core::SC_NS);
  Network& network = cycle_network();
  for (int n : nodes) {
    RouterModel& router = network.router(n);
    network.keep_stepping(n);
    const std::string r = "router" + std::to_string(n) + ".";
    for (int p = 0; p < router.num_ports(); ++p) {
      const OutputPortProbe& probe = router.probe(p);
      const std::string o = r + "out" + std::to_string(p) + ".";
      sc_core::sc_trace(waveform_, probe.flit_valid, o + "flit_valid");
      sc_core::sc_trace(waveform_, probe.head, o + "head");
      sc_core::sc_trace(waveform_, probe.tail, o + "tail");
      sc_core::sc_trace(waveform_, probe.vc, o + "vc", 4);
      sc_core::sc_trace(waveform_, probe.tag, o + "tag", 32);
      sc_core::sc_trace(waveform_, probe.src, o + "src", 16);
      sc_core::sc_trace(waveform_, probe.dst, o + "dst", 16);
      for (int v = 0; v < config_.router.vcs; ++v)
        if (const int* credits = router.credit_counter(p, v))
          sc_core::sc_trace(waveform_, *credits, o + "credits_vc" + std::to_string(v), 11);
    }
    nodes_[n]->network_interface().enable_probe();
    const DmaProbe& dma = nodes_[n]->network_interface().probe();
    const std::string d = "dma" + std::to_string(n) + ".";
    sc_core::sc_trace(waveform_, dma.busy, d + "busy");
    sc_core::sc_trace(waveform_, dma.queued_sends, d + "queued_sends", 16);
    sc_core::sc_trace(waveform_, dma.bytes_left, d + "bytes_left", 32);
    sc_core::sc_trace(waveform_, dma.receives_pending, d + "receives_pending", 16);
    sc_core::sc_trace(waveform_, dma.completed, d + "completed", 32);
  }
}

RunResult Machine::run() {
  RunResult result;
  // sc_stop() ends every run on purpose; its info message is noise.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start(period_ * static_cast<double>(config_.max_cycles), sc_core::SC_EXIT_ON_STARVATION);
  result.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& node : nodes_) result.completion_cycles = std::max(result.completion_cycles, node->cpu.finish_cycle());
  if (stop_signal() == 0) apply_memory_faults();

  if (const int signal = stop_signal()) {
    result.completion_cycles = current_cycle();  // the cycle at which the run stopped
    result.status = RunStatus::Interrupted;
    result.message = std::string("stopped by ") + signal_name(signal) + " at simulated cycle " +
                     std::to_string(result.completion_cycles);
    return result;
  }
  if (network_ && network_->failed()) {
    result.completion_cycles = network_->failure_cycle();  // the cycle at which the run stopped
    result.status = RunStatus::NetworkFailure;
    result.message = network_->failure();
    result.details = network_->blocked_channels();
    return result;
  }
  for (const auto& node : nodes_)
    if (!node->cpu.error().empty()) {
      result.completion_cycles = current_cycle();
      result.status = RunStatus::FirmwareError;
      result.message = node->cpu.error();
      return result;
    }
  if (finished_nodes_ == topology_.num_nodes()) {
    // Every node finished: a message that arrived but was never received is a firmware mistake.
    for (const auto& node : nodes_)
      if (node->dma().unreceived_messages() > 0)
        for (const auto& line : node->dma().unreceived_descriptions()) result.details.push_back(line);
    if (!result.details.empty()) {
      result.status = RunStatus::FirmwareError;
      result.message = std::to_string(result.details.size()) + " message(s) arrived but were never received";
    }
    return result;
  }
  // Events still pending: the cycle limit cut the run; none: every process waits for nothing.
  const bool timed_out = sc_core::sc_pending_activity();
  result.status = timed_out ? RunStatus::Timeout : RunStatus::Stalled;
  result.message = timed_out ? "the run reached run.max_cycles = " + std::to_string(config_.max_cycles)
                             : "the firmware stopped making progress: " +
                                   std::to_string(topology_.num_nodes() - finished_nodes_) +
                                   " node(s) wait for messages that never come";
  for (const auto& node : nodes_) {
    if (node->cpu.finished()) continue;
    const std::string waiting = node->cpu.waiting_for();
    result.details.push_back("node " + std::to_string(node->cpu.id()) +
                             (waiting.empty() ? " is running (start-up, copy or compute)" : " waits for " + waiting));
  }
  result.completion_cycles = current_cycle();
  return result;
}

}  // namespace meshmp
