// Synthetic traffic for the network alone (`meshmp traffic`, benchmarks, network tests): every node is a
// source of packets of one length or a mix of lengths, offered at a rate in flits per node per cycle
// (Bernoulli or on-off) or replayed from a packet trace (hw/network/packet_trace.h), with an
// unbounded source queue (latency counts the time spent there: creation to tail ejection, also reported as
// its two parts, the source queueing and the network latency), and a destination pattern
// (hw/network/destination_pattern.h: uniform random, the source itself included unless excluded, hotspot,
// diagonal, asymmetric, or one of the permutations of hw/network/permutation_patterns.h). Sinks check every delivered packet: its
// destination, its flit count and every payload byte, so a lost, duplicated or reordered flit is an error.
// On the transaction-level network (hw/network/transaction_network.h) every packet is one transaction of the same
// bytes, created by the same draws, and its flits count as delivered when its tail arrives.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "hw/network/depacketizer.h"
#include "hw/network/destination_pattern.h"
#include "hw/network/interconnect.h"
#include "hw/network/latency_distribution.h"
#include "hw/network/network_endpoint.h"
#include "hw/network/packet_trace.h"
#include "hw/network/packetizer.h"
#include "hw/router/routing.h"

namespace meshmp {

// How a source offers its load: a Bernoulli trial every cycle, or on-off (BookSim2's on_off: a two-state
// Markov source, on for burst_cycles on average and off for idle_cycles, drawing packets only while on,
// at the rate that keeps the offered load the same).
enum class TrafficInjection { Bernoulli, OnOff };
TrafficInjection parse_traffic_injection(const std::string& name);
std::string to_string(TrafficInjection injection);

struct TrafficParams {
  TrafficPattern pattern = TrafficPattern::Uniform;
  bool include_self = false;               // uniform: draw destinations over all nodes, the source included
  int hotspot_node = 0;                    // hotspot: the hot node ...
  double hotspot_fraction = 0.2;           // ... and the share of packets sent to it (others uniform)
  double flits_per_node_per_cycle = 0.2;
  TrafficInjection injection = TrafficInjection::Bernoulli;
  double burst_cycles = 10;                // on-off: mean on period ...
  double idle_cycles = 10;                 // ... and mean off period, cycles
  int packet_flits = 4;                    // head + payload flits
  // A mix of packet sizes instead (BookSim2's packet_size and packet_size_rate): each packet's flits, head
  // included, drawn from packet_sizes with the weights packet_size_rates (all 1 when empty). The offered
  // load stays in flits: packets are created at flits_per_node_per_cycle / mean_packet_flits() per cycle.
  std::vector<int> packet_sizes;
  std::vector<double> packet_size_rates;
  // A packet trace to replay instead (hw/network/packet_trace.h): each packet created at its cycle in its
  // source's queue, if that cycle is before the generation's end; no packet is drawn. Its rate is
  // flits_per_node_per_cycle's, which only describes it.
  std::vector<TracePacket> trace;
  std::uint64_t warmup_cycles = 1000;      // packets created before this are not measured
  std::uint64_t measure_cycles = 10000;    // then packets are measured for this long
  std::uint64_t drain_cycles = 100000;     // after generation, at most this long for measured packets
  std::uint64_t seed = 1;

  // Empty when valid; otherwise the first broken rule for this topology (field, value, rule).
  std::optional<std::string> validate(const Topology& topology) const;
  // The sizes a packet may have (packet_flits alone, or the mix), their weights, the weighted mean and the
  // largest (a trace's largest when it replays one).
  std::vector<int> sizes() const;
  std::vector<double> size_weights() const;
  double mean_packet_flits() const;
  int largest_packet_flits() const;
};

struct TrafficStats {
  std::uint64_t packets_generated = 0;
  std::uint64_t packets_delivered = 0;
  std::uint64_t flits_delivered = 0;
  std::uint64_t measured_packets = 0;       // created inside the measurement window and delivered
  std::uint64_t measured_latency_sum = 0;
  // The measured latencies split where the packet's head left its source's queue (they add up to
  // measured_latency_sum): the cycles it waited there for its injection channel beyond its interface's
  // handover, and the rest, from that handover to its tail's ejection (see average_network_latency()).
  std::uint64_t measured_source_queueing_sum = 0;
  std::uint64_t measured_network_latency_sum = 0;
  std::uint64_t measured_flits_sum = 0;         // their sizes, head included
  std::uint64_t measured_hops_sum = 0;          // the links their heads crossed
  std::uint64_t measured_minimal_hops_sum = 0;  // the topology's distances from their sources to their destinations
  std::vector<std::uint32_t> measured_latencies;
  std::uint64_t window_flits_delivered = 0; // delivered inside the measurement window
  // Per source node: the flits of the packets it created inside the measurement window (offered), and
  // the flits from it delivered inside the window (accepted; they sum to window_flits_delivered).
  std::vector<std::uint64_t> window_flits_offered_by_source;
  std::vector<std::uint64_t> window_flits_accepted_by_source;
  std::vector<std::string> errors;
};

// The pattern's ideal saturation rate under `routing`, in flits/node/cycle: the offered load at which its
// busiest channel (a link, or a node's injection or ejection channel) would carry one flit per cycle, each
// destination weighted by its probability (Dally & Towles' ideal throughput; real routers saturate below
// it). At most 1.
double ideal_saturation_rate(const Topology& topology, RoutingFunction routing, const TrafficParams& params);

class TrafficGenerator {
 public:
  // Attaches one source/sink to every node of `network` (the cycle-level Network or the TransactionNetwork).
  TrafficGenerator(Interconnect& network, const TrafficParams& params);
  ~TrafficGenerator();

