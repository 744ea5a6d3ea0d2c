// A node's network interface and DMA engine. See network_interface.h.
#include "hw/node/network_interface.h"

#include "firmware/api/node_api.h"

#include <algorithm>
#include <cstring>

#include "hw/network/transaction_network.h"
#include "tlm/dma_registers.h"
#include "tlm/transport.h"

namespace meshmp {

NetworkInterface::NetworkInterface(sc_core::sc_module_name name, int node, Interconnect& network,
                                   std::size_t memory_bytes, std::uint64_t unexpected_buffer_bytes,
                                   MessageStatistics& messages, std::uint64_t channel_startup_cycles)
    : sc_core::sc_module(name),
      registers("registers"),
      memory_port("memory_port"),
      node_(node),
      network_(network),
      flit_network_(dynamic_cast<Network*>(&network)),
      memory_bytes_(memory_bytes),
      params_(network.params()),
      channels_(network.num_injection_channels()),
      messages_(messages),
      peers_(network.topology().num_nodes()),
      channel_startup_cycles_(channel_startup_cycles),
      buffer_limit_bytes_(unexpected_buffer_bytes),
      ejected_(flit_network_ ? static_cast<std::size_t>(channels_) : 0),
      reg_route_(kMaxRouteHops, 0) {
  registers.register_b_transport(this, &NetworkInterface::b_transport);
  if (flit_network_) {
    depacketizer_ = std::make_unique<Depacketizer>(channels_, params_.vcs, flit_network_->packets());
    for (int c = 0; c < channels_; ++c)
      packetizers_.push_back(std::make_unique<Packetizer>(params_, flit_network_->packets()));
    flit_network_->attach(node, this);
    return;
  }
  auto& transaction_network = dynamic_cast<TransactionNetwork&>(network);
  transactions_ = std::make_unique<TransactionPort>(
      "network_port", channels_, transaction_network.clock_period(),
      [this](int descriptor) {
        complete(static_cast<std::uint32_t>(descriptor));
        update_probe();
      },
      [this](const NetworkMessage& message, const std::uint8_t* bytes, std::uint32_t length) {
        message_arrived(message, bytes, length);
      });
  transaction_network.attach(node, *transactions_, [this] { return describe_pending(); });
}

// ---- Register file (TLM-2.0 target) ----

void NetworkInterface::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  bool ok = trans.is_write() ? write_register(trans.get_address(), trans.get_data_ptr(), trans.get_data_length())
                             : read_register(trans.get_address(), trans.get_data_ptr(), trans.get_data_length());
  trans.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_GENERIC_ERROR_RESPONSE);
}

bool NetworkInterface::write_register(std::uint64_t address, const unsigned char* data, unsigned length) {
  if (address >= dma::kRoute && address + length <= dma::kRoute + kMaxRouteHops) {
    std::memcpy(reg_route_.data() + (address - dma::kRoute), data, length);
    return true;
  }
  if (length == 0 || length % 4 != 0)
    return reject("register " + std::to_string(address) + " is 32 bits wide (a write of " + std::to_string(length) +
                  " bytes)");
  // A burst writes consecutive registers in address order (a descriptor: PEER to COMMAND).
  for (unsigned offset = 0; offset < length; offset += 4) {
    std::uint32_t value;
    std::memcpy(&value, data + offset, 4);
    if (!write_word(address + offset, value)) return false;
  }
  return true;
}

bool NetworkInterface::write_word(std::uint64_t address, std::uint32_t value) {
  switch (address) {
    case dma::kPeer: reg_peer_ = value; return true;
    case dma::kLocalAddress: reg_address_ = value; return true;
    case dma::kLength: reg_length_ = value; return true;
    case dma::kTag: reg_tag_ = value; return true;
    case dma::kChannel: reg_channel_ = value; return true;
    case dma::kRouteLength: reg_route_length_ = value; return true;
    case dma::kQuery: reg_query_ = value; return true;
    case dma::kStepMark: reg_step_mark_ = value; return true;
    case dma::kCommand:
      if (value == dma::kCommandSend) return start_send();
      if (value == dma::kCommandReceive) return start_receive();
      return reject("COMMAND = " + std::to_string(value) + ": expected 1 (send) or 2 (receive)");
    default: return reject("no writable register at offset " + std::to_string(address));
  }
}

