// How a message crosses the transaction-level router network (hw/network/transaction_network.h) as one TLM-2.0
// transaction, approximately timed (base protocol, nb_transport):
//  - The sending network interface is the initiator. For every message its DMA engine starts, it calls
//    nb_transport_fw(BEGIN_REQ) on the binding of the message's injection channel with a generic payload:
//    TLM_WRITE_COMMAND, address 0 (the receiver's DMA engine decides where the bytes land), the message's
//    bytes as data, streaming width = length, no byte enables, a memory manager, and a NetworkMessage
//    extension (below). The delay annotated is the time until the DMA engine may start it. The network
//    takes the request at once: it answers TLM_UPDATED with END_REQ. A channel has one message in the
//    network at a time: the interface hands over the next when the BEGIN_RESP of the one before arrives
//    (the channel sends its messages in that order).
//  - BEGIN_RESP comes back (nb_transport_bw) at the cycle the channel injects the message's last flit: the
//    send is complete. The initiator answers TLM_COMPLETED and releases the payload.
//  - At the cycle the last flit would be ejected at the destination, the network (which holds a reference
//    to the payload until then) forwards it to the receiving interface with nb_transport_fw(BEGIN_REQ);
//    the receiver copies the bytes and answers TLM_COMPLETED with TLM_OK_RESPONSE.
#pragma once

#include <tlm>

#include <cstdint>
#include <vector>

#include "tlm/zero_load_stamp.h"

namespace meshmp {

struct NetworkMessage : tlm::tlm_extension<NetworkMessage> {
  int source = 0;
  int destination = 0;
  std::uint32_t tag = 0;
  std::uint32_t message_id = 0;       // the source's sequence number of the message to its destination
  std::uint32_t step = 0;             // the sender's STEP_MARK (statistics)
  std::vector<std::uint8_t> route;    // source route (output ports); empty: the routing function's
  std::uint64_t created_cycle = 0;    // when the DMA engine took the descriptor (latency statistics)
  std::uint64_t startup_cycles = 0;   // the channel's start-up before the first flit (node.startup_on = channel)
  std::uint64_t blocked_cycles = 0;   // set by the network: header blocking met on the way
  std::uint32_t hops = 0;             // set by the network: the links its first packet's head crossed
  std::uint64_t head_injected_cycle = 0;  // set by the network: when its first packet's head entered the
                                          // injection channel (it left the source's queue)
  ZeroLoadStamp zero_load;                // the zero-load model's prediction (tlm/zero_load_stamp.h)

  tlm::tlm_extension_base* clone() const override { return new NetworkMessage(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const NetworkMessage&>(other);
  }
};

}  // namespace meshmp
