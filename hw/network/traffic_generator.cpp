// Synthetic traffic patterns. See traffic_generator.h.
#include "hw/network/traffic_generator.h"

#include <cstdio>
#include <cstdlib>

#include <algorithm>
#include <cmath>

#include "hw/network/network.h"
#include "hw/network/transaction_network.h"
#include "topology/config_error.h"

namespace meshmp {

TrafficInjection parse_traffic_injection(const std::string& name) {
  if (name == "bernoulli") return TrafficInjection::Bernoulli;
  if (name == "on-off" || name == "on_off") return TrafficInjection::OnOff;
  throw ConfigError("traffic.injection", name, "expected bernoulli or on-off");
}

std::string to_string(TrafficInjection injection) {
  return injection == TrafficInjection::OnOff ? "on-off" : "bernoulli";
}

namespace {

// A number as it was typed, to the last digit that tells it apart (1.0000001, not to_string's 1.000000).
std::string shortest_text(double value) {
  char text[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

}  // namespace

std::optional<std::string> TrafficParams::validate(const Topology& topology) const {
  auto bad = [](const std::string& field, const std::string& value, const std::string& rule) {
    return std::optional<std::string>(ConfigError(field, value, rule).what());
  };
  const int n = topology.num_nodes();
  if (trace.empty() && !(flits_per_node_per_cycle > 0 && flits_per_node_per_cycle <= 1))
    return bad("traffic.rate", shortest_text(flits_per_node_per_cycle), "must be in (0, 1] flits/node/cycle");
  if (packet_flits < 1 || packet_flits > 4097)
    return bad("traffic.packet_flits", std::to_string(packet_flits), "must be 1..4097 (head included)");
  auto list = [](const auto& values) {
    std::string text;
    for (const auto& value : values) text += (text.empty() ? "" : ",") + shortest_text(value);
    return text;
  };
  for (const int size : packet_sizes)
    if (size < 1 || size > 4097)
      return bad("traffic.packet_sizes", list(packet_sizes),
                 "every size must be 1..4097 flits (head included); " + std::to_string(size) + " is not");
  if (!packet_size_rates.empty() && packet_sizes.empty())
    return bad("traffic.packet_size_rates", list(packet_size_rates),
               "weighs the sizes of traffic.packet_sizes, which is not given");
  if (!packet_size_rates.empty() && packet_size_rates.size() != packet_sizes.size())
    return bad("traffic.packet_size_rates", list(packet_size_rates),
               "must give one weight per size of traffic.packet_sizes (" + std::to_string(packet_sizes.size()) +
                   " sizes, " + std::to_string(packet_size_rates.size()) + " weights)");
  for (const double weight : packet_size_rates)
    if (!(weight > 0) || !std::isfinite(weight))
      return bad("traffic.packet_size_rates", list(packet_size_rates),
                 "every weight must be a positive number; " + shortest_text(weight) + " is not");
  if (measure_cycles < 1) return bad("traffic.measure_cycles", "0", "must be at least 1");
  if (injection == TrafficInjection::OnOff) {
    if (!(burst_cycles >= 1)) return bad("traffic.burst_cycles", shortest_text(burst_cycles), "must be at least 1 cycle");
    if (!(idle_cycles >= 1)) return bad("traffic.idle_cycles", shortest_text(idle_cycles), "must be at least 1 cycle");
    const double mean = mean_packet_flits();
    const double peak = flits_per_node_per_cycle / mean * (burst_cycles + idle_cycles) / burst_cycles;
    if (peak > 1)
      return bad("traffic.rate", shortest_text(flits_per_node_per_cycle),
                 "on-off sources offer it in bursts, a packet per cycle at most: rate x (burst_cycles + idle_cycles) / "
                 "burst_cycles must be at most " + std::string(packet_sizes.empty() ? "packet_flits" : "the mean packet size") +
                     " (" + shortest_text(peak * mean) + " > " + shortest_text(mean) + ")");
  }
  if (const auto permutation = permutation_of(pattern))
    if (auto why = permutation_unsupported(topology, *permutation)) return bad("traffic.pattern", to_string(pattern), *why);
  if (pattern == TrafficPattern::Hotspot && (hotspot_node < 0 || hotspot_node >= n))
    return bad("traffic.hotspot_node", std::to_string(hotspot_node), "must be a node, 0.." + std::to_string(n - 1));
  if (pattern == TrafficPattern::Hotspot && !(hotspot_fraction >= 0 && hotspot_fraction <= 1))
    return bad("traffic.hotspot_fraction", std::to_string(hotspot_fraction), "must be 0..1");
  if (pattern == TrafficPattern::Uniform && !include_self && n < 2)
    return bad("traffic.include_self", "false", "a single node has no other destination");
  return std::nullopt;
}
std::vector<int> TrafficParams::sizes() const {
  return packet_sizes.empty() ? std::vector<int>{packet_flits} : packet_sizes;
}

std::vector<double> TrafficParams::size_weights() const {
  return packet_size_rates.empty() ? std::vector<double>(sizes().size(), 1.0) : packet_size_rates;
}

double TrafficParams::mean_packet_flits() const {
  const std::vector<int> all = sizes();
  const std::vector<double> weights = size_weights();
  double flits = 0, weight = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    flits += weights[i] * all[i];
    weight += weights[i];
  }
  return flits / weight;
}

int TrafficParams::largest_packet_flits() const {
  int largest = 0;
  for (const TracePacket& packet : trace) largest = std::max(largest, packet.flits);
  if (!trace.empty()) return largest;
  const std::vector<int> all = sizes();
  return *std::max_element(all.begin(), all.end());
}

double ideal_saturation_rate(const Topology& topology, RoutingFunction routing, const TrafficParams& params) {
  const int n = topology.num_nodes();
  const auto ports = static_cast<std::size_t>(topology.num_ports());
  std::vector<double> link_load(static_cast<std::size_t>(n) * ports, 0), ejection_load(static_cast<std::size_t>(n), 0);
  auto send = [&](int src, int dst, double weight) {
    int at = src;
    for (int port : route_ports(topology, routing, src, dst)) {
      link_load[static_cast<std::size_t>(at) * ports + static_cast<std::size_t>(port)] += weight;
      at = topology.neighbor(at, port);
    }
    ejection_load[static_cast<std::size_t>(dst)] += weight;
  };
  const DestinationPattern destinations(topology, params.pattern, params.include_self, params.hotspot_node,
                                        params.hotspot_fraction, params.seed);
  for (int src = 0; src < n; ++src) {
    const std::vector<double> probabilities = destinations.probabilities(src);
    for (int dst = 0; dst < n; ++dst)
      if (probabilities[static_cast<std::size_t>(dst)] > 0) send(src, dst, probabilities[static_cast<std::size_t>(dst)]);
  }
  double busiest = 1;  // every node injects the whole offered load on its injection channel
  for (double load : link_load) busiest = std::max(busiest, load);
  for (double load : ejection_load) busiest = std::max(busiest, load);
  return 1 / busiest;
}

namespace {
std::uint8_t payload_byte(int src, std::uint32_t message_id, std::uint32_t index) {
  return static_cast<std::uint8_t>(src * 7 + message_id * 13 + index * 3 + (index >> 8));
}
}  // namespace

template <class Take>
void TrafficGenerator::create_packets(int node, std::uint32_t& next_message_id, std::uint64_t cycle, Take&& take) {
  const TrafficParams& p = params_;
  if (cycle >= generation_end_cycle()) return;
  if (!trace_by_source_.empty()) {
    const std::vector<TracePacket>& packets = trace_by_source_[static_cast<std::size_t>(node)];
    std::size_t& next = trace_next_[static_cast<std::size_t>(node)];
    for (; next < packets.size() && packets[next].cycle <= cycle; ++next)
      take(make_packet(node, packets[next].destination, packets[next].flits, next_message_id, cycle));
    return;
  }
  double packet_rate = packet_rate_;
  if (p.injection == TrafficInjection::OnOff) {
    std::uint8_t& on = source_on_[static_cast<std::size_t>(node)];
    const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
    if (u < 1.0 / (on ? p.burst_cycles : p.idle_cycles)) on ^= 1;
    if (!on) return;
    packet_rate *= (p.burst_cycles + p.idle_cycles) / p.burst_cycles;
  }
  if (std::uniform_real_distribution<double>(0.0, 1.0)(rng_) >= packet_rate) return;
  const int dst = destinations_.draw(node, rng_);
  const int flits = p.packet_sizes.size() > 1   ? p.packet_sizes[static_cast<std::size_t>(size_draw_(rng_))]
                    : p.packet_sizes.empty() ? p.packet_flits
                                             : p.packet_sizes.front();
  take(make_packet(node, dst, flits, next_message_id, cycle));
}

OutgoingMessage TrafficGenerator::make_packet(int node, int dst, int flits, std::uint32_t& next_message_id,
                                              std::uint64_t cycle) {
  OutgoingMessage msg;
  msg.src = node;
  msg.dst = dst;
  msg.message_id = next_message_id++;
  msg.payload.resize(static_cast<std::size_t>(flits - 1) * network_.params().flit_bytes);
  for (std::uint32_t b = 0; b < msg.payload.size(); ++b) msg.payload[b] = payload_byte(node, msg.message_id, b);
  // The source's interface takes the packet in the cycle after its creation, as a node's DMA engine
  // starts a descriptor the cycle after it is written (and as BookSim2's sources write a flit into
  // their 1-cycle injection channel in the creation cycle: the same 2 cycles to the router's buffer).
  msg.created_cycle = cycle;
  msg.ready_cycle = cycle + kHandoverCycles;
  ++stats_.packets_generated;
  if (cycle >= params_.warmup_cycles) {
    ++measured_created_;
    stats_.window_flits_offered_by_source[static_cast<std::size_t>(node)] += static_cast<std::uint64_t>(flits);
  }
  return msg;
}

void TrafficGenerator::check_delivered(int node, int src, int dst, std::uint32_t message_id, const std::uint8_t* payload,
                                       std::size_t bytes, std::uint64_t created, std::uint64_t head_injected,
                                       std::uint32_t hops, std::uint64_t cycle) {
  TrafficStats& s = stats_;
  if (dst != node) s.errors.push_back("packet " + std::to_string(message_id) + " from node " + std::to_string(src) +
                                      " for node " + std::to_string(dst) + " ejected at node " + std::to_string(node));
  for (std::uint32_t b = 0; b < bytes; ++b)
    if (payload[b] != payload_byte(src, message_id, b)) {
      s.errors.push_back("packet " + std::to_string(message_id) + " (" + std::to_string(src) + "->" +
                         std::to_string(dst) + "): payload byte " + std::to_string(b) + " is wrong");
      break;
    }
  ++s.packets_delivered;
  if (created >= params_.warmup_cycles && created < generation_end_cycle()) {
    ++s.measured_packets;
    s.measured_latency_sum += cycle - created;
    const std::uint64_t taken_over = created + kHandoverCycles;  // never after its head's injection
    const std::uint64_t queueing = head_injected > taken_over ? head_injected - taken_over : 0;
    s.measured_source_queueing_sum += queueing;
    s.measured_network_latency_sum += cycle - created - queueing;
    s.measured_latencies.push_back(static_cast<std::uint32_t>(cycle - created));
    s.measured_flits_sum += 1 + (bytes + network_.params().flit_bytes - 1) / network_.params().flit_bytes;
    s.measured_hops_sum += hops;
    s.measured_minimal_hops_sum += static_cast<std::uint64_t>(network_.topology().distance(src, dst));
  }
}

void TrafficGenerator::count_delivered_flits(int src, std::uint64_t flits, std::uint64_t cycle) {
  stats_.flits_delivered += flits;
  if (cycle >= params_.warmup_cycles && cycle < generation_end_cycle()) {
    stats_.window_flits_delivered += flits;
    stats_.window_flits_accepted_by_source[static_cast<std::size_t>(src)] += flits;
  }
}

class TrafficGenerator::Endpoint : public NetworkEndpoint {
 public:
  Endpoint(TrafficGenerator& owner, Network& network, int node)
      : owner_(owner),
        network_(network),
        node_(node),
        packetizer_(network.params(), network.packets()),
        depacketizer_(network.num_injection_channels(), network.params().vcs, network.packets()) {}

