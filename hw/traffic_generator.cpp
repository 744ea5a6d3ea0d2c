// Synthetic traffic patterns. See traffic_generator.h.
#include "hw/traffic_generator.h"

#include <algorithm>
#include <cmath>

#include "topology/config_error.h"

namespace meshmp {

TrafficPattern parse_traffic_pattern(const std::string& name) {
  if (name == "uniform") return TrafficPattern::Uniform;
  if (name == "transpose") return TrafficPattern::Transpose;
  if (name == "bit-complement") return TrafficPattern::BitComplement;
  if (name == "hotspot") return TrafficPattern::Hotspot;
  if (name == "neighbour" || name == "neighbor") return TrafficPattern::Neighbour;
  throw ConfigError("traffic.pattern", name, "expected uniform, transpose, bit-complement, hotspot or neighbour");
}

std::string to_string(TrafficPattern pattern) {
  switch (pattern) {
    case TrafficPattern::Uniform: return "uniform";
    case TrafficPattern::Transpose: return "transpose";
    case TrafficPattern::BitComplement: return "bit-complement";
    case TrafficPattern::Hotspot: return "hotspot";
    case TrafficPattern::Neighbour: return "neighbour";
  }
  return "?";
}

std::optional<std::string> TrafficParams::validate(const Topology& topology) const {
  auto bad = [](const std::string& field, const std::string& value, const std::string& rule) {
    return std::optional<std::string>(ConfigError(field, value, rule).what());
  };
  const int n = topology.num_nodes();
  if (!(flits_per_node_per_cycle > 0 && flits_per_node_per_cycle <= 1))
    return bad("traffic.rate", std::to_string(flits_per_node_per_cycle), "must be in (0, 1] flits/node/cycle");
  if (packet_flits < 1 || packet_flits > 4097)
    return bad("traffic.packet_flits", std::to_string(packet_flits), "must be 1..4097 (head included)");
  if (measure_cycles < 1) return bad("traffic.measure_cycles", "0", "must be at least 1");
  if (pattern == TrafficPattern::Transpose &&
      (topology.num_dimensions() != 2 || topology.dimension(0).size != topology.dimension(1).size))
    return bad("traffic.pattern", "transpose", "needs a square 2-D topology (node (x,y) sends to (y,x)); " +
                                                   topology.spec() + " is not");
  if (pattern == TrafficPattern::BitComplement && (n & (n - 1)) != 0)
    return bad("traffic.pattern", "bit-complement", "needs a power-of-two number of nodes; " + topology.spec() +
                                                        " has " + std::to_string(n));
  if (pattern == TrafficPattern::Hotspot && (hotspot_node < 0 || hotspot_node >= n))
    return bad("traffic.hotspot_node", std::to_string(hotspot_node), "must be a node, 0.." + std::to_string(n - 1));
  if (pattern == TrafficPattern::Hotspot && !(hotspot_fraction >= 0 && hotspot_fraction <= 1))
    return bad("traffic.hotspot_fraction", std::to_string(hotspot_fraction), "must be 0..1");
  if (pattern == TrafficPattern::Uniform && !include_self && n < 2)
    return bad("traffic.include_self", "false", "a single node has no other destination");
  return std::nullopt;
}
namespace {
std::uint8_t payload_byte(int src, std::uint32_t message_id, std::uint32_t index) {
  return static_cast<std::uint8_t>(src * 7 + message_id * 13 + index * 3 + (index >> 8));
}
}  // namespace

class TrafficGenerator::Endpoint : public NetworkEndpoint {
 public:
  Endpoint(TrafficGenerator& owner, int node)
      : owner_(owner),
        node_(node),
        packetizer_(owner.network_.params(), owner.network_.packets()),
        depacketizer_(owner.network_.num_injection_channels(), owner.network_.params().vcs, owner.network_.packets()) {}

  bool step(std::uint64_t cycle) override {
    const TrafficParams& p = owner_.params_;
    if (cycle < owner_.generation_end_cycle()) {
      const double packet_rate = p.flits_per_node_per_cycle / p.packet_flits;
      if (std::uniform_real_distribution<double>(0.0, 1.0)(owner_.rng_) < packet_rate) {
        OutgoingMessage msg;
        msg.src = node_;
        msg.dst = owner_.destination(node_);
        msg.message_id = next_message_id_++;
        msg.payload.resize(static_cast<std::size_t>(p.packet_flits - 1) * owner_.network_.params().flit_bytes);
        for (std::uint32_t b = 0; b < msg.payload.size(); ++b) msg.payload[b] = payload_byte(node_, msg.message_id, b);
        // The source's interface takes the packet in the cycle after its creation, as a node's DMA engine
        // starts a descriptor the cycle after it is written (and as BookSim2's sources write a flit into
        // their 1-cycle injection channel in the creation cycle: the same 2 cycles to the router's buffer).
        msg.created_cycle = cycle;
        msg.ready_cycle = cycle + 1;
        packetizer_.enqueue(std::move(msg));
        ++owner_.stats_.packets_generated;
        if (cycle >= p.warmup_cycles) ++owner_.measured_created_;
      }
    }
    Flit flit;
    int finished = -1;
    if (packetizer_.next_flit(cycle, flit, finished))
      owner_.network_.inject(node_, 0, flit, cycle);
    return cycle < owner_.generation_end_cycle() || !packetizer_.idle();
  }

