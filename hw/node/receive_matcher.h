// The receive side of a node's network interface: it matches arriving messages to posted receives by
// (source, tag), in the order each source sent them (MPI's non-overtaking rule: messages from one source
// to one destination are numbered in sending order and matched in that order, whatever order their
// packets arrive in), and writes their bytes into local memory. A message that arrives before its receive
// is posted waits in the interface's bounded buffer; a transport that can hold a message back in the
// network asks admit_head() first, and the matcher reserves the buffer room the message will need.
//
// Arrivals come packet by packet from the flit transport or whole from the transaction transport
// (hw/node/message_transport.h); the matcher is the same for both. State is kept for what is pending only
// (a run of millions of messages must fit in memory): a record per posted receive (linked per source,
// oldest first, reused), per message buffered and per message being written.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hw/network/packet_records.h"
#include "hw/node/message_statistics.h"
#include "hw/node/peer_table.h"

namespace meshmp {

class ReceiveMatcher {
 public:
  // What the matcher does to the node around it.
  struct Hooks {
    // Writes `length` bytes of a message at `address` of local memory.
    std::function<void(std::uint32_t address, const std::uint8_t* bytes, std::uint32_t length)> write_memory;
    // Ends the run with an error (a message whose length its receive does not expect).
    std::function<void(const std::string& error)> fail;
    // The receive descriptor `receive` is whole in memory, completed by a message with that zero-load stamp.
    std::function<void(std::uint32_t receive, const ZeroLoadStamp& zero_load)> received;
    // Something a waveform probe shows changed.
    std::function<void()> changed;
  };

  // `peers`: the nodes of the machine; `buffer_limit_bytes`: the unexpected-message buffer; every message
  // received is reported to `messages`.
  ReceiveMatcher(int node, int peers, std::uint64_t buffer_limit_bytes, MessageStatistics& messages, Hooks hooks);

  // The sequence number of the next message this node sends to `destination` (the peer table holds both
  // directions' numbers, one page per 64 peers).
  std::uint32_t take_sequence_number_to(int destination) { return peers_.at(destination).next_sequence_to++; }

  // The length of the oldest message of (source, tag) that waits in the buffer for its receive, if one does
  // (a receive posted for it must expect that length).
  std::optional<std::uint64_t> waiting_message_bytes(int source, std::uint32_t tag) const;
  // Posts receive descriptor `id`: matched at once to the oldest buffered message of (source, tag), or
  // kept until one arrives. Returns true when it was kept (an arrival held back may now match it).
  bool post(int source, std::uint32_t address, std::uint32_t length, std::uint32_t tag, std::uint32_t id);

  // The head of packet `record` is at the ejection port: false when its message needs buffer room that is
  // not free (it must wait in the network); true, reserving the room when it will need it, otherwise.
  bool admit_head(const PacketRecord& record);
  // A whole packet arrived: `record` is its host record, `payload` its `n` bytes (a transaction-level
  // message is one packet of the whole message).
  void deliver(const PacketRecord& record, const std::uint8_t* payload, std::uint32_t n, std::uint64_t cycle);

  // Stall reports: the receives posted and not matched; the messages buffered and those being written.
  void describe_posted(const std::string& me, std::vector<std::string>& lines) const;
  void describe_arrivals(const std::string& me, std::vector<std::string>& lines) const;
  // What receive descriptor `id` is ("receive from node 3 tag 1 (64 bytes)"); empty when it is not pending.
  std::string describe_receive(std::uint32_t id) const;

  std::uint32_t receives_pending() const { return static_cast<std::uint32_t>(transfers_.size()) + posted_count_; }
  std::size_t receive_records_allocated() const { return posted_pool_.size(); }
  std::uint64_t unexpected_messages() const { return unexpected_count_; }
  std::size_t unreceived_messages() const { return buffered_.size(); }
  std::uint64_t out_of_order_messages() const { return out_of_order_count_; }
  std::uint64_t peak_buffered_bytes() const { return peak_buffered_bytes_; }
  // Bytes of the buffer held or reserved, and its size.
  std::uint64_t buffer_bytes_in_use() const { return buffered_bytes_ + reserved_bytes_; }
  std::uint64_t buffer_limit_bytes() const { return buffer_limit_bytes_; }