bool NetworkInterface::read_register(std::uint64_t address, unsigned char* data, unsigned length) {
  if (length != 4)
    return reject("register " + std::to_string(address) + " is 32 bits wide (a read of " + std::to_string(length) +
                  " bytes)");
  std::uint32_t value;
  switch (address) {
    case dma::kDescriptorId: value = reg_descriptor_id_; break;
    case dma::kStatus:
      if (reg_query_ >= done_.size()) return reject("QUERY = " + std::to_string(reg_query_) + ": no such descriptor");
      value = done_[reg_query_] ? dma::kStatusDone : dma::kStatusPending;
      break;
    case dma::kCompleted: value = completed_; break;
    case dma::kPeer: value = reg_peer_; break;
    case dma::kLocalAddress: value = reg_address_; break;
    case dma::kLength: value = reg_length_; break;
    case dma::kTag: value = reg_tag_; break;
    case dma::kStepMark: value = reg_step_mark_; break;
    default: return reject("no readable register at offset " + std::to_string(address));
  }
  std::memcpy(data, &value, 4);
  return true;
}

bool NetworkInterface::reject(const std::string& why) {
  last_error_ = "node " + std::to_string(node_) + " DMA: " + why;
  return false;
}

bool NetworkInterface::memory_access(tlm::tlm_command command, std::uint32_t address, std::uint8_t* data,
                                     std::uint32_t length) {
  return length == 0 || transport(memory_port, command, address, data, length) == tlm::TLM_OK_RESPONSE;
}

bool NetworkInterface::descriptor_fits(const char* kind) {
  auto what = [&] { return std::string(kind) + " node " + std::to_string(reg_peer_) + " tag " + std::to_string(reg_tag_); };
  const int nodes = network_.topology().num_nodes();
  if (reg_peer_ >= static_cast<std::uint32_t>(nodes))
    return reject(what() + ": PEER = " + std::to_string(reg_peer_) + " is not a node (0.." + std::to_string(nodes - 1) + ")");
  if (static_cast<std::uint64_t>(reg_address_) + reg_length_ > memory_bytes_)
    return reject(what() + ": LOCAL_ADDRESS + LENGTH = " + std::to_string(std::uint64_t{reg_address_} + reg_length_) +
                  " exceeds the local memory of " + std::to_string(memory_bytes_) + " bytes");
  return true;
}

bool NetworkInterface::start_send() {
  const Topology& topo = network_.topology();
  // The descriptor's name, for errors only (not built on the fast path).
  auto what = [this] { return "send to node " + std::to_string(reg_peer_) + " tag " + std::to_string(reg_tag_); };
  if (!descriptor_fits("send to")) return false;
  if (reg_route_length_ > static_cast<std::uint32_t>(kMaxRouteHops))
    return reject(what() + ": ROUTE_LENGTH = " + std::to_string(reg_route_length_) + " exceeds " +
                  std::to_string(kMaxRouteHops) + " hops");
  OutgoingMessage msg;
  msg.route.assign(reg_route_.begin(), reg_route_.begin() + reg_route_length_);
  int at = node_;
  for (std::uint8_t port : msg.route) {
    int next = port < topo.num_ports() ? topo.neighbor(at, port) : -1;
    if (next < 0)
      return reject(what() + ": source route port " + std::to_string(port) + " leads nowhere from node " +
                    std::to_string(at));
    at = next;
  }
  if (!msg.route.empty() && at != static_cast<int>(reg_peer_))
    return reject(what() + ": the source route ends at node " + std::to_string(at) + ", not at the peer");
  int channel = 0;
  if (reg_channel_ != dma::kAutoChannel) {
    if (reg_channel_ >= static_cast<std::uint32_t>(channels_))
      return reject(what() + ": CHANNEL = " + std::to_string(reg_channel_) + " (this node has " +
                    std::to_string(channels_) + " injection channels)");
    channel = static_cast<int>(reg_channel_);
  } else if (channels_ > 1 && static_cast<int>(reg_peer_) != node_) {
    channel = msg.route.empty() ? network_.routing()(topo, node_, static_cast<int>(reg_peer_)) : msg.route[0];
  }
  if (port_rule_monitor_ && reg_tag_ < kReservedTagBase)
    if (auto broken = port_rule_monitor_->record(static_cast<int>(reg_step_mark_), node_, static_cast<int>(reg_peer_)))
      return reject(*broken);
  msg.payload.resize(reg_length_);
  if (!memory_access(tlm::TLM_READ_COMMAND, reg_address_, msg.payload.data(), reg_length_))
    return reject(what() + ": local memory read failed");
  const std::uint64_t cycle = network_.current_cycle();
  msg.src = node_;
  msg.dst = static_cast<int>(reg_peer_);
  msg.tag = reg_tag_;
  msg.message_id = peers_.at(msg.dst).next_sequence_to++;
  msg.created_cycle = cycle;
  msg.step = reg_step_mark_;
  if (zero_load_) zero_load_->message_sent(node_, msg.dst, msg.message_id);
  msg.ready_cycle = cycle + 1;
  msg.startup_cycles = channel_startup_cycles_;
  msg.descriptor = static_cast<int>(new_descriptor());
  if (flit_network_) {
    packetizers_[channel]->enqueue(std::move(msg));
    flit_network_->wake(node_);
  } else {
    transactions_->send(channel, std::move(msg));
  }
  update_probe();
  return true;
}