  void eject(int channel, const Flit& flit, std::uint64_t cycle) override {
    owner_.network_.return_ejection_credit(node_, channel, flit.vc);  // a sink consumes every flit at once
    TrafficStats& s = owner_.stats_;
    ++s.flits_delivered;
    const TrafficParams& p = owner_.params_;
    if (cycle >= p.warmup_cycles && cycle < owner_.generation_end_cycle()) ++s.window_flits_delivered;
    ReceivedPacket packet;
    std::string error;
    if (!depacketizer_.accept(channel, flit, packet, error)) {
      if (!error.empty()) s.errors.push_back("node " + std::to_string(node_) + ": " + error);
      return;
    }
    // The packet has left the network: its host record is read and closed.
    const PacketRecord h = owner_.network_.packets().at(packet.header.tag);
    owner_.network_.packets().close(packet.header.tag);
    const int dst = packet.header.dst;
    if (dst != node_) s.errors.push_back("packet " + std::to_string(h.message_id) + " from node " + std::to_string(h.src) +
                                         " for node " + std::to_string(dst) + " ejected at node " + std::to_string(node_));
    for (std::uint32_t b = 0; b < packet.payload.size(); ++b)
      if (packet.payload[b] != payload_byte(h.src, h.message_id, b)) {
        s.errors.push_back("packet " + std::to_string(h.message_id) + " (" + std::to_string(h.src) + "->" +
                           std::to_string(dst) + "): payload byte " + std::to_string(b) + " is wrong");
        break;
      }
    ++s.packets_delivered;
    if (h.created_cycle >= p.warmup_cycles && h.created_cycle < owner_.generation_end_cycle()) {
      ++s.measured_packets;
      s.measured_latency_sum += cycle - h.created_cycle;
      s.measured_latencies.push_back(static_cast<std::uint32_t>(cycle - h.created_cycle));
      s.measured_hops_sum += static_cast<std::uint64_t>(owner_.network_.topology().distance(h.src, dst));
    }
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
  int node_;
  Packetizer packetizer_;
  Depacketizer depacketizer_;
  std::uint32_t next_message_id_ = 0;
};

TrafficGenerator::TrafficGenerator(Network& network, const TrafficParams& params)
    : network_(network), params_(params), rng_(params.seed) {
  for (int n = 0; n < network.topology().num_nodes(); ++n) {
    endpoints_.push_back(std::make_unique<Endpoint>(*this, n));
    network.attach(n, endpoints_.back().get());
  }
}

TrafficGenerator::~TrafficGenerator() = default;

void TrafficGenerator::start() {
  for (int n = 0; n < network_.topology().num_nodes(); ++n) network_.wake(n);
}

double TrafficGenerator::average_latency() const {
  return stats_.measured_packets ? static_cast<double>(stats_.measured_latency_sum) / stats_.measured_packets : 0.0;
}

int TrafficGenerator::destination(int src) {
  const Topology& t = network_.topology();
  const int n = t.num_nodes();
  auto uniform = [&] {
    if (params_.include_self) return std::uniform_int_distribution<int>(0, n - 1)(rng_);
    const int d = std::uniform_int_distribution<int>(0, n - 2)(rng_);
    return d >= src ? d + 1 : d;
  };
  switch (params_.pattern) {
    case TrafficPattern::Uniform: return uniform();
    case TrafficPattern::Transpose: return t.node_at({t.coordinate(src, 1), t.coordinate(src, 0)});
    case TrafficPattern::BitComplement: return (n - 1) ^ src;
    case TrafficPattern::Hotspot:
      return std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < params_.hotspot_fraction ? params_.hotspot_node
                                                                                               : uniform();
    case TrafficPattern::Neighbour: {
      std::vector<int> c = t.coordinates(src);
      c[0] = (c[0] + 1) % t.dimension(0).size;
      return t.node_at(c);
    }
  }
  return src;
}

double TrafficGenerator::latency_percentile(double q) const {
  auto values = stats_.measured_latencies;
  if (values.empty()) return 0;
  const auto k = static_cast<std::size_t>(std::ceil(q * values.size())) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(std::min(k, values.size() - 1)), values.end());
  return values[std::min(k, values.size() - 1)];
}

double TrafficGenerator::average_hops() const {
  return stats_.measured_packets ? static_cast<double>(stats_.measured_hops_sum) / stats_.measured_packets : 0.0;
}

double TrafficGenerator::accepted_flits_per_node_per_cycle() const {
  return static_cast<double>(stats_.window_flits_delivered) /
         (static_cast<double>(params_.measure_cycles) * network_.topology().num_nodes());
}

}  // namespace meshmp