  bool step(std::uint64_t cycle) override {
    owner_.create_packets(node_, next_message_id_, cycle,
                          [this](OutgoingMessage&& msg) { packetizer_.enqueue(std::move(msg)); });
    Flit flit;
    int finished = -1;
    if (packetizer_.next_flit(cycle, flit, finished)) network_.inject(node_, 0, flit, cycle);
    return cycle < owner_.generation_end_cycle() || !packetizer_.idle();
  }

  void eject(int channel, const Flit& flit, std::uint64_t cycle) override {
    network_.return_ejection_credit(node_, channel, flit.vc);  // a sink consumes every flit at once
    owner_.count_delivered_flits(network_.packets().at(flit.tag).src, 1, cycle);  // its packet's record is open
    ReceivedPacket packet;
    std::string error;
    if (!depacketizer_.accept(channel, flit, packet, error)) {
      if (!error.empty()) owner_.stats_.errors.push_back("node " + std::to_string(node_) + ": " + error);
      return;
    }
    // The packet has left the network: its host record is read and closed.
    const PacketRecord h = network_.packets().at(packet.header.tag);
    network_.packets().close(packet.header.tag);
    owner_.check_delivered(node_, h.src, packet.header.dst, h.message_id, packet.payload.data(), packet.payload.size(),
                           h.created_cycle, h.head_injected_cycle, h.hops, cycle);
  }