std::uint32_t NetworkInterface::new_descriptor() {
  const auto id = static_cast<std::uint32_t>(done_.size());
  done_.push_back(false);
  reg_descriptor_id_ = id;
  return id;
}

bool NetworkInterface::start_receive() {
  auto what = [this] { return "receive from node " + std::to_string(reg_peer_) + " tag " + std::to_string(reg_tag_); };
  if (!descriptor_fits("receive from")) return false;
  const SourceTag key{static_cast<int>(reg_peer_), reg_tag_};
  auto waiting = unmatched_.find(key);
  const SourceMessage early{key.first, waiting == unmatched_.end() ? 0 : waiting->second.front()};
  if (waiting != unmatched_.end() && buffered_.at(early).bytes.size() != reg_length_)
    return reject(what() + ": the message is " + std::to_string(buffered_.at(early).bytes.size()) +
                  " bytes, the receive LENGTH is " + std::to_string(reg_length_));
  const PostedReceive receive{reg_address_, reg_length_, reg_tag_, new_descriptor(), -1};
  if (waiting == unmatched_.end()) {
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
    std::int32_t* link = &peers_.at(key.first).posted_head;
    while (*link >= 0) link = &posted_pool_[*link].next;
    *link = slot;
    ++posted_count_;
    for (const auto& channel : ejected_)
      if (!channel.empty()) flit_network_->wake(node_);  // a head waiting for buffer room may now be matched
  } else {
    // The oldest admitted message of (source, tag) is here, whole or in part: copy it from the buffer.
    waiting->second.erase(waiting->second.begin());
    if (waiting->second.empty()) unmatched_.erase(waiting);
    hand_over(early, buffered_.at(early), receive, network_.current_cycle());
  }
  update_probe();
  return true;
}

