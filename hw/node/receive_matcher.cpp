// The receive side of a node's network interface. See receive_matcher.h.
#include "hw/node/receive_matcher.h"

#include <algorithm>
#include <cstring>

namespace meshmp {

ReceiveMatcher::ReceiveMatcher(int node, int peers, std::uint64_t buffer_limit_bytes, MessageStatistics& messages,
                               Hooks hooks)
    : node_(node), messages_(messages), hooks_(std::move(hooks)), peers_(peers), buffer_limit_bytes_(buffer_limit_bytes) {}

std::optional<std::uint64_t> ReceiveMatcher::waiting_message_bytes(int source, std::uint32_t tag) const {
  auto waiting = unmatched_.find(SourceTag{source, tag});
  if (waiting == unmatched_.end()) return std::nullopt;
  return buffered_.at(SourceMessage{source, waiting->second.front()}).bytes.size();
}

bool ReceiveMatcher::post(int source, std::uint32_t address, std::uint32_t length, std::uint32_t tag, std::uint32_t id) {
  const PostedReceive receive{address, length, tag, id, -1};
  auto waiting = unmatched_.find(SourceTag{source, tag});
  if (waiting != unmatched_.end()) {
    // The oldest admitted message of (source, tag) is here, whole or in part: copy it from the buffer.
    const SourceMessage early{source, waiting->second.front()};
    waiting->second.erase(waiting->second.begin());
    if (waiting->second.empty()) unmatched_.erase(waiting);
    hand_over(early, buffered_.at(early), receive);
    return false;
  }
  // Posted: appended to its source's list (oldest first).
  std::int32_t slot;
  if (free_posted_.empty()) {
    slot = static_cast<std::int32_t>(posted_pool_.size());
    posted_pool_.push_back(receive);
  } else {
    slot = free_posted_.back();
    free_posted_.pop_back();
    posted_pool_[slot] = receive;
  }
  std::int32_t* link = &peers_.at(source).posted_head;
  while (*link >= 0) link = &posted_pool_[*link].next;
  *link = slot;
  ++posted_count_;
  return true;
}

bool ReceiveMatcher::take_posted(int src, std::uint32_t tag, PostedReceive& receive) {
  for (std::int32_t* link = &peers_.at(src).posted_head; *link >= 0; link = &posted_pool_[*link].next) {
    const std::int32_t slot = *link;
    if (posted_pool_[slot].tag != tag) continue;
    receive = posted_pool_[slot];
    *link = receive.next;
    free_posted_.push_back(slot);
    --posted_count_;
    return true;
  }
  return false;
}

bool ReceiveMatcher::has_posted(int src, std::uint32_t tag) const {
  for (std::int32_t slot = peers_.get(src).posted_head; slot >= 0; slot = posted_pool_[slot].next)
    if (posted_pool_[slot].tag == tag) return true;
  return false;
}

bool ReceiveMatcher::admit_head(const PacketRecord& p) {
  // A new message that is not matched (and cannot be matched now) needs room in the buffer, reserved
  // before its first packet is complete; without room its head waits and its credit is withheld.
  const SourceMessage message{p.src, p.message_id};
  const bool needs_buffer = !transfers_.count(message) && !buffered_.count(message) && !reservations_.count(message) &&
                            !(p.message_id == peers_.get(p.src).next_sequence_from && has_posted(p.src, p.message_tag));
  if (!needs_buffer) return true;
  if (buffered_bytes_ + reserved_bytes_ + p.message_bytes > buffer_limit_bytes_) return false;
  reservations_[message] = p.message_bytes;
  reserved_bytes_ += p.message_bytes;
  return true;
}

void ReceiveMatcher::deliver(const PacketRecord& h, const std::uint8_t* payload, std::uint32_t n, std::uint64_t cycle) {
  const SourceMessage message{h.src, h.message_id};
  if (auto reserved = reservations_.find(message); reserved != reservations_.end()) {
    reserved_bytes_ -= reserved->second;  // the message's bytes are now counted where they land
    reservations_.erase(reserved);
  }
  auto direct = transfers_.find(message);
  if (direct != transfers_.end()) {
    // Matched already: the packet goes straight to the receive's memory.
    Transfer& t = direct->second;
    hooks_.write_memory(t.address + h.message_offset, payload, n);
    t.bytes_received += n;
    t.blocked_cycles += h.blocked_cycles;
    if (t.bytes_received == t.length) {
      const Transfer done = t;
      transfers_.erase(direct);
      finish_receive(h.src, done, cycle);
    }
    hooks_.changed();
    return;
  }
  if (h.message_id == peers_.get(h.src).next_sequence_from && buffered_.find(message) == buffered_.end()) {
    // The common case: the first packet of the next message in sending order, and its receive is
    // posted: match it at once and write straight to memory, without buffering.
    PostedReceive receive;
    if (take_posted(h.src, h.message_tag, receive)) {
      ++peers_.at(h.src).next_sequence_from;
      Transfer transfer;
      if (!start_transfer(message, receive, h, transfer)) return;
      if (n == transfer.length) {
        // The whole message at once (one packet, or a transaction-level message): no transfer to track.
        hooks_.write_memory(transfer.address, payload, n);
        transfer.bytes_received = n;
        transfer.blocked_cycles = h.blocked_cycles;
        finish_receive(h.src, transfer, cycle);
        hooks_.changed();
      } else {
        transfers_.emplace(message, transfer);
        deliver(h, payload, n, cycle);  // now matched: written to memory
      }
      admit_in_order(h.src);
      return;
    }
  }
  auto [entry, first_packet] = buffered_.try_emplace(message);
  BufferedMessage& buffered = entry->second;
  if (first_packet) {
    buffered.tag = h.message_tag;
    buffered.bytes.resize(h.message_bytes);
    buffered.created_cycle = h.created_cycle;
    buffered.zero_load = h.zero_load;
    buffered_bytes_ += h.message_bytes;
    peak_buffered_bytes_ = std::max(peak_buffered_bytes_, buffered_bytes_);
    if (h.message_id != peers_.get(h.src).next_sequence_from) ++out_of_order_count_;
  }
  if (n > 0) std::memcpy(buffered.bytes.data() + h.message_offset, payload, n);
  buffered.bytes_received += n;
  buffered.blocked_cycles += h.blocked_cycles;
  if (buffered.bytes_received == buffered.bytes.size())  // arrived: its latency ends here
    messages_.record({h.src, node_, h.message_bytes, cycle - buffered.created_cycle, buffered.blocked_cycles});
  if (first_packet) admit_in_order(h.src);
  hooks_.changed();
}

void ReceiveMatcher::report_length_mismatch(int src, std::uint32_t tag, std::uint64_t message_bytes,
                                            std::uint32_t expected) {
  hooks_.fail("node " + std::to_string(node_) + ": the message from node " + std::to_string(src) + " tag " +
              std::to_string(tag) + " is " + std::to_string(message_bytes) + " bytes, the posted receive expects " +
              std::to_string(expected));
}

bool ReceiveMatcher::start_transfer(const SourceMessage& message, const PostedReceive& receive, const PacketRecord& head,
                                    Transfer& transfer) {
  if (receive.length != head.message_bytes) {
    report_length_mismatch(message.first, receive.tag, head.message_bytes, receive.length);
    return false;
  }
  transfer = Transfer{receive.address, receive.length, receive.tag, receive.id};
  transfer.created_cycle = head.created_cycle;
  transfer.zero_load = head.zero_load;
  transfer.message = message;
  return true;
}

void ReceiveMatcher::admit_in_order(int src) {
  for (;;) {
    const SourceMessage next{src, peers_.get(src).next_sequence_from};
    auto found = buffered_.find(next);
    if (found == buffered_.end()) return;
    ++peers_.at(src).next_sequence_from;
    const SourceTag key{src, found->second.tag};
    PostedReceive receive;
    if (!take_posted(src, key.second, receive)) {
      unmatched_[key].push_back(next.second);
      ++unexpected_count_;
      continue;
    }
    if (receive.length != found->second.bytes.size()) {
      report_length_mismatch(src, key.second, found->second.bytes.size(), receive.length);
      return;
    }
    hand_over(next, found->second, receive);
  }
}

void ReceiveMatcher::hand_over(const SourceMessage& message, BufferedMessage& buffered, const PostedReceive& receive) {
  hooks_.write_memory(receive.address, buffered.bytes.data(), receive.length);
  Transfer t{receive.address, receive.length, receive.tag, receive.id};
  t.bytes_received = buffered.bytes_received;
  t.blocked_cycles = buffered.blocked_cycles;
  t.created_cycle = buffered.created_cycle;
  t.zero_load = buffered.zero_load;
  t.message = message;
  buffered_bytes_ -= buffered.bytes.size();
  buffered_.erase(message);  // `buffered` is gone from here on
  // A whole message was counted when it arrived; the rest of a partial one goes straight to memory.
  if (t.bytes_received == t.length) complete_receive(t);
  else transfers_.emplace(message, t);
}

void ReceiveMatcher::finish_receive(int src, const Transfer& transfer, std::uint64_t cycle) {
  messages_.record({src, node_, transfer.length, cycle - transfer.created_cycle, transfer.blocked_cycles});
  complete_receive(transfer);
}

void ReceiveMatcher::complete_receive(const Transfer& transfer) {
  hooks_.received(transfer.id, transfer.zero_load);
}

void ReceiveMatcher::describe_posted(const std::string& me, std::vector<std::string>& lines) const {
  for (int src = 0; src < peers_.size(); ++src)
    for (std::int32_t slot = peers_.get(src).posted_head; slot >= 0; slot = posted_pool_[slot].next)
      lines.push_back(me + "receive from node " + std::to_string(src) + " tag " + std::to_string(posted_pool_[slot].tag) +
                      " (" + std::to_string(posted_pool_[slot].length) + " bytes) has no message yet");
}

void ReceiveMatcher::describe_arrivals(const std::string& me, std::vector<std::string>& lines) const {
  for (const auto& [message, buffered] : buffered_) {
    const bool admitted = message.second < peers_.get(message.first).next_sequence_from;
    lines.push_back(me + "holds message " + std::to_string(message.second) + " from node " + std::to_string(message.first) +
                    " tag " + std::to_string(buffered.tag) + " (" + std::to_string(buffered.bytes_received) + " of " +
                    std::to_string(buffered.bytes.size()) + " bytes arrived): " +
                    (admitted ? "no receive of (source, tag) is posted for it"
                              : "it waits for message " + std::to_string(peers_.get(message.first).next_sequence_from) +
                                    " from that node, sent earlier"));
  }
  for (const auto& [message, t] : transfers_)
    lines.push_back(me + "receive from node " + std::to_string(message.first) + " tag " + std::to_string(t.tag) +
                    ": " + std::to_string(t.bytes_received) + " of " + std::to_string(t.length) + " bytes arrived");
}

std::string ReceiveMatcher::describe_receive(std::uint32_t id) const {
  for (int src = 0; src < peers_.size(); ++src)
    for (std::int32_t slot = peers_.get(src).posted_head; slot >= 0; slot = posted_pool_[slot].next)
      if (posted_pool_[slot].id == id)
        return "receive from node " + std::to_string(src) + " tag " + std::to_string(posted_pool_[slot].tag) + " (" +
               std::to_string(posted_pool_[slot].length) + " bytes)";
  for (const auto& [message, t] : transfers_)
    if (t.id == id)
      return "receive from node " + std::to_string(message.first) + " tag " + std::to_string(t.tag) + " (" +
             std::to_string(t.length) + " bytes)";
  return "";
}

}  // namespace meshmp
