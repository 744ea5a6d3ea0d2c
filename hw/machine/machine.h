// The machine: a topology's worth of nodes (local memory, DMA engine, processor running firmware)
// joined by the router network, cycle-level or transaction-level (network.fidelity), or, on paper 004's shared-resource machines (bus:K,
// shared-memory:K, omega:K), by their fabric (hw/fabric/fabric.h: the broadcast bus, global shared memory or Omega switch of tlm/),
// assembled from a MachineConfig. run() starts the SystemC kernel and returns how the run ended:
// completed, a network failure (deadlock with the blocked channels, protocol error), a firmware error, a
// stall (every processor waits for something that will never come) or the cycle limit.
#pragma once

#include <systemc>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "firmware/api/algorithm_registry.h"
#include "firmware/api/exchange_layout.h"
#include "firmware/workloads/workload.h"
#include "hw/fabric/fabric.h"
#include "hw/node/dma_engine.h"
#include "hw/node/node_register_bus.h"
#include "hw/node/hardware_barrier.h"
#include "hw/machine/fault_spec.h"
#include "hw/machine/machine_config.h"
#include "hw/power/technology.h"
#include "hw/machine/port_rule_check.h"
#include "hw/machine/run_spec.h"
#include "hw/node/message_statistics.h"
#include "hw/network/network.h"
#include "hw/node/network_interface.h"
#include "hw/network/transaction_network.h"
#include "hw/node/processor.h"
#include "hw/node/step_statistics.h"
#include "topology/topology.h"
#include "tlm/node_memory.h"

namespace meshmp {

// Builds a node's DMA engine (a child module of the node) for its machine: node id, local memory bytes.
using DmaEngineFactory = std::function<std::unique_ptr<DmaEngine>(int node, std::size_t memory_bytes)>;

class Node : public sc_core::sc_module {
 public:
  NodeMemory memory;

 private:
  std::unique_ptr<DmaEngine> engine_;  // built before the processor, which sleeps on its interrupt

 public:
  // The engine's registers as initiators reach them: the processor, and any module bound to
  // register_bus.initiators before the run (hw/node/node_register_bus.h).
  NodeRegisterBus register_bus;
  Processor cpu;

  Node(sc_core::sc_module_name name, int id, const Topology& topology, const DmaEngineFactory& make_engine,
       const TransferTiming& timing, sc_core::sc_time clock_period, const Workload& workload,
       const ProcessorParams& params, HardwareBarrier& barrier, StepStatistics& step_statistics,
       ZeroLoadObserver& zero_load, Firmware firmware, const AlgorithmOptions& options, std::function<void()> on_finish);