  void injection_credit(int channel, int vc) override {
    if (channel == 0) packetizer_.return_credit(vc);
  }

  std::vector<std::string> describe_pending() const override {
    if (packetizer_.idle()) return {};
    return {"node " + std::to_string(node_) + " source queue: " + std::to_string(packetizer_.queued_messages()) +
            " packet(s) waiting"};
  }

 private:
  TrafficGenerator& owner_;
  Network& network_;
  int node_;
  Packetizer packetizer_;
  Depacketizer depacketizer_;
  std::uint32_t next_message_id_ = 0;
};

// A node's source and sink on the transaction-level network: each packet one transaction.
class TrafficGenerator::TransactionSource {
 public:
  TransactionSource(TrafficGenerator& owner, TransactionNetwork& network, int node)
      : owner_(owner),
        node_(node),
        port_(("traffic_port" + std::to_string(node)).c_str(), network.num_injection_channels(), network.clock_period(),
              [](int) {},
              [this](const NetworkMessage& m, const std::uint8_t* bytes, std::uint32_t length) { arrived(m, bytes, length); }) {
    network.attach(node, port_, [this] { return describe_pending(); });
  }

  void step(std::uint64_t cycle) {
    owner_.create_packets(node_, next_message_id_, cycle, [this](OutgoingMessage&& msg) { port_.send(0, std::move(msg)); });
  }

