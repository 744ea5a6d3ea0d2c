// Synthetic uniform random traffic. See traffic_generator.h.
#include "hw/traffic_generator.h"

namespace meshmp {
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
        packetizer_(owner.network_.params(), static_cast<std::uint64_t>(node) << 32),
        depacketizer_(owner.network_.num_injection_channels(), owner.network_.params().vcs) {}

  bool step(std::uint64_t cycle) override {
    const TrafficParams& p = owner_.params_;
    const int nodes = owner_.network_.topology().num_nodes();
    if (cycle < owner_.generation_end_cycle()) {
      const double packet_rate = p.flits_per_node_per_cycle / p.packet_flits;
      if (std::uniform_real_distribution<double>(0.0, 1.0)(owner_.rng_) < packet_rate) {
        OutgoingMessage msg;
        msg.src = node_;
        int dst = static_cast<int>(std::uniform_int_distribution<int>(0, nodes - 2)(owner_.rng_));
        msg.dst = dst >= node_ ? dst + 1 : dst;
        msg.message_id = next_message_id_++;
        msg.payload.resize(static_cast<std::size_t>(p.packet_flits - 1) * owner_.network_.params().flit_bytes);
        for (std::uint32_t b = 0; b < msg.payload.size(); ++b) msg.payload[b] = payload_byte(node_, msg.message_id, b);
        msg.created_cycle = msg.ready_cycle = cycle;
        packetizer_.enqueue(std::move(msg));
        ++owner_.stats_.packets_generated;
      }
    }
    Flit flit;
    int finished = -1;
    if (packetizer_.next_flit(cycle, flit, finished))
      owner_.network_.inject(node_, 0, flit, cycle);
    return cycle < owner_.generation_end_cycle() || !packetizer_.idle();
  }

  void eject(int channel, const Flit& flit, std::uint64_t cycle) override {
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
    const Flit& h = packet.header;
    if (h.dst != node_) s.errors.push_back("packet " + std::to_string(h.packet_id) + " for node " + std::to_string(h.dst) +
                                           " ejected at node " + std::to_string(node_));
    for (std::uint32_t b = 0; b < packet.payload.size(); ++b)
      if (packet.payload[b] != payload_byte(h.src, h.message_id, b)) {
        s.errors.push_back("packet " + std::to_string(h.packet_id) + " (" + std::to_string(h.src) + "->" +
                           std::to_string(h.dst) + "): payload byte " + std::to_string(b) + " is wrong");
        break;
      }
    ++s.packets_delivered;
    if (h.created_cycle >= p.warmup_cycles && h.created_cycle < owner_.generation_end_cycle()) {
      ++s.measured_packets;
      s.measured_latency_sum += cycle - h.created_cycle;
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

double TrafficGenerator::accepted_flits_per_node_per_cycle() const {
  return static_cast<double>(stats_.window_flits_delivered) /
         (static_cast<double>(params_.measure_cycles) * network_.topology().num_nodes());
}

}  // namespace meshmp
