// A network interface's transport on the transaction-level network. See transaction_transport.h.
#include "hw/node/transaction_transport.h"

namespace meshmp {

TransactionTransport::TransactionTransport(int node, TransactionNetwork& network, ReceiveMatcher& matcher,
                                           TransportClient& client)
    : network_(network),
      matcher_(matcher),
      port_("network_port", network.num_injection_channels(), network.clock_period(),
            [&client](int descriptor) {
              client.send_finished(static_cast<std::uint32_t>(descriptor));
              client.transport_changed();
            },
            [this](const NetworkMessage& message, const std::uint8_t* bytes, std::uint32_t length) {
              arrived(message, bytes, length);
            }) {
  network.attach(node, port_, [&client] { return client.describe_pending(); });
}

void TransactionTransport::arrived(const NetworkMessage& message, const std::uint8_t* bytes, std::uint32_t length) {
  PacketRecord whole;
  whole.src = message.source;
  whole.message_id = message.message_id;
  whole.message_tag = message.tag;
  whole.message_offset = 0;
  whole.message_bytes = length;
  whole.created_cycle = message.created_cycle;
  whole.head_injected_cycle = message.head_injected_cycle;
  whole.blocked_cycles = message.blocked_cycles;
  whole.step = message.step;
  whole.zero_load = message.zero_load;
  matcher_.deliver(whole, bytes, length, network_.current_cycle());
}

void TransactionTransport::describe_injection(const std::string& me, std::vector<std::string>& lines) const {
  for (int c = 0; c < port_.channels(); ++c)
    if (port_.messages_sending(c) > 0)
      lines.push_back(me + "injection channel " + std::to_string(c) + " holds " +
                      std::to_string(port_.messages_sending(c)) + " message(s), " +
                      std::to_string(port_.bytes_sending(c)) + " bytes not yet injected");
}

std::string TransactionTransport::describe_send(std::uint32_t id) const {
  return port_.describe_descriptor(static_cast<int>(id));
}

void TransactionTransport::count_queued(unsigned& sends, unsigned& bytes) const {
  sends = 0;
  bytes = 0;
  for (int c = 0; c < port_.channels(); ++c) {
    sends += static_cast<unsigned>(port_.messages_sending(c));
    bytes += port_.bytes_sending(c);
  }
}

}  // namespace meshmp