 private:
  void arrived(const NetworkMessage& m, const std::uint8_t* bytes, std::uint32_t length) {
    const std::uint64_t cycle = owner_.network_.current_cycle();
    owner_.count_delivered_flits(
        m.source, 1 + (length + owner_.network_.params().flit_bytes - 1) / owner_.network_.params().flit_bytes, cycle);
    owner_.check_delivered(node_, m.source, m.destination, m.message_id, bytes, length, m.created_cycle,
                           m.head_injected_cycle, m.hops, cycle);
  }
  std::vector<std::string> describe_pending() const {
    if (port_.messages_sending(0) == 0) return {};
    return {"node " + std::to_string(node_) + " source queue: " + std::to_string(port_.messages_sending(0)) +
            " packet(s) not yet injected"};
  }

  TrafficGenerator& owner_;
  int node_;
  TransactionPort port_;
  std::uint32_t next_message_id_ = 0;
};

// The transaction-level sources' draws, every cycle of the generation window, node after node.
class TrafficGenerator::GenerationClock : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(GenerationClock);
  GenerationClock(sc_core::sc_module_name name, TrafficGenerator& owner, sc_core::sc_time period)
      : sc_core::sc_module(name), owner_(owner), period_(period) {
    SC_METHOD(tick);
    sensitive << tick_;
    dont_initialize();
  }
  void start() { tick_.notify(sc_core::SC_ZERO_TIME); }

 private:
  void tick() {
    const auto cycle = static_cast<std::uint64_t>(sc_core::sc_time_stamp() / period_);
    for (auto& source : owner_.sources_) source->step(cycle);
    if (cycle + 1 < owner_.generation_end_cycle()) tick_.notify(period_);
  }