  DmaEngine& dma() { return *engine_; }
  const DmaEngine& dma() const { return *engine_; }
  // The router network's engine (its buffers, probes, port rule); std::logic_error on the other machines.
  NetworkInterface& network_interface();
  const NetworkInterface& network_interface() const;
};

enum class RunStatus { Completed, NetworkFailure, FirmwareError, Stalled, Timeout, Interrupted };
std::string to_string(RunStatus status);

struct RunResult {
  RunStatus status = RunStatus::Completed;
  std::string message;
  std::vector<std::string> details;   // blocked channels, or what each stalled node waits for
  std::uint64_t completion_cycles = 0;  // when the last node finished, or the cycle a failed run stopped
  double host_seconds = 0;
};

class Machine : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Machine);
  static constexpr double kClockPeriodNs = 1.0;

  // The config must be valid (MachineConfig::validate()). `options` are the algorithm's checked options;
  // `scratch_bytes` the scratch memory per node it declared; `workload` the workload it solves, with
  // config.workload_options (ConfigError when they do not fit).
  Machine(sc_core::sc_module_name name, const MachineConfig& config, Firmware firmware,
          AlgorithmOptions options = {}, std::uint64_t scratch_bytes = 0,
          const std::string& workload = "complete-exchange");
  // Runs the algorithm of a run described once (hw/machine/run_spec.h), checking every message against its
  // port rule when it has one.
  Machine(sc_core::sc_module_name name, const RunSpec& spec);
  // Runs a registered algorithm: its options are config.algorithm_options checked against its
  // declarations (ConfigError when they do not match), its scratch memory and workload as it declares.
  Machine(sc_core::sc_module_name name, const MachineConfig& config, const Algorithm& algorithm);
  ~Machine() override;
  // Checks every message against the algorithm's port rule while it runs (004 §2; the constructors that
  // take the algorithm do it), when it has one.
  void enforce_port_rule(const Algorithm& algorithm);

  const MachineConfig& config() const { return config_; }
  // The power model's technology (power.technology_file), read when the machine is built.
  const Technology& technology() const { return technology_; }
  const Topology& topology() const { return topology_; }
  const Workload& workload() const { return *workload_; }
  // The block layout of a block workload (complete exchange, one-to-all); std::logic_error otherwise.
  const ExchangeLayout& layout() const;
  // Every node's memory as the workload starts it; the workload's check of every node's memory.
  void fill_memory();
  VerificationReport verify() const;
  // The router network at its fidelity; std::logic_error on 004's shared-resource machines (has_network()
  // false).
  bool has_network() const { return network_ != nullptr; }
  Interconnect& network();
  const Interconnect& network() const;
  // The cycle-level network (its routers and packet records); std::logic_error at another fidelity.
  Network& cycle_network();
  // 004's shared-resource machines: the fabric joining the nodes and its kind (null on a router network).
  const MachineFabric* fabric() const { return fabric_.get(); }
  const FabricKind* fabric_kind() const { return fabric_kind_; }
  // The current simulated cycle.
  std::uint64_t current_cycle() const;
  Node& node(int id) { return *nodes_[id]; }
  const Node& node(int id) const { return *nodes_[id]; }
  StepStatistics& step_statistics() { return step_statistics_; }
  const StepStatistics& step_statistics() const { return step_statistics_; }
  // The messages delivered: counts and distributions; a per-message log after messages().keep_log().
  MessageStatistics& messages() { return messages_; }
  const MessageStatistics& messages() const { return messages_; }

  // Opens the waveform file and adds the traced nodes' signals (before run()).
  void open_waveform(const std::string& path, const std::vector<int>& nodes);
  // Opens the FST waveform of the traced nodes' RTL routers (router model rtl or dual; the machine was
  // built with config.trace_rtl set, before run()).
  void open_rtl_waveform(const std::string& path, const std::vector<int>& nodes);
  // Closes the waveforms (both written completely): after the run, before their files are put in place.
  void close_waveforms();
  // Runs the SystemC kernel until the firmware on every node finished or the run failed; then (unless it
  // was interrupted) applies the memory faults of config.inject_faults, before any verification.
  RunResult run();
  // What each injected fault did (hw/machine/fault_spec.h), in the order given; empty without faults.
  std::vector<FaultReport> fault_reports() const;

 private:
  Machine(sc_core::sc_module_name name, const MachineConfig& config, Topology topology,
          const ExchangeParameters& parameters, Firmware firmware, AlgorithmOptions options,
          std::uint64_t scratch_bytes, const std::string& workload);
  // Node `node`'s firmware returned or failed: stops the run when it failed or when every node is done.
  void node_finished(int node);
  // Builds the router network, or the fabric of a shared-resource machine, and how a node's engine is made.
  DmaEngineFactory build_network();
  DmaEngineFactory build_fabric();
  void stop_simulation() { sc_core::sc_stop(); }
  // Parses config.inject_faults, checks the memory addresses, and hands the link faults to the network.
  void prepare_faults();
  void apply_memory_faults();

  MachineConfig config_;
  Technology technology_;
  Topology topology_;
  std::unique_ptr<const Workload> workload_;
  AlgorithmOptions options_;
  sc_core::sc_time period_;
  std::unique_ptr<Network> cycle_network_;              // the router network at cycle level,
  std::unique_ptr<TransactionNetwork> transaction_network_;  // or at transaction level,
  Interconnect* network_ = nullptr;                      // (whichever it is), or
  const FabricKind* fabric_kind_ = nullptr;  // one of 004's fabrics (hw/fabric/fabric.h)
  std::unique_ptr<MachineFabric> fabric_;
  std::unique_ptr<HardwareBarrier> barrier_;
  StepStatistics step_statistics_;
  std::unique_ptr<ZeroLoadObserver> zero_load_;  // the per-step zero-load prediction
  MessageStatistics messages_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::unique_ptr<PortRuleCheck> port_rule_check_;  // the algorithm's port rule (004 §2), if any
  int finished_nodes_ = 0;
  std::vector<FaultSpec> faults_;               // config.inject_faults, parsed
  std::vector<FaultReport> memory_fault_reports_;  // per fault; filled by run() for memory faults
  sc_core::sc_trace_file* waveform_ = nullptr;
  // Processors ask for the end of the run through this event: sc_stop() is called from a method
  // process, not from a processor's thread stack.
  sc_core::sc_event stop_requested_;
};

}  // namespace meshmp
