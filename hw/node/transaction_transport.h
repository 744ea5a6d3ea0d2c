// A network interface's transport on the transaction-level router network (hw/network/transaction_network.h):
// a TransactionPort hands each message over as one TLM-2.0 transaction and takes arriving messages whole
// (their bytes land when the last packet's would), giving each to the receive matcher as one packet of the
// whole message.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/network/transaction_network.h"
#include "hw/network/transaction_port.h"
#include "hw/node/message_transport.h"

namespace meshmp {

class TransactionTransport : public MessageTransport {
 public:
  TransactionTransport(int node, TransactionNetwork& network, ReceiveMatcher& matcher, TransportClient& client);

  int channels() const override { return port_.channels(); }
  std::vector<std::uint8_t> payload_buffer() override { return port_.take_buffer(); }
  void send(int channel, OutgoingMessage message) override { port_.send(channel, std::move(message)); }
  void describe_injection(const std::string& me, std::vector<std::string>& lines) const override;
  std::string describe_send(std::uint32_t id) const override;
  void count_queued(unsigned& sends, unsigned& bytes) const override;
  std::size_t payloads_allocated() const override { return port_.payloads_allocated(); }
  std::size_t payload_buffers_allocated() const override { return port_.buffers_allocated(); }

 private:
  // A whole message arrived.
  void arrived(const NetworkMessage& message, const std::uint8_t* bytes, std::uint32_t length);

  TransactionNetwork& network_;
  ReceiveMatcher& matcher_;
  TransactionPort port_;
};

}  // namespace meshmp