bool NetworkInterface::take_posted(int src, std::uint32_t tag, PostedReceive& receive) {
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

bool NetworkInterface::has_posted(int src, std::uint32_t tag) const {
  for (std::int32_t slot = peers_.get(src).posted_head; slot >= 0; slot = posted_pool_[slot].next)
    if (posted_pool_[slot].tag == tag) return true;
  return false;
}

// ---- Network side (called from the network's clock process) ----

bool NetworkInterface::step(std::uint64_t cycle) {
  bool busy = false;
  for (std::size_t c = 0; c < packetizers_.size(); ++c) {
    Packetizer& p = *packetizers_[c];
    Flit flit;
    int finished = -1;
    if (p.next_flit(cycle, flit, finished)) flit_network_->inject(node_, static_cast<int>(c), flit, cycle);
    if (finished >= 0) complete(static_cast<std::uint32_t>(finished));
    busy |= !p.idle();
  }
  for (std::size_t c = 0; c < ejected_.size(); ++c) {
    drain_ejection(static_cast<int>(c), cycle);
    busy |= !ejected_[c].empty();
  }
  update_probe();
  return busy;
}

std::uint64_t NetworkInterface::next_work_cycle(std::uint64_t cycle) const {
  for (const auto& waiting : ejected_)
    if (!waiting.empty()) return cycle + 1;  // a blocked flit tries again every cycle
  std::uint64_t next = UINT64_MAX;
  for (const auto& p : packetizers_) next = std::min(next, p->next_work_cycle(cycle));
  return next;
}

void NetworkInterface::injection_credit(int channel, int vc) { packetizers_[channel]->return_credit(vc); }

void NetworkInterface::eject(int channel, const Flit& flit, std::uint64_t cycle) {
  if (flit.head && flit.dst != node_) {
    network_.report_failure("node " + std::to_string(node_) + " received packet tag " + std::to_string(flit.tag) +
                            " from node " + std::to_string(flit_network_->packets().at(flit.tag).src) +
                            " addressed to node " + std::to_string(flit.dst));
    return;
  }
  if (ejected_[channel].empty() && consume(channel, flit, cycle)) return;
  ejected_[channel].push_back(flit);
  flit_network_->wake(node_);  // blocked: try again every cycle
}

void NetworkInterface::drain_ejection(int channel, std::uint64_t cycle) {
  auto& waiting = ejected_[channel];
  while (!waiting.empty() && consume(channel, waiting.front(), cycle)) waiting.pop_front();
}

bool NetworkInterface::consume(int channel, const Flit& flit, std::uint64_t cycle) {
  if (flit.head) {
    // A new message that is not matched (and cannot be matched now) needs room in the buffer, reserved
    // before its first packet is complete; without room its head waits and its credit is withheld.
    const PacketRecord& p = flit_network_->packets().at(flit.tag);
    const SourceMessage message{p.src, p.message_id};
    const bool needs_buffer =
        !transfers_.count(message) && !buffered_.count(message) && !reservations_.count(message) &&
        !(p.message_id == peers_.get(p.src).next_sequence_from && has_posted(p.src, p.message_tag));
    if (needs_buffer) {
      if (buffered_bytes_ + reserved_bytes_ + p.message_bytes > buffer_limit_bytes_) return false;
      reservations_[message] = p.message_bytes;
      reserved_bytes_ += p.message_bytes;
    }
  }
  const int vc = flit.vc;
  ReceivedPacket packet;
  std::string error;
  if (depacketizer_->accept(channel, flit, packet, error)) {
    // The packet has left the network: its host record is read and closed.
    const PacketRecord record = flit_network_->packets().at(packet.header.tag);
    flit_network_->packets().close(packet.header.tag);
    deliver(record, packet.payload.data(), static_cast<std::uint32_t>(packet.payload.size()), cycle);
  } else if (!error.empty()) network_.report_failure("node " + std::to_string(node_) + ": " + error);
  flit_network_->return_ejection_credit(node_, channel, vc);
  return true;
}

void NetworkInterface::message_arrived(const NetworkMessage& message, const std::uint8_t* bytes,
                                       std::uint32_t length) {
  PacketRecord whole;
  whole.src = message.source;
  whole.message_id = message.message_id;
  whole.message_tag = message.tag;
  whole.message_offset = 0;
  whole.message_bytes = length;
  whole.created_cycle = message.created_cycle;
  whole.blocked_cycles = message.blocked_cycles;
  whole.step = message.step;
  deliver(whole, bytes, length, network_.current_cycle());
}

void NetworkInterface::deliver(const PacketRecord& h, const std::uint8_t* payload, std::uint32_t n,
                               std::uint64_t cycle) {
  const SourceMessage message{h.src, h.message_id};
  if (auto reserved = reservations_.find(message); reserved != reservations_.end()) {
    reserved_bytes_ -= reserved->second;  // the message's bytes are now counted where they land
    reservations_.erase(reserved);
  }
  auto direct = transfers_.find(message);
  if (direct != transfers_.end()) {
    // Matched already: the packet goes straight to the receive's memory.
    Transfer& t = direct->second;
    memory_access(tlm::TLM_WRITE_COMMAND, t.address + h.message_offset, const_cast<std::uint8_t*>(payload), n);
    t.bytes_received += n;
    t.blocked_cycles += h.blocked_cycles;
    if (t.bytes_received == t.length) {
      const Transfer done = t;
      transfers_.erase(direct);
      finish_receive(h.src, done, cycle);
    }
    update_probe();
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
        memory_access(tlm::TLM_WRITE_COMMAND, transfer.address, const_cast<std::uint8_t*>(payload), n);
        transfer.bytes_received = n;
        transfer.blocked_cycles = h.blocked_cycles;
        finish_receive(h.src, transfer, cycle);
        update_probe();
      } else {
        transfers_.emplace(message, transfer);
        deliver(h, payload, n, cycle);  // now matched: written to memory
      }
      admit_in_order(h.src, cycle);
      return;
    }
  }
  auto [entry, first_packet] = buffered_.try_emplace(message);
  BufferedMessage& buffered = entry->second;
  if (first_packet) {
    buffered.tag = h.message_tag;
    buffered.bytes.resize(h.message_bytes);
    buffered.created_cycle = h.created_cycle;
    buffered_bytes_ += h.message_bytes;
    peak_buffered_bytes_ = std::max(peak_buffered_bytes_, buffered_bytes_);
    if (h.message_id != peers_.get(h.src).next_sequence_from) ++out_of_order_count_;
  }
  if (n > 0) std::memcpy(buffered.bytes.data() + h.message_offset, payload, n);
  buffered.bytes_received += n;
  buffered.blocked_cycles += h.blocked_cycles;
  if (buffered.bytes_received == buffered.bytes.size())  // arrived: its latency ends here
    messages_.record({h.src, node_, h.message_bytes, cycle - buffered.created_cycle, buffered.blocked_cycles});
  if (first_packet) admit_in_order(h.src, cycle);
  update_probe();
}

