// How a node's network interface moves whole messages into and out of the network, at either level of
// fidelity (hw/network/interconnect.h): the flit transport (hw/node/flit_transport.h) cuts each message
// into packets of flits on the cycle-level network and reassembles the ones ejected; the transaction
// transport (hw/node/transaction_transport.h) hands each message over as one TLM-2.0 transaction and takes
// arriving messages whole. Both hand what arrives to the interface's ReceiveMatcher and tell the
// interface (a TransportClient) when a send is done; the interface above them is one code for both.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/network/interconnect.h"
#include "hw/network/packetizer.h"
#include "hw/node/receive_matcher.h"

namespace meshmp {

// What a transport tells the network interface it serves.
class TransportClient {
 public:
  virtual ~TransportClient() = default;
  // The last flit of send descriptor `descriptor` was injected: the send is complete.
  virtual void send_finished(std::uint32_t descriptor) = 0;
  // What a waveform probe shows may have changed.
  virtual void transport_changed() = 0;
  // The interface's state, for the network's deadlock and stall reports.
  virtual std::vector<std::string> describe_pending() const = 0;
};

class MessageTransport {
 public:
  virtual ~MessageTransport() = default;
  // Injection channels (and ejection channels).
  virtual int channels() const = 0;
  // An empty buffer for the bytes of the next message sent: one recycled from a message delivered
  // (transaction level), or a new one.
  virtual std::vector<std::uint8_t> payload_buffer() { return {}; }
  // Queues `message` on injection channel `channel`.
  virtual void send(int channel, OutgoingMessage message) = 0;
  // A receive was posted: an arrival held back for buffer room may match it now.
  virtual void receive_posted() {}
  // Stall reports, prefixed `me`: what the injection channels hold, and (after the posted receives) what
  // waits at the ejection channels.
  virtual void describe_injection(const std::string& me, std::vector<std::string>& lines) const = 0;
  virtual void describe_ejection(const std::string& /*me*/, std::vector<std::string>& /*lines*/) const {}
  // What send descriptor `id` is while it is queued ("send to node 3 tag 1 (64 bytes)"); "" otherwise.
  virtual std::string describe_send(std::uint32_t id) const = 0;
  // Waveform probe: the sends queued on all channels and their bytes not yet injected.
  virtual void count_queued(unsigned& sends, unsigned& bytes) const = 0;
  // The generic payloads ever allocated (transaction level; 0 otherwise).
  virtual std::size_t payloads_allocated() const { return 0; }
  // The message byte buffers payload_buffer() made new rather than recycled (transaction level; 0 otherwise).
  virtual std::size_t payload_buffers_allocated() const { return 0; }
};

// The transport for `network`'s level of fidelity, serving node `node`: it attaches itself to the network.
std::unique_ptr<MessageTransport> make_message_transport(int node, Interconnect& network, ReceiveMatcher& matcher,
                                                         TransportClient& client);

}  // namespace meshmp
