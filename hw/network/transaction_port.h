// A node's network interface toward the transaction-level router network (hw/network/transaction_network.h):
// its injection channels as TLM-2.0 initiator bindings and its ejection side as a target, carrying whole
// messages as tlm/network_message.h describes. A channel's sends wait as the interface made them; the one
// it hands over goes into a generic payload from a pool the port manages as their memory manager, which
// returns to it when both the sender (its send complete) and the network (the message delivered) have
// released it: the pool holds the messages in the network, not every send waiting behind them.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/network/packetizer.h"
#include "tlm/network_message.h"

namespace meshmp {

class TransactionPort : public sc_core::sc_module, public tlm::tlm_mm_interface {
 public:
  tlm_utils::multi_passthrough_initiator_socket<TransactionPort> out;  // binding c: injection channel c
  tlm_utils::simple_target_socket<TransactionPort> in;                 // the messages arriving here

  // `sent(descriptor)`: the channel injected the message's last flit. `arrived(message, bytes, length)`:
  // a message's last flit reached this node; its bytes are valid during the call.
  using SentCallback = std::function<void(int descriptor)>;
  using ArrivalCallback =
      std::function<void(const NetworkMessage& message, const std::uint8_t* bytes, std::uint32_t length)>;
  TransactionPort(sc_core::sc_module_name name, int channels, sc_core::sc_time clock_period, SentCallback sent,
                  ArrivalCallback arrived);

  // Queues a message on `channel` (OutgoingMessage::ready_cycle: when the DMA engine may start it there).
  // A channel hands the network one message at a time, the next when the last flit of the one before is
  // injected: the network then holds at most a message per channel ahead of the present, and computes
  // messages about in the order of the cycles they start at.
  void send(int channel, OutgoingMessage message);
  int channels() const { return static_cast<int>(channels_.size()); }
  // The sends of `channel` not complete yet, and their bytes.
  std::uint32_t bytes_sending(int channel) const;
  std::size_t messages_sending(int channel) const;
  // The pooled payloads ever allocated: the most messages of this node in the network at once.
  std::size_t payloads_allocated() const { return pool_.size(); }
  // An empty buffer for the bytes of a message this node sends next: one a delivered message of a few
  // bytes left behind (no heap allocation per message), or a new one.
  std::vector<std::uint8_t> take_buffer();
  // The buffers take_buffer() made new (not recycled).
  std::size_t buffers_allocated() const { return buffers_allocated_; }
  // What send descriptor `id` is, when it is one of the port's incomplete sends ("" otherwise).
  std::string describe_descriptor(int id) const;

  // tlm_mm_interface: a payload whose last reference was released returns to the pool.
  void free(tlm::tlm_generic_payload* payload) override;

 private:
  // A pooled payload with the bytes it carries and the descriptor it completes.
  struct Transaction : tlm::tlm_generic_payload {
    explicit Transaction(tlm::tlm_mm_interface* mm) : tlm::tlm_generic_payload(mm) {}
    std::vector<std::uint8_t> bytes;
    NetworkMessage* message = nullptr;  // its extension
    int descriptor = -1;
  };

  // A channel: the send handed to the network and not injected yet, and those waiting behind it.
  struct Channel {
    Transaction* injecting = nullptr;
    std::deque<OutgoingMessage> waiting;
  };

  // Puts `message` into a pooled payload and hands it to the network on `channel` (BEGIN_REQ), with the
  // delay until it may start.
  void hand_over(int channel, OutgoingMessage message);

  tlm::tlm_sync_enum nb_transport_bw(int channel, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  static std::string describe(int destination, std::uint32_t tag, std::size_t bytes);

  sc_core::sc_time period_;
  SentCallback sent_;
  ArrivalCallback arrived_;
  std::vector<Channel> channels_;
  std::vector<std::unique_ptr<Transaction>> pool_;
  std::vector<Transaction*> free_;
  // Delivered messages' byte buffers, emptied, for take_buffer(): those of at most kSpareBufferBytes,
  // and no more of them than the pooled payloads (larger ones go back to the heap).
  static constexpr std::size_t kSpareBufferBytes = 1024;
  std::vector<std::vector<std::uint8_t>> spare_buffers_;
  std::size_t buffers_allocated_ = 0;
};

}  // namespace meshmp