bool NetworkInterface::start_transfer(const SourceMessage& message, const PostedReceive& receive,
                                      const PacketRecord& head, Transfer& transfer) {
  const std::uint32_t message_bytes = head.message_bytes;
  if (receive.length != message_bytes) {
    network_.report_failure("node " + std::to_string(node_) + ": the message from node " +
                            std::to_string(message.first) + " tag " + std::to_string(receive.tag) + " is " +
                            std::to_string(message_bytes) + " bytes, the posted receive expects " +
                            std::to_string(receive.length));
    return false;
  }
  transfer = Transfer{receive.address, receive.length, receive.tag, receive.id};
  transfer.created_cycle = head.created_cycle;
  transfer.message = message;
  return true;
}

void NetworkInterface::admit_in_order(int src, std::uint64_t cycle) {
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
      network_.report_failure("node " + std::to_string(node_) + ": the message from node " + std::to_string(src) +
                              " tag " + std::to_string(key.second) + " is " +
                              std::to_string(found->second.bytes.size()) + " bytes, the posted receive expects " +
                              std::to_string(receive.length));
      return;
    }
    hand_over(next, found->second, receive, cycle);
  }
}

void NetworkInterface::hand_over(const SourceMessage& message, BufferedMessage& buffered,
                                 const PostedReceive& receive, std::uint64_t) {
  memory_access(tlm::TLM_WRITE_COMMAND, receive.address, buffered.bytes.data(), receive.length);
  Transfer t{receive.address, receive.length, receive.tag, receive.id};
  t.bytes_received = buffered.bytes_received;
  t.blocked_cycles = buffered.blocked_cycles;
  t.created_cycle = buffered.created_cycle;
  t.message = message;
  buffered_bytes_ -= buffered.bytes.size();
  buffered_.erase(message);  // `buffered` is gone from here on
  // A whole message was counted when it arrived; the rest of a partial one goes straight to memory.
  if (t.bytes_received == t.length) complete_receive(t);
  else transfers_.emplace(message, t);
}

void NetworkInterface::finish_receive(int src, const Transfer& transfer, std::uint64_t cycle) {
  messages_.record({src, node_, transfer.length, cycle - transfer.created_cycle, transfer.blocked_cycles});
  complete_receive(transfer);
}

void NetworkInterface::complete_receive(const Transfer& transfer) {
  if (zero_load_) zero_load_->message_received(node_, transfer.id, transfer.message.first, transfer.message.second);
  complete(transfer.id);
}

void NetworkInterface::complete(std::uint32_t descriptor) {
  done_[descriptor] = true;
  ++completed_;
  completion_irq_.notify(sc_core::SC_ZERO_TIME);
}

