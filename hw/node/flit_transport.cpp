// A network interface's transport on the cycle-level network. See flit_transport.h.
#include "hw/node/flit_transport.h"

#include <algorithm>

namespace meshmp {

FlitTransport::FlitTransport(int node, Network& network, ReceiveMatcher& matcher, TransportClient& client)
    : node_(node),
      network_(network),
      matcher_(matcher),
      client_(client),
      depacketizer_(network.num_injection_channels(), network.params().vcs, network.packets()),
      ejected_(static_cast<std::size_t>(network.num_injection_channels())) {
  for (int c = 0; c < network.num_injection_channels(); ++c)
    packetizers_.push_back(std::make_unique<Packetizer>(network.params(), network.packets()));
  network.attach(node, this);
}

void FlitTransport::send(int channel, OutgoingMessage message) {
  packetizers_[channel]->enqueue(std::move(message));
  network_.wake(node_);
}

void FlitTransport::receive_posted() {
  for (const auto& channel : ejected_)
    if (!channel.empty()) network_.wake(node_);  // a head waiting for buffer room may now be matched
}

bool FlitTransport::step(std::uint64_t cycle) {
  bool busy = false;
  for (std::size_t c = 0; c < packetizers_.size(); ++c) {
    Packetizer& p = *packetizers_[c];
    Flit flit;
    int finished = -1;
    if (p.next_flit(cycle, flit, finished)) network_.inject(node_, static_cast<int>(c), flit, cycle);
    if (finished >= 0) client_.send_finished(static_cast<std::uint32_t>(finished));
    busy |= !p.idle();
  }
  for (std::size_t c = 0; c < ejected_.size(); ++c) {
    drain_ejection(static_cast<int>(c), cycle);
    busy |= !ejected_[c].empty();
  }
  client_.transport_changed();
  return busy;
}

std::uint64_t FlitTransport::next_work_cycle(std::uint64_t cycle) const {
  for (const auto& waiting : ejected_)
    if (!waiting.empty()) return cycle + 1;  // a blocked flit tries again every cycle
  std::uint64_t next = UINT64_MAX;
  for (const auto& p : packetizers_) next = std::min(next, p->next_work_cycle(cycle));
  return next;
}

void FlitTransport::injection_credit(int channel, int vc) { packetizers_[channel]->return_credit(vc); }

void FlitTransport::eject(int channel, const Flit& flit, std::uint64_t cycle) {
  if (flit.head && flit.dst != node_) {
    network_.report_failure("node " + std::to_string(node_) + " received packet tag " + std::to_string(flit.tag) +
                            " from node " + std::to_string(network_.packets().at(flit.tag).src) +
                            " addressed to node " + std::to_string(flit.dst));
    return;
  }
  if (ejected_[channel].empty() && consume(channel, flit, cycle)) return;
  ejected_[channel].push_back(flit);
  network_.wake(node_);  // blocked: try again every cycle
}

void FlitTransport::drain_ejection(int channel, std::uint64_t cycle) {
  auto& waiting = ejected_[channel];
  while (!waiting.empty() && consume(channel, waiting.front(), cycle)) waiting.pop_front();
}

bool FlitTransport::consume(int channel, const Flit& flit, std::uint64_t cycle) {
  if (flit.head && !matcher_.admit_head(network_.packets().at(flit.tag))) return false;
  const int vc = flit.vc;
  ReceivedPacket packet;
  std::string error;
  if (depacketizer_.accept(channel, flit, packet, error)) {
    // The packet has left the network: its host record is read and closed.
    const PacketRecord record = network_.packets().at(packet.header.tag);
    network_.packets().close(packet.header.tag);
    matcher_.deliver(record, packet.payload.data(), static_cast<std::uint32_t>(packet.payload.size()), cycle);
  } else if (!error.empty()) network_.report_failure("node " + std::to_string(node_) + ": " + error);
  network_.return_ejection_credit(node_, channel, vc);
  return true;
}

void FlitTransport::describe_injection(const std::string& me, std::vector<std::string>& lines) const {
  for (std::size_t c = 0; c < packetizers_.size(); ++c) {
    const Packetizer& p = *packetizers_[c];
    if (!p.idle())
      lines.push_back(me + "injection channel " + std::to_string(c) + " holds " + std::to_string(p.queued_messages()) +
                      " message(s), " + std::to_string(p.bytes_remaining()) + " bytes not yet injected");
  }
}

void FlitTransport::describe_ejection(const std::string& me, std::vector<std::string>& lines) const {
  for (std::size_t c = 0; c < ejected_.size(); ++c)
    if (!ejected_[c].empty()) {
      const PacketRecord& f = network_.packets().at(ejected_[c].front().tag);
      lines.push_back(me + "ejection channel " + std::to_string(c) + " holds a packet of message " +
                      std::to_string(f.message_id) + " from node " + std::to_string(f.src) + " tag " +
                      std::to_string(f.message_tag) + " (" + std::to_string(f.message_bytes) +
                      " bytes) that no posted receive matches and the unexpected-message buffer cannot take (" +
                      std::to_string(matcher_.buffer_bytes_in_use()) + " of " +
                      std::to_string(matcher_.buffer_limit_bytes()) + " bytes in use): it waits in the network");
    }
}

std::string FlitTransport::describe_send(std::uint32_t id) const {
  for (const auto& p : packetizers_)
    for (const OutgoingMessage& m : p->queue())
      if (m.descriptor == static_cast<int>(id))
        return "send to node " + std::to_string(m.dst) + " tag " + std::to_string(m.tag) + " (" +
               std::to_string(m.payload.size()) + " bytes)";
  return "";
}

void FlitTransport::count_queued(unsigned& sends, unsigned& bytes) const {
  sends = 0;
  bytes = 0;
  for (const auto& p : packetizers_) {
    sends += static_cast<unsigned>(p->queued_messages());
    bytes += p->bytes_remaining();
  }
}

}  // namespace meshmp
