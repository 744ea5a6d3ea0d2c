// Host-side bookkeeping of the packets in flight: what a simulation knows about a packet beyond the bits
// on the wire (its source, its message's identity and length, the offset of its payload in the message,
// when the message was handed to the DMA engine and when the packet's head left the source's queue, the
// header blocking it met on the way). A record is
// opened when the packetizer makes the packet's head flit and closed when its tail leaves the network;
// every flit of the packet carries the record's index as its wire tag (hw/router/flit_wire.h). Indices are
// reused, so the table holds only the packets in flight, not every packet ever sent.
#pragma once

#include <cstdint>
#include <vector>

#include "tlm/zero_load_stamp.h"

namespace meshmp {

struct PacketRecord {
  std::int32_t src = 0;
  std::uint32_t message_id = 0;      // the source's sequence number of the message to its destination
  std::uint32_t message_tag = 0;     // the tag the firmware gave the message
  std::uint32_t message_offset = 0;  // byte offset of this packet's payload within its message
  std::uint32_t message_bytes = 0;   // whole message length
  std::uint64_t created_cycle = 0;   // when the message was handed to the DMA engine (latency statistics)
  // When the packetizer put the packet's head flit into the injection channel: the cycle it left the
  // source's queue (synthetic traffic splits its latency there into source queueing and network).
  std::uint64_t head_injected_cycle = 0;
  std::uint64_t blocked_cycles = 0;  // header blocking met on the way (contention statistics)
  std::uint32_t hops = 0;            // the links its head has crossed (router to router), however routed
  std::uint32_t step = 0;            // the algorithm step its message was sent in (DMA STEP_MARK)
  ZeroLoadStamp zero_load;           // its message's zero-load prediction (host side only)
  // When its head and its tail were last written into a router's buffer (header blocking is measured
  // from there when the head leaves that router).
  std::uint64_t head_arrival_cycle = 0;
  std::uint64_t tail_arrival_cycle = 0;
};

class PacketRecords {
 public:
  // Opens a record; returns the wire tag of its packet.
  std::uint32_t open(const PacketRecord& record) {
    std::uint32_t tag;
    if (free_.empty()) {
      tag = static_cast<std::uint32_t>(records_.size());
      records_.push_back(record);
    } else {
      tag = free_.back();
      free_.pop_back();
      records_[tag] = record;
    }
    ++open_;
    return tag;
  }
  bool contains(std::uint32_t tag) const { return tag < records_.size(); }
  PacketRecord& at(std::uint32_t tag) { return records_[tag]; }
  const PacketRecord& at(std::uint32_t tag) const { return records_[tag]; }
  // The packet has left the network: its tag may be reused.
  void close(std::uint32_t tag) {
    free_.push_back(tag);
    --open_;
  }
  std::size_t open_records() const { return open_; }
  // Records ever allocated: the most packets in flight at once.
  std::size_t table_size() const { return records_.size(); }

 private:
  std::vector<PacketRecord> records_;
  std::vector<std::uint32_t> free_;
  std::size_t open_ = 0;
};

}  // namespace meshmp
