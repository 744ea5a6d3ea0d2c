// The transport for a network's level of fidelity (hw/node/message_transport.h): the one place the
// network interface's code depends on which network it sits on.
#include "hw/node/flit_transport.h"
#include "hw/node/message_transport.h"
#include "hw/node/transaction_transport.h"

namespace meshmp {

std::unique_ptr<MessageTransport> make_message_transport(int node, Interconnect& network, ReceiveMatcher& matcher,
                                                         TransportClient& client) {
  if (auto* flits = dynamic_cast<Network*>(&network))
    return std::make_unique<FlitTransport>(node, *flits, matcher, client);
  return std::make_unique<TransactionTransport>(node, dynamic_cast<TransactionNetwork&>(network), matcher, client);
}

}  // namespace meshmp
