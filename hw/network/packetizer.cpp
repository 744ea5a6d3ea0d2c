// Packetizer of one injection channel. See packetizer.h.
#include "hw/network/packetizer.h"

#include <algorithm>
#include <cstring>

namespace meshmp {

Packetizer::Packetizer(const RouterParams& params, PacketRecords& packets)
    : params_(params), credits_(params.vcs, params.buffer_flits), packets_(packets) {}

std::uint32_t Packetizer::bytes_remaining() const {
  std::uint32_t sum = 0;
  for (const auto& m : queue_) sum += static_cast<std::uint32_t>(m.payload.size());
  return sum - (queue_.empty() ? 0 : message_offset_);
}

bool Packetizer::next_flit(std::uint64_t cycle, Flit& flit, int& finished_descriptor) {
  if (queue_.empty() || queue_.front().ready_cycle > cycle) return false;
  if (!front_started_) {
    // The channel takes the message; with a start-up of its own, that runs before the first flit.
    front_started_ = true;
    if (queue_.front().startup_cycles > 0) {
      queue_.front().ready_cycle = cycle + queue_.front().startup_cycles;
      return false;
    }
  }
  const OutgoingMessage& msg = queue_.front();
  const auto size = static_cast<std::uint32_t>(msg.payload.size());
  if (!in_packet_) {
    // Start a packet on the next VC (round robin) that has room.
    int vc = -1;
    for (int k = 0; k < params_.vcs; ++k) {
      int candidate = (next_vc_ + k) % params_.vcs;
      if (credits_[candidate] > 0) { vc = candidate; break; }
    }
    if (vc < 0) return false;
    const std::uint32_t max_payload = static_cast<std::uint32_t>(params_.max_packet_payload_flits * params_.flit_bytes);
    packet_end_ = std::min(size, message_offset_ + max_payload);
    const std::uint32_t payload_flits = (packet_end_ - message_offset_ + params_.flit_bytes - 1) / params_.flit_bytes;
    packet_vc_ = vc;
    next_vc_ = (vc + 1) % params_.vcs;
    PacketRecord record;
    record.src = msg.src;
    record.message_id = msg.message_id;
    record.message_tag = msg.tag;
    record.message_offset = message_offset_;
    record.message_bytes = size;
    record.created_cycle = msg.created_cycle;
    record.head_injected_cycle = cycle;
    record.step = msg.step;
    record.zero_load = msg.zero_load;
    packet_tag_ = packets_.open(record);
    in_packet_ = true;
    flit = Flit{};
    flit.tag = packet_tag_;
    flit.dst = msg.dst;
    flit.head = true;
    flit.tail = payload_flits == 0;
    flit.vc = static_cast<std::uint8_t>(vc);
    flit.packet_flits = static_cast<std::uint16_t>(1 + payload_flits);
    flit.route_length = static_cast<std::uint8_t>(msg.route.size());
    std::copy(msg.route.begin(), msg.route.end(), flit.route.begin());
  } else {
    if (credits_[packet_vc_] == 0) return false;
    const std::uint32_t n = std::min<std::uint32_t>(params_.flit_bytes, packet_end_ - message_offset_);
    flit = Flit{};
    flit.tag = packet_tag_;
    flit.vc = static_cast<std::uint8_t>(packet_vc_);
    flit.payload_bytes = static_cast<std::uint16_t>(n);
    std::memcpy(flit.data.data(), msg.payload.data() + message_offset_, n);
    message_offset_ += n;
    flit.tail = message_offset_ == packet_end_;
  }
  --credits_[packet_vc_];
  if (flit.tail) {
    in_packet_ = false;
    if (message_offset_ == size) {
      finished_descriptor = msg.descriptor;
      queue_.pop_front();
      message_offset_ = 0;
      front_started_ = false;
    }
  }
  return true;
}

}  // namespace meshmp