  // Wakes every source (call before sc_start).
  void start();
  const TrafficStats& stats() const { return stats_; }
  const TrafficParams& params() const { return params_; }
  std::uint64_t generation_end_cycle() const { return params_.warmup_cycles + params_.measure_cycles; }
  double average_latency() const;
  // The average latency split in two (they add up to it; 0 when no packet was measured). Source queueing:
  // the cycles a measured packet's head waited in its source's queue for the injection channel (behind the
  // packets before it, or for a credit): from the cycle its interface took it over (the cycle after its
  // creation, kHandoverCycles) to the cycle its head entered the injection channel; 0 for every packet of
  // an idle network. Network latency: the rest, from that handover to its tail's ejection; in an idle
  // network the zero-load latency H (d + L) + d + 3 + P of docs/architecture.md, as BookSim2's network
  // latency (its sources put a head into the injection channel in its creation cycle when it is free).
  double average_source_queueing_latency() const;
  double average_network_latency() const;
  // Cycles from a packet's creation to the first cycle its interface may put its head into the injection
  // channel (a node's DMA engine starts a descriptor the cycle after it is written).
  static constexpr std::uint64_t kHandoverCycles = 1;
  // The measured packets' latencies, sorted: percentiles and a histogram (a copy: call it once a run).
  LatencyDistribution latency_distribution() const { return LatencyDistribution(stats_.measured_latencies); }
  // The links (router to router) the measured packets' heads crossed, on average, and the minimal
  // distances from their sources to their destinations: the same under minimal routing, more under
  // Valiant's or ROMM's detours.
  double average_hops() const;
  double average_minimal_hops() const;
  double average_packet_flits() const;  // the measured packets' size, head included
  // True once every packet created in the measurement window has been delivered.
  bool measurement_drained() const { return stats_.measured_packets == measured_created_; }
  double accepted_flits_per_node_per_cycle() const;
  // Per source node, flits per cycle of the measurement window: offered (created there) and accepted
  // (delivered from it there). The accepted ones average to accepted_flits_per_node_per_cycle(); their
  // smallest and largest show how fairly the network serves its sources.
  std::vector<double> offered_flits_per_cycle_by_source() const;
  std::vector<double> accepted_flits_per_cycle_by_source() const;

 private:
  class Endpoint;
  class TransactionSource;
  class GenerationClock;
  Interconnect& network_;
  TrafficParams params_;
  TrafficStats stats_;
  std::mt19937_64 rng_;
  DestinationPattern destinations_;
  std::discrete_distribution<int> size_draw_;  // a mix of packet sizes: the index of each packet's size
  double packet_rate_ = 0;  // packets per node per cycle (Bernoulli): the flit load over the mean packet size
  std::vector<std::vector<TracePacket>> trace_by_source_;  // a replayed trace, each source's packets in order
  std::vector<std::size_t> trace_next_;                    // the next of them to create
  std::vector<std::uint8_t> source_on_;  // on-off: whether each source is in a burst
  std::vector<std::unique_ptr<Endpoint>> endpoints_;           // cycle level
  std::vector<std::unique_ptr<TransactionSource>> sources_;    // transaction level,
  std::unique_ptr<GenerationClock> clock_;                     // which draws their packets cycle by cycle
  std::uint64_t measured_created_ = 0;
  // The packets a source creates at `cycle` (counted as generated): its Bernoulli draw's, or the trace's,
  // each handed to `take` (no container per cycle: most cycles create none).
  template <class Take>
  void create_packets(int node, std::uint32_t& next_message_id, std::uint64_t cycle, Take&& take);
  // A packet of `flits` flits from `node` to `dst` created at `cycle`, its payload filled and counted.
  OutgoingMessage make_packet(int node, int dst, int flits, std::uint32_t& next_message_id, std::uint64_t cycle);
  // A sink's check of a delivered packet (destination, every payload byte) and its latency statistics.
  // `created`: the packet's creation cycle; `head_injected`: when its head entered the injection channel;
  // `hops`: the links its head crossed.
  void check_delivered(int node, int src, int dst, std::uint32_t message_id, const std::uint8_t* payload,
                       std::size_t bytes, std::uint64_t created, std::uint64_t head_injected, std::uint32_t hops,
                       std::uint64_t cycle);
  void count_delivered_flits(int src, std::uint64_t flits, std::uint64_t cycle);
};

}  // namespace meshmp