  TrafficGenerator& owner_;
  sc_core::sc_time period_;
  sc_core::sc_event tick_;
};

TrafficGenerator::TrafficGenerator(Interconnect& network, const TrafficParams& params)
    : network_(network),
      params_(params),
      rng_(params.seed),
      destinations_(network.topology(), params.pattern, params.include_self, params.hotspot_node,
                    params.hotspot_fraction, params.seed) {
  const std::vector<double> size_weights = params.size_weights();
  size_draw_ = std::discrete_distribution<int>(size_weights.begin(), size_weights.end());
  packet_rate_ = params.flits_per_node_per_cycle / params.mean_packet_flits();
  if (!params.trace.empty()) {
    trace_by_source_.resize(static_cast<std::size_t>(network.topology().num_nodes()));
    trace_next_.assign(trace_by_source_.size(), 0);
    for (const TracePacket& packet : params.trace) trace_by_source_[static_cast<std::size_t>(packet.source)].push_back(packet);
  }
  const auto nodes = static_cast<std::size_t>(network.topology().num_nodes());
  stats_.window_flits_offered_by_source.assign(nodes, 0);
  stats_.window_flits_accepted_by_source.assign(nodes, 0);
  if (params.injection == TrafficInjection::OnOff)  // each source starts in its stationary state
    for (int node = 0; node < network.topology().num_nodes(); ++node)
      source_on_.push_back(std::uniform_real_distribution<double>(0.0, 1.0)(rng_) <
                           params.burst_cycles / (params.burst_cycles + params.idle_cycles));
  if (auto* flits = dynamic_cast<Network*>(&network)) {
    for (int n = 0; n < network.topology().num_nodes(); ++n) {
      endpoints_.push_back(std::make_unique<Endpoint>(*this, *flits, n));
      flits->attach(n, endpoints_.back().get());
    }
    return;
  }
  auto& transactions = dynamic_cast<TransactionNetwork&>(network);
  for (int n = 0; n < network.topology().num_nodes(); ++n)
    sources_.push_back(std::make_unique<TransactionSource>(*this, transactions, n));
  clock_ = std::make_unique<GenerationClock>("traffic_generation", *this, transactions.clock_period());
}

TrafficGenerator::~TrafficGenerator() = default;

void TrafficGenerator::start() {
  if (clock_) {
    clock_->start();
    return;
  }
  auto& flits = dynamic_cast<Network&>(network_);
  for (int n = 0; n < network_.topology().num_nodes(); ++n) flits.wake(n);
}

double TrafficGenerator::average_latency() const {
  return stats_.measured_packets ? static_cast<double>(stats_.measured_latency_sum) / stats_.measured_packets : 0.0;
}

double TrafficGenerator::average_source_queueing_latency() const {
  return stats_.measured_packets ? static_cast<double>(stats_.measured_source_queueing_sum) / stats_.measured_packets
                                 : 0.0;
}

double TrafficGenerator::average_network_latency() const {
  return stats_.measured_packets ? static_cast<double>(stats_.measured_network_latency_sum) / stats_.measured_packets
                                 : 0.0;
}

double TrafficGenerator::average_hops() const {
  return stats_.measured_packets ? static_cast<double>(stats_.measured_hops_sum) / stats_.measured_packets : 0.0;
}

double TrafficGenerator::average_packet_flits() const {
  return stats_.measured_packets ? static_cast<double>(stats_.measured_flits_sum) / stats_.measured_packets : 0.0;
}

double TrafficGenerator::average_minimal_hops() const {
  return stats_.measured_packets ? static_cast<double>(stats_.measured_minimal_hops_sum) / stats_.measured_packets
                                 : 0.0;
}

std::vector<double> TrafficGenerator::offered_flits_per_cycle_by_source() const {
  std::vector<double> rates;
  for (const std::uint64_t flits : stats_.window_flits_offered_by_source)
    rates.push_back(static_cast<double>(flits) / static_cast<double>(params_.measure_cycles));
  return rates;
}

std::vector<double> TrafficGenerator::accepted_flits_per_cycle_by_source() const {
  std::vector<double> rates;
  for (const std::uint64_t flits : stats_.window_flits_accepted_by_source)
    rates.push_back(static_cast<double>(flits) / static_cast<double>(params_.measure_cycles));
  return rates;
}

double TrafficGenerator::accepted_flits_per_node_per_cycle() const {
  return static_cast<double>(stats_.window_flits_delivered) /
         (static_cast<double>(params_.measure_cycles) * network_.topology().num_nodes());
}

}  // namespace meshmp
