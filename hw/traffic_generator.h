// Synthetic traffic for the network alone (benchmarks and network tests): every node is a Bernoulli
// source of fixed-length packets with uniformly random destinations, offered at a rate in flits per
// node per cycle, with an unbounded source queue (latency counts the time spent there). Sinks check
// every delivered packet: its destination, its flit count and every payload byte, so a lost, duplicated
// or reordered flit is an error.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "hw/depacketizer.h"
#include "hw/network.h"
#include "hw/network_endpoint.h"
#include "hw/packetizer.h"

namespace meshmp {

struct TrafficParams {
  double flits_per_node_per_cycle = 0.2;
  int packet_flits = 4;                    // head + payload flits
  std::uint64_t warmup_cycles = 1000;      // packets created before this are not measured
  std::uint64_t measure_cycles = 10000;    // then packets are measured for this long
  std::uint64_t seed = 1;
};

struct TrafficStats {
  std::uint64_t packets_generated = 0;
  std::uint64_t packets_delivered = 0;
  std::uint64_t flits_delivered = 0;
  std::uint64_t measured_packets = 0;       // created inside the measurement window and delivered
  std::uint64_t measured_latency_sum = 0;
  std::uint64_t window_flits_delivered = 0; // delivered inside the measurement window
  std::vector<std::string> errors;
};

class TrafficGenerator {
 public:
  // Attaches one source/sink to every node of `network`.
  TrafficGenerator(Network& network, const TrafficParams& params);
  ~TrafficGenerator();

  // Wakes every source (call before sc_start).
  void start();
  const TrafficStats& stats() const { return stats_; }
  const TrafficParams& params() const { return params_; }
  std::uint64_t generation_end_cycle() const { return params_.warmup_cycles + params_.measure_cycles; }
  double average_latency() const;
  double accepted_flits_per_node_per_cycle() const;

 private:
  class Endpoint;
  Network& network_;
  TrafficParams params_;
  TrafficStats stats_;
  std::mt19937_64 rng_;
  std::vector<std::unique_ptr<Endpoint>> endpoints_;
};

}  // namespace meshmp