void NetworkInterface::update_probe() {
  if (!probe_enabled_) return;
  probe_.queued_sends = 0;
  probe_.bytes_left = 0;
  for (const auto& p : packetizers_) {
    probe_.queued_sends += static_cast<unsigned>(p->queued_messages());
    probe_.bytes_left += p->bytes_remaining();
  }
  probe_.busy = probe_.queued_sends > 0;
  probe_.receives_pending = static_cast<unsigned>(transfers_.size()) + posted_count_;
  probe_.completed = completed_;
}

std::vector<std::string> NetworkInterface::unreceived_descriptions() const {
  std::vector<std::string> lines;
  for (const auto& line : describe_pending())
    if (line.find(" holds message ") != std::string::npos) lines.push_back(line);
  return lines;
}

std::vector<std::string> NetworkInterface::describe_pending() const {
  std::vector<std::string> lines;
  const std::string me = "node " + std::to_string(node_) + " DMA: ";
  for (std::size_t c = 0; c < packetizers_.size(); ++c) {
    const Packetizer& p = *packetizers_[c];
    if (!p.idle())
      lines.push_back(me + "injection channel " + std::to_string(c) + " holds " + std::to_string(p.queued_messages()) +
                      " message(s), " + std::to_string(p.bytes_remaining()) + " bytes not yet injected");
  }
  for (int c = 0; transactions_ && c < channels_; ++c)
    if (transactions_->messages_sending(c) > 0)
      lines.push_back(me + "injection channel " + std::to_string(c) + " holds " +
                      std::to_string(transactions_->messages_sending(c)) + " message(s), " +
                      std::to_string(transactions_->bytes_sending(c)) + " bytes not yet injected");
  for (int src = 0; src < peers_.size(); ++src)
    for (std::int32_t slot = peers_.get(src).posted_head; slot >= 0; slot = posted_pool_[slot].next)
      lines.push_back(me + "receive from node " + std::to_string(src) + " tag " + std::to_string(posted_pool_[slot].tag) +
                      " (" + std::to_string(posted_pool_[slot].length) + " bytes) has no message yet");
  for (std::size_t c = 0; c < ejected_.size(); ++c)
    if (!ejected_[c].empty()) {
      const PacketRecord& f = flit_network_->packets().at(ejected_[c].front().tag);
      lines.push_back(me + "ejection channel " + std::to_string(c) + " holds a packet of message " +
                      std::to_string(f.message_id) + " from node " + std::to_string(f.src) + " tag " +
                      std::to_string(f.message_tag) + " (" + std::to_string(f.message_bytes) +
                      " bytes) that no posted receive matches and the unexpected-message buffer cannot take (" +
                      std::to_string(buffered_bytes_ + reserved_bytes_) + " of " + std::to_string(buffer_limit_bytes_) +
                      " bytes in use): it waits in the network");
    }
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
  return lines;
}

std::string NetworkInterface::describe_descriptor(std::uint32_t id) const {
  const std::string number = "descriptor " + std::to_string(id);
  if (id >= done_.size()) return number + " (no such descriptor)";
  if (transactions_)
    if (std::string send = transactions_->describe_descriptor(static_cast<int>(id)); !send.empty()) return send;
  for (const auto& p : packetizers_)
    for (const OutgoingMessage& m : p->queue())
      if (m.descriptor == static_cast<int>(id))
        return "send to node " + std::to_string(m.dst) + " tag " + std::to_string(m.tag) + " (" +
               std::to_string(m.payload.size()) + " bytes)";
  for (int src = 0; src < peers_.size(); ++src)
    for (std::int32_t slot = peers_.get(src).posted_head; slot >= 0; slot = posted_pool_[slot].next)
      if (posted_pool_[slot].id == id)
        return "receive from node " + std::to_string(src) + " tag " + std::to_string(posted_pool_[slot].tag) + " (" +
               std::to_string(posted_pool_[slot].length) + " bytes)";
  for (const auto& [message, t] : transfers_)
    if (t.id == id)
      return "receive from node " + std::to_string(message.first) + " tag " + std::to_string(t.tag) + " (" +
             std::to_string(t.length) + " bytes)";
  return number + (done_[id] ? " (done)" : "");
}

}  // namespace meshmp
