// A network interface's transport on the cycle-level router network (hw/network/network.h): a packetizer per
// injection channel cuts each message into packets of flits, injected as the channel's credits allow; a
// depacketizer reassembles the packets ejected. A message's head is taken only when the receive matcher
// has room for it (a matched message, or buffer room for an unexpected one); otherwise its flits wait in
// the ejection channel and their credits are withheld, so the message waits in the network.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "hw/network/depacketizer.h"
#include "hw/network/network.h"
#include "hw/network/network_endpoint.h"
#include "hw/node/message_transport.h"

namespace meshmp {

class FlitTransport : public MessageTransport, public NetworkEndpoint {
 public:
  FlitTransport(int node, Network& network, ReceiveMatcher& matcher, TransportClient& client);

  // MessageTransport
  int channels() const override { return static_cast<int>(packetizers_.size()); }
  void send(int channel, OutgoingMessage message) override;
  void receive_posted() override;
  void describe_injection(const std::string& me, std::vector<std::string>& lines) const override;
  void describe_ejection(const std::string& me, std::vector<std::string>& lines) const override;
  std::string describe_send(std::uint32_t id) const override;
  void count_queued(unsigned& sends, unsigned& bytes) const override;

  // NetworkEndpoint
  bool step(std::uint64_t cycle) override;
  std::uint64_t next_work_cycle(std::uint64_t cycle) const override;
  void eject(int channel, const Flit& flit, std::uint64_t cycle) override;
  void injection_credit(int channel, int vc) override;
  std::vector<std::string> describe_pending() const override { return client_.describe_pending(); }

 private:
  // Consumes the flits waiting on ejection channel `channel` while it can, returning their credits.
  void drain_ejection(int channel, std::uint64_t cycle);
  // Takes one ejected flit if it can: false when it is the head of a message the matcher has no room for
  // (back-pressure). Returns the flit's credit when it took it.
  bool consume(int channel, const Flit& flit, std::uint64_t cycle);

  int node_;
  Network& network_;
  ReceiveMatcher& matcher_;
  TransportClient& client_;
  std::vector<std::unique_ptr<Packetizer>> packetizers_;  // per injection channel
  Depacketizer depacketizer_;                             // of the ejection channels
  std::vector<std::deque<Flit>> ejected_;                 // per ejection channel: flits not yet consumed
};

}  // namespace meshmp
