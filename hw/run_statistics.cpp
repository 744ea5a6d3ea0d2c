// Statistics of one machine run. See run_statistics.h.
#include "hw/run_statistics.h"

#include <algorithm>
#include <numeric>

namespace meshmp {

nlohmann::json distribution(std::vector<std::uint64_t> values) {
  if (values.empty()) return {{"count", 0}};
  std::sort(values.begin(), values.end());
  auto percentile = [&](double q) { return values[static_cast<std::size_t>(q * (values.size() - 1) + 0.5)]; };
  const double sum = std::accumulate(values.begin(), values.end(), 0.0);
  return {{"count", values.size()}, {"min", values.front()}, {"mean", sum / values.size()},
          {"p50", percentile(0.5)}, {"p90", percentile(0.9)}, {"p99", percentile(0.99)}, {"max", values.back()}};
}

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
  stats["host_seconds"] = result.host_seconds;
  const std::uint64_t stepped = machine.network().cycles_stepped();
  stats["simulated_cycles_per_second"] = result.host_seconds > 0 ? result.completion_cycles / result.host_seconds : 0.0;

  std::vector<std::uint64_t> startups;
  nlohmann::json per_node_steps = nlohmann::json::array();
  std::size_t max_steps = 0;
  for (int i = 0; i < n; ++i) max_steps = std::max(max_steps, machine.node(i).cpu.steps().size());
  std::vector<nlohmann::json> step_summary(max_steps);
  std::vector<std::uint64_t> step_messages_max(max_steps, 0), step_bytes_max(max_steps, 0);
  std::vector<std::uint64_t> step_messages_total(max_steps, 0), step_bytes_total(max_steps, 0);
  for (int i = 0; i < n; ++i) {
    const Processor& cpu = machine.node(i).cpu;
    startups.push_back(cpu.startups());
    std::vector<std::uint64_t> messages, bytes;
    for (std::size_t k = 0; k < cpu.steps().size(); ++k) {
      const StepCount& c = cpu.steps()[k];
      messages.push_back(c.messages);
      bytes.push_back(c.bytes);
      step_messages_max[k] = std::max(step_messages_max[k], c.messages);
      step_bytes_max[k] = std::max(step_bytes_max[k], c.bytes);
      step_messages_total[k] += c.messages;
      step_bytes_total[k] += c.bytes;
    }
    per_node_steps.push_back({{"messages", std::move(messages)}, {"bytes", std::move(bytes)}});
  }
  stats["startups"] = {{"max_per_node", *std::max_element(startups.begin(), startups.end())},
                       {"total", std::accumulate(startups.begin(), startups.end(), std::uint64_t{0})},
                       {"per_node", startups}};
  nlohmann::json steps = nlohmann::json::array();
  for (std::size_t k = 0; k < max_steps; ++k)
    steps.push_back({{"step", k},
                     {"messages_max_per_node", step_messages_max[k]},
                     {"bytes_max_per_node", step_bytes_max[k]},
                     {"blocks_max_per_node", machine.layout().block_bytes ? step_bytes_max[k] / machine.layout().block_bytes : 0},
                     {"messages_total", step_messages_total[k]},
                     {"bytes_total", step_bytes_total[k]}});
  stats["steps"] = steps;
  stats["per_node_steps"] = per_node_steps;

  std::vector<std::uint64_t> latency, blocking;
  std::uint64_t unexpected = 0;
  for (int i = 0; i < n; ++i) {
    for (const auto& r : machine.node(i).dma.received_messages()) {
      latency.push_back(r.latency_cycles);
      blocking.push_back(r.blocked_cycles);
    }
    unexpected += machine.node(i).dma.unexpected_messages();
  }
  stats["messages"] = {{"received", latency.size()},
                       {"arrived_before_receive_posted", unexpected},
                       {"latency_cycles", distribution(latency)},
                       {"header_blocking_cycles", distribution(blocking)}};

  const Network& net = machine.network();
  nlohmann::json links = nlohmann::json::array();
  double max_util = 0, sum_util = 0;
  const double cycles = std::max<std::uint64_t>(result.completion_cycles, 1);
  const auto counts = net.link_counts();
  for (const auto& l : counts) {
    const double util = l.flits / cycles;
    max_util = std::max(max_util, util);
    sum_util += util;
    links.push_back({{"src", l.src}, {"dst", l.dst}, {"port", l.port}, {"flits", l.flits}, {"utilization", util}});
  }
  stats["network"] = {{"flit_hops", net.flit_hops()},
                      {"header_blocking_cycles", net.header_blocking_cycles()},
                      {"body_flit_stall_cycles", net.body_stall_cycles()},
                      {"cycles_stepped", stepped},
                      {"max_link_utilization", max_util},
                      {"mean_link_utilization", counts.empty() ? 0.0 : sum_util / counts.size()},
                      {"links", links}};
  return stats;
}

}  // namespace meshmp