 private:
  // A posted receive not yet matched to a message: a slot of posted_pool_, linked per source.
  struct PostedReceive {
    std::uint32_t address;
    std::uint32_t length;
    std::uint32_t tag;
    std::uint32_t id;    // descriptor number
    std::int32_t next;   // next posted receive of the same source (slot), -1 = none
  };
  // A receive whose message is being written to memory, packet by packet.
  struct Transfer {
    std::uint32_t address = 0;
    std::uint32_t length = 0;
    std::uint32_t tag = 0;
    std::uint32_t id = 0;
    std::uint32_t bytes_received = 0;
    std::uint64_t blocked_cycles = 0;
    std::uint64_t created_cycle = 0;
    std::pair<int, std::uint32_t> message{};  // (source, its sequence number to this node)
    ZeroLoadStamp zero_load{};
  };
  // A message that arrived (or is arriving) before it could be matched to a posted receive: its bytes
  // wait in the buffer. It is admitted (eligible for matching) in the order its source sent it.
  struct BufferedMessage {
    std::uint32_t tag;
    std::vector<std::uint8_t> bytes;
    std::uint32_t bytes_received = 0;
    std::uint64_t blocked_cycles = 0;
    std::uint64_t created_cycle = 0;
    ZeroLoadStamp zero_load;
  };
  using SourceTag = std::pair<int, std::uint32_t>;
  using SourceMessage = std::pair<int, std::uint32_t>;  // (source, its sequence number to this node)

  // Admits the buffered messages of `src` that are next in its sending order: each is matched to the
  // oldest posted receive of its (source, tag), or waits for one.
  void admit_in_order(int src);
  // The oldest posted receive of (src, tag), unlinked from its list; false when there is none.
  bool take_posted(int src, std::uint32_t tag, PostedReceive& receive);
  bool has_posted(int src, std::uint32_t tag) const;
  // The transfer of `message` into the memory of `receive`: false (and a failure) when the lengths differ.
  bool start_transfer(const SourceMessage& message, const PostedReceive& receive, const PacketRecord& head,
                      Transfer& transfer);
  // Copies a buffered message into the memory of `receive`; completes it when it is whole (its
  // statistics were recorded when it arrived).
  void hand_over(const SourceMessage& message, BufferedMessage& buffered, const PostedReceive& receive);
  // A matched message is whole in memory: its statistics, and its receive completes.
  void finish_receive(int src, const Transfer& transfer, std::uint64_t cycle);
  void complete_receive(const Transfer& transfer);
  void report_length_mismatch(int src, std::uint32_t tag, std::uint64_t message_bytes, std::uint32_t expected);

  int node_;
  MessageStatistics& messages_;
  Hooks hooks_;
  std::vector<PostedReceive> posted_pool_;      // posted receives, by slot
  std::vector<std::int32_t> free_posted_;       // free slots of posted_pool_
  std::uint32_t posted_count_ = 0;
  std::map<SourceMessage, BufferedMessage> buffered_;             // arrived or arriving, not yet matched
  std::map<SourceTag, std::vector<std::uint32_t>> unmatched_;     // admitted buffered messages, in order
  std::map<SourceMessage, Transfer> transfers_;  // messages being written to their posted receive
  // Per peer: the head of its posted-receive list and the sequence numbers both ways.
  PeerTable peers_;
  std::uint64_t unexpected_count_ = 0;
  std::uint64_t out_of_order_count_ = 0;
  std::uint64_t buffered_bytes_ = 0;
  std::uint64_t peak_buffered_bytes_ = 0;
  std::uint64_t buffer_limit_bytes_;
  std::uint64_t reserved_bytes_ = 0;                     // for buffered messages whose first packet is arriving
  std::map<SourceMessage, std::uint32_t> reservations_;  // message -> bytes reserved at its head
};

}  // namespace meshmp
