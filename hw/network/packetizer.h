// Packetizer of one injection channel: takes whole messages (real bytes), cuts them into packets of at
// most max_packet_payload_flits payload flits behind a head flit, and injects one flit per cycle into the
// router's injection channel, on a virtual channel chosen round-robin per packet, as credits allow.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "hw/router/flit.h"
#include "hw/network/packet_records.h"
#include "hw/router/router_params.h"

namespace meshmp {

struct OutgoingMessage {
  int src = 0;
  int dst = 0;
  std::uint32_t tag = 0;
  std::uint32_t message_id = 0;
  std::vector<std::uint8_t> payload;
  std::vector<std::uint8_t> route;   // source route (output ports); empty = routed by the routers
  std::uint64_t created_cycle = 0;   // when it was handed over (latency statistics)
  std::uint32_t step = 0;            // the algorithm step it belongs to (step statistics)
  std::uint64_t ready_cycle = 0;     // first cycle the channel may start it
  std::uint64_t startup_cycles = 0;  // the channel's start-up before its first flit (node.startup_on = channel)
  int descriptor = -1;               // DMA descriptor to complete when the last flit is injected
  ZeroLoadStamp zero_load;           // the zero-load model's prediction (host side only)
};

class Packetizer {
 public:
  // Opens a host record in `packets` for every packet it makes (its flits carry the record's tag).
  Packetizer(const RouterParams& params, PacketRecords& packets);

  void enqueue(OutgoingMessage message) { queue_.push_back(std::move(message)); }
  bool idle() const { return queue_.empty(); }
  // After next_flit(cycle): the first cycle it can act at, as long as its credits are home (no flit of
  // its in the network); UINT64_MAX when it has nothing queued.
  std::uint64_t next_work_cycle(std::uint64_t cycle) const {
    return queue_.empty() ? UINT64_MAX : std::max(cycle + 1, queue_.front().ready_cycle);
  }
  std::size_t queued_messages() const { return queue_.size(); }
  const std::deque<OutgoingMessage>& queue() const { return queue_; }
  std::uint32_t bytes_remaining() const;
  int credits(int vc) const { return credits_[vc]; }
  void return_credit(int vc) { ++credits_[vc]; }

  // Produces the flit to inject this cycle, if any (returns false when nothing could be injected).
  // When it is the last flit of its message, `finished_descriptor` is set to that message's descriptor.
  bool next_flit(std::uint64_t cycle, Flit& flit, int& finished_descriptor);

 private:
  const RouterParams& params_;
  std::deque<OutgoingMessage> queue_;
  std::vector<int> credits_;
  PacketRecords& packets_;
  // Packet in progress.
  bool in_packet_ = false;
  int packet_vc_ = 0;
  int next_vc_ = 0;
  std::uint32_t message_offset_ = 0;  // bytes of the front message already packed
  std::uint32_t packet_end_ = 0;      // byte offset where the current packet ends
  std::uint32_t packet_tag_ = 0;
  bool front_started_ = false;  // the front message's start-up has begun
};

}  // namespace meshmp
