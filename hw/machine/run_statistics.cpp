// Statistics of one machine run. See run_statistics.h.
#include "hw/machine/run_statistics.h"

#include "hw/power/energy_report.h"
#include "hw/power/network_activity.h"
#include "hw/power/power_report.h"

#include <algorithm>
#include <numeric>

#include "hw/machine/schedule_summary.h"
#include "topology/exchange_bounds.h"

namespace meshmp {

nlohmann::json distribution(const ValueHistogram& values) {
  if (values.empty()) return {{"count", 0}};
  return {{"count", values.count()}, {"min", values.min()}, {"mean", values.mean()},
          {"p50", values.percentile(0.5)}, {"p90", values.percentile(0.9)}, {"p99", values.percentile(0.99)},
          {"max", values.max()}};
}

nlohmann::json fabric_statistics(const Machine& machine) {
  const MachineConfig& config = machine.config();
  nlohmann::json fabric = {{"machine", machine.fabric_kind()->name},
                           {"startup_cycles", config.fabric.startup_cycles},
                           {"bytes_per_cycle", config.fabric.bytes_per_cycle}};
  machine.fabric()->add_statistics(fabric);
  return fabric;
}

std::string describe_fabric(const MachineConfig& config, const Topology& topology) {
  return find_fabric(topology.fabric()).describe(config.fabric, topology.num_nodes());
}

std::string describe_fabric_statistics(const nlohmann::json& fabric) {
  return find_fabric(fabric["machine"].get<std::string>()).describe_statistics(fabric);
}

namespace {

// statistics.simulation. Speed, honestly: the clock stops while the network is idle, so the simulated
// cycles include cycles that were skipped; the stepped cycles are those the network process actually ran.
// 004's bus, shared memory and switch step no clock (they act at their transfers' grant and completion
// edges): 0.
nlohmann::json simulation_statistics(const Machine& machine, const RunResult& result) {
  const bool network = machine.has_network();
  const std::uint64_t stepped = network ? machine.network().cycles_stepped() : 0;
  const double seconds = result.host_seconds > 0 ? result.host_seconds : 1e-9;
  return {{"host_seconds", result.host_seconds},
          {"simulated_cycles", result.completion_cycles},
          {"cycles_stepped", stepped},
          {"simulated_cycles_per_second", result.completion_cycles / seconds},
          {"stepped_cycles_per_second", stepped / seconds},
          {"host_threads", network ? machine.network().host_threads() : 1}};
}

// statistics.steps: per marked step, the messages and bytes of its busiest node and in all. Messages in
// units of m = block_bytes: the workload's unit, or 004's word where the saad-* algorithms size a block
// workload in words (workload option `words`).
nlohmann::json step_statistics(const Machine& machine) {
  nlohmann::json steps = nlohmann::json::array();
  const auto& aggregates = machine.step_statistics().steps();
  const std::uint32_t m = machine.config().block_bytes;
  for (std::size_t k = 0; k < aggregates.size(); ++k) {
    const StepAggregate& a = aggregates[k];
    if (a.nodes == 0) continue;
    steps.push_back({{"step", k},
                     {"nodes", a.nodes},
                     {"messages_max_per_node", a.messages_max},
                     {"bytes_max_per_node", a.bytes_max},
                     {"blocks_max_per_node", m ? a.bytes_max / m : 0},
                     {"messages_total", a.messages_total},
                     {"bytes_total", a.bytes_total},
                     {"first_begin_cycle", a.first_begin_cycle},
                     {"last_begin_cycle", a.last_begin_cycle},
                     {"zero_load_estimate_cycles", machine.step_statistics().step_zero_load_cycles(k)}});
  }
  return steps;
}

// statistics.schedule: the papers' counts measured from the step marks (hw/machine/schedule_summary.h).
ScheduleSummary schedule_of(const Machine& machine) {
  const int n = machine.topology().num_nodes();
  std::vector<std::uint64_t> startups(n), copied(n);
  for (int i = 0; i < n; ++i) {
    startups[i] = machine.node(i).cpu.startups();
    copied[i] = machine.node(i).cpu.copied_bytes();
  }
  return summarize_schedule(
      machine.step_statistics(),
      machine.has_network() ? machine.network().header_blocking_by_step() : std::vector<std::uint64_t>{},
      machine.config().block_bytes, startups, copied);
}

nlohmann::json schedule_statistics(const ScheduleSummary& schedule) {
  return {{"synchronized_steps", schedule.synchronized_steps},
          {"sum_of_step_max_blocks", schedule.sum_of_step_max_blocks},
          {"step_max_blocks", schedule.step_max_blocks},
          {"max_messages_per_node", schedule.max_messages_per_node},
          {"rearrangement_bytes_max_per_node", schedule.rearrangement_bytes_max_per_node},
          {"contention_free_steps", schedule.contention_free_steps},
          {"steps_with_blocking", schedule.steps_with_blocking}};
}

// statistics.bounds: 002 §3's lower bounds, in steps of one block over one link, against the synchronized
// steps measured.
nlohmann::json bounds_statistics(const Topology& topology, const ScheduleSummary& schedule) {
  const ExchangeBounds bounds = exchange_bounds(topology);
  const auto measured = static_cast<double>(schedule.synchronized_steps);
  return {{"average_status", bounds.average_status},
          {"status_bound_steps", bounds.status_bound_steps},
          {"cut_bound_unrounded_steps", bounds.cut.steps},
          {"cut_bound_steps", bounds.cut_bound_steps},
          {"cut", {{"dimension", bounds.cut.dimension},
                   {"parts", {bounds.cut.part1, bounds.cut.part2}},
                   {"edges", bounds.cut.edges},
                   {"description", bounds.cut.description}}},
          {"measured_steps_over_status_bound", measured / bounds.average_status},
          {"measured_steps_over_cut_bound", measured / bounds.cut.steps}};
}

// statistics.messages: what the router network's interfaces delivered.
nlohmann::json message_statistics(const Machine& machine) {
  std::uint64_t unexpected = 0, out_of_order = 0, peak_buffered = 0;
  for (int i = 0; i < machine.topology().num_nodes(); ++i) {
    unexpected += machine.node(i).network_interface().unexpected_messages();
    out_of_order += machine.node(i).network_interface().out_of_order_messages();
    peak_buffered = std::max(peak_buffered, machine.node(i).network_interface().peak_buffered_bytes());
  }
  const MessageStatistics& messages = machine.messages();
  return {{"received", messages.received()},
          {"arrived_before_receive_posted", unexpected},
          {"arrived_out_of_sending_order", out_of_order},
          {"peak_interface_buffer_bytes", peak_buffered},
          {"latency_cycles", distribution(messages.latency_cycles())},
          {"header_blocking_cycles", distribution(messages.header_blocking_cycles())}};
}

// statistics.network: flit-hops, contention and every link's load.
nlohmann::json network_statistics(const Interconnect& net, const RunResult& result) {
  nlohmann::json links = nlohmann::json::array();
  double max_util = 0, sum_util = 0;
  const double cycles = std::max<std::uint64_t>(result.completion_cycles, 1);
  const auto counts = net.link_counts();
  for (const auto& l : counts) {
    const double util = l.flits / cycles;
    max_util = std::max(max_util, util);
    sum_util += util;
    links.push_back({{"src", l.src}, {"dst", l.dst}, {"port", l.port}, {"flits", l.flits}, {"utilization_fraction", util}});
  }
  return {{"flit_hops", net.flit_hops()},
          {"header_blocking_cycles", net.header_blocking_cycles()},
          {"body_flit_stall_cycles", net.body_stall_cycles()},
          {"max_link_utilization_fraction", max_util},
          {"mean_link_utilization_fraction", counts.empty() ? 0.0 : sum_util / counts.size()},
          {"links", links}};
}

// The network's activity over the whole run; none at the transaction level, which has no routers to count
// events, nor on 004's fabrics.
std::optional<NetworkActivity> run_network_activity(const Machine& machine, const RunResult& result) {
  if (!machine.has_network()) return std::nullopt;
  const Interconnect& net = machine.network();
  std::optional<ActivitySnapshot> end = snapshot_activity(net);
  if (!end) return std::nullopt;
  end->cycle = std::max<std::uint64_t>(result.completion_cycles, 1);
  const MachineConfig& config = machine.config();
  return activity_between(net, ActivitySnapshot::zero_like(*end), *end, config.priced_channel_width_bits(),
                          config.price_edge_channels);
}

// What the nodes and the fabric did (hw/power/node_energy.h); the fabric's counts from its statistics.
NodeActivity run_node_activity(const Machine& machine, const nlohmann::json& fabric) {
  NodeActivity a;
  a.nodes = machine.topology().num_nodes();
  a.memory_bytes_per_node = machine.node(0).memory.size();
  a.startup_cycles = machine.config().processor.startup_cycles;
  for (int i = 0; i < a.nodes; ++i) {
    const Processor& cpu = machine.node(i).cpu;
    a.startups += cpu.startups();
    a.dma_bytes += cpu.dma_read_bytes() + cpu.dma_written_bytes();
    a.copied_bytes += cpu.copied_bytes();
  }
  const auto count = [&fabric](const char* part, const char* key) {
    return fabric.contains(part) ? fabric[part][key].get<std::uint64_t>() : std::uint64_t{0};
  };
  a.bus_bytes = count("bus", "bytes");
  a.bank_bytes = count("shared_memory", "bytes_read") + count("shared_memory", "bytes_written");
  a.switch_stage_bytes = count("switch", "bytes") * (fabric.contains("switch") ? fabric["switch"]["stages"].get<std::uint64_t>() : 0);
  return a;
}

// statistics.power, statistics.energy and statistics.area (docs/energy.md): the network's power over the
// whole run (null without routers to count), the run's energy at its clock, the network's area.
void add_energy_statistics(const Machine& machine, const RunResult& result, nlohmann::json& stats) {
  const MachineConfig& config = machine.config();
  const Technology& technology = machine.technology();
  const std::optional<NetworkActivity> activity = run_network_activity(machine, result);
  std::optional<NetworkPower> power;
  if (activity) power = network_power(technology, *activity);
  if (machine.has_network())
    stats["power"] = power ? power_report(*power, *activity, config.technology_file) : nlohmann::json(nullptr);

  RunEnergy run;
  run.cycles = result.completion_cycles;
  run.network_clock_hz = technology.clock_hz();
  run.clock_hz = config.clock_ghz > 0 ? config.clock_ghz * 1e9 : run.network_clock_hz;
  run.network = power ? &*power : nullptr;
  run.has_fabric = !machine.has_network();
  const nlohmann::json fabric = run.has_fabric ? stats["fabric"] : nlohmann::json::object();
  run.nodes = node_energy(technology, run_node_activity(machine, fabric), run.seconds());
  for (int i = 0; i < machine.topology().num_nodes(); ++i) run.delivered_bytes += machine.node(i).cpu.dma_written_bytes();
  stats["energy"] = energy_report(run);
  stats["area"] = power ? area_report(*power, activity->routers.size()) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json collect_statistics(const Machine& machine, const RunResult& result) {
  const Topology& topo = machine.topology();
  const int n = topo.num_nodes();
  nlohmann::json stats;
  stats["status"] = to_string(result.status);
  // 002 §3.1: the average status bounds the single-port total exchange from below, in steps (3).
  stats["topology"] = {{"spec", topo.spec()},
                       {"nodes", n},
                       {"network_ports_per_router", topo.num_ports()},
                       {"diameter", topo.diameter()},
                       {"average_status", topo.average_status()}};
  stats["completion_cycles"] = result.completion_cycles;
  stats["simulation"] = simulation_statistics(machine, result);
  std::uint64_t startups_max = 0, startups_total = 0;
  for (int i = 0; i < n; ++i) {
    startups_max = std::max(startups_max, machine.node(i).cpu.startups());
    startups_total += machine.node(i).cpu.startups();
  }
  stats["startups"] = {{"max_per_node", startups_max}, {"total", startups_total}};
  stats["steps"] = step_statistics(machine);
  const ScheduleSummary schedule = schedule_of(machine);
  stats["schedule"] = schedule_statistics(schedule);
  stats["bounds"] = bounds_statistics(topo, schedule);
  if (const std::vector<FaultReport> faults = machine.fault_reports(); !faults.empty()) {
    stats["faults"] = nlohmann::json::array();
    for (const FaultReport& f : faults)
      stats["faults"].push_back({{"spec", f.spec},
                                 {"fired", f.fired},
                                 {"cycle", f.fired ? nlohmann::json(f.cycle) : nlohmann::json(nullptr)},
                                 {"effect", f.effect}});
  }
  if (!machine.has_network()) {
    stats["fabric"] = fabric_statistics(machine);
  } else {
    stats["messages"] = message_statistics(machine);
    stats["network"] = network_statistics(machine.network(), result);
  }
  add_energy_statistics(machine, result, stats);
  return stats;
}

}  // namespace meshmp
