// A node's DMA engine on 004's bus or switch. See fabric_interface.h.
#include "hw/fabric/fabric_interface.h"

#include "tlm/dma_registers.h"

namespace meshmp {

FabricInterface::FabricInterface(sc_core::sc_module_name name, int node, int nodes, std::size_t memory_bytes)
    : sc_core::sc_module(name),
      registers("registers"),
      memory_port("memory_port"),
      fabric_out("fabric_out"),
      fabric_in("fabric_in"),
      node_(node),
      nodes_(nodes),
      memory_bytes_(memory_bytes),
      registers_(node, "a shared-resource machine", DmaRegisterSet{},
                 [this](std::uint32_t value) { return command(value); }),
      sequence_to_(static_cast<std::size_t>(nodes), 0) {
  registers.register_b_transport(this, &FabricInterface::register_access);
  registers.register_get_direct_mem_ptr(this, &FabricInterface::direct_registers);
  registers_.on_direct_access_void([this] { registers->invalidate_direct_mem_ptr(0, ~sc_dt::uint64{0}); });
  fabric_in.register_b_transport(this, &FabricInterface::message_in);
  channel_transfer_ = new MessageTransfer;
  channel_payload_.set_extension(channel_transfer_);
  SC_THREAD(channel);
}

// ---- Registers (TLM-2.0 target) ----

void FabricInterface::register_access(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  registers_.serve(trans);
}

bool FabricInterface::command(std::uint32_t value) {
  if (value == dma::kCommandSend) return start_send();
  if (value == dma::kCommandReceive) return start_receive();
  return registers_.reject("COMMAND = " + std::to_string(value) + ": expected 1 (send) or 2 (receive)");
}

// ---- Sends: one channel, one message at a time ----

bool FabricInterface::start_send() {
  const std::uint32_t peer = registers_.peer(), tag = registers_.tag();
  const std::uint32_t address = registers_.local_address(), length = registers_.length();
  const bool all = peer == dma::kPeerAllOthers;
  const std::string what = "send to " + (all ? std::string("every other node") : "node " + std::to_string(peer)) +
                           " tag " + std::to_string(tag);
  if (!all && peer >= static_cast<std::uint32_t>(nodes_))
    return registers_.reject(what + ": PEER = " + std::to_string(peer) + " is not a node (0.." + std::to_string(nodes_ - 1) + ")");
  if (static_cast<std::uint64_t>(address) + length > memory_bytes_)
    return registers_.reject(what + ": LOCAL_ADDRESS + LENGTH = " + std::to_string(std::uint64_t{address} + length) +
                  " exceeds the local memory of " + std::to_string(memory_bytes_) + " bytes");
  OutgoingMessage m{registers_.new_descriptor(), peer, tag, registers_.step_mark(), std::vector<std::uint8_t>(length)};
  if (!memory_.access(tlm::TLM_READ_COMMAND, address, m.bytes.data(), length))
    return registers_.reject(what + ": local memory read failed");
  outgoing_.push_back(std::move(m));
  send_queued_.notify(sc_core::SC_ZERO_TIME);
  return true;
}

void FabricInterface::channel() {
  tlm::tlm_generic_payload& trans = channel_payload_;
  MessageTransfer& transfer = *channel_transfer_;
  for (;;) {
    while (outgoing_.empty()) sc_core::wait(send_queued_);
    OutgoingMessage& m = outgoing_.front();
    transfer.source = node_;
    transfer.destinations.clear();
    if (m.peer == dma::kPeerAllOthers) {
      for (int d = 0; d < nodes_; ++d)
        if (d != node_) transfer.destinations.push_back(d);
    } else {
      transfer.destinations.push_back(static_cast<int>(m.peer));
    }
    transfer.tag = m.tag;
    transfer.step = m.step;
    transfer.sequence = transfer.destinations.size() == 1 ? sequence_to_[transfer.destinations.front()]++ : 0;
    transfer.error.clear();
    trans.set_command(tlm::TLM_WRITE_COMMAND);
    trans.set_address(0);
    trans.set_data_ptr(m.bytes.data());
    trans.set_data_length(static_cast<unsigned>(m.bytes.size()));
    trans.set_streaming_width(static_cast<unsigned>(m.bytes.size()));
    trans.set_byte_enable_ptr(nullptr);
    trans.set_byte_enable_length(0);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    fabric_out->b_transport(trans, delay);
    if (!trans.is_response_ok()) {
      // A refused transfer is a firmware error: every register access answers it from now on, and the
      // processor, woken, finds it at its next one.
      registers_.refuse_from_now("send tag " + std::to_string(m.tag) + ": the fabric answered " +
                                 trans.get_response_string() + (transfer.error.empty() ? "" : ": " + transfer.error));
    } else {
      ++messages_sent_;
      registers_.complete(m.descriptor);
    }
    outgoing_.pop_front();
  }
}

// ---- Receives ----

void FabricInterface::message_in(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  MessageTransfer* transfer = nullptr;
  trans.get_extension(transfer);
  if (transfer == nullptr || !trans.is_write()) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  ++messages_received_;
  const SourceTag key{transfer->source, transfer->tag};
  auto waiting = posted_.find(key);
  if (waiting == posted_.end() || waiting->second.empty()) {
    ++unexpected_count_;
    buffered_[key].emplace_back(trans.get_data_ptr(), trans.get_data_ptr() + trans.get_data_length());
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const PostedReceive receive = waiting->second.front();
  waiting->second.pop_front();
  if (receive.length != trans.get_data_length()) {
    transfer->error = "node " + std::to_string(node_) + " posted a receive of " + std::to_string(receive.length) +
                      " bytes for a message of " + std::to_string(trans.get_data_length());
    registers_.reject("receive from node " + std::to_string(transfer->source) + " tag " + std::to_string(transfer->tag) + ": " +
           transfer->error);
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (!memory_.access(tlm::TLM_WRITE_COMMAND, receive.address, trans.get_data_ptr(), receive.length)) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  registers_.complete(receive.descriptor);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool FabricInterface::start_receive() {
  const std::uint32_t peer = registers_.peer(), tag = registers_.tag();
  const std::uint32_t address = registers_.local_address(), length = registers_.length();
  const std::string what = "receive from node " + std::to_string(peer) + " tag " + std::to_string(tag);
  if (peer >= static_cast<std::uint32_t>(nodes_))
    return registers_.reject(what + ": PEER = " + std::to_string(peer) + " is not a node (0.." + std::to_string(nodes_ - 1) + ")");
  if (static_cast<std::uint64_t>(address) + length > memory_bytes_)
    return registers_.reject(what + ": LOCAL_ADDRESS + LENGTH = " + std::to_string(std::uint64_t{address} + length) +
                  " exceeds the local memory of " + std::to_string(memory_bytes_) + " bytes");
  const SourceTag key{static_cast<int>(peer), tag};
  const std::uint32_t descriptor = registers_.new_descriptor();
  auto early = buffered_.find(key);
  if (early == buffered_.end() || early->second.empty()) {
    posted_[key].push_back({descriptor, address, length});
    return true;
  }
  std::vector<std::uint8_t> bytes = std::move(early->second.front());
  early->second.pop_front();
  if (bytes.size() != length)
    return registers_.reject(what + ": the message is " + std::to_string(bytes.size()) + " bytes, the receive LENGTH is " +
                  std::to_string(length));
  if (!memory_.access(tlm::TLM_WRITE_COMMAND, address, bytes.data(), length))
    return registers_.reject(what + ": local memory write failed");
  registers_.complete(descriptor);
  return true;
}

std::size_t FabricInterface::unreceived_messages() const {
  std::size_t count = 0;
  for (const auto& [key, messages] : buffered_) count += messages.size();
  return count;
}

std::vector<std::string> FabricInterface::unreceived_descriptions() const {
  std::vector<std::string> lines;
  for (const auto& [key, messages] : buffered_)
    for (const auto& bytes : messages)
      lines.push_back("node " + std::to_string(node_) + " DMA: holds message from node " + std::to_string(key.first) +
                      " tag " + std::to_string(key.second) + " (" + std::to_string(bytes.size()) +
                      " bytes) that no receive took");
  return lines;
}

std::string FabricInterface::describe_descriptor(std::uint32_t id) const {
  const std::string number = "descriptor " + std::to_string(id);
  if (!registers_.exists(id)) return number + " (no such descriptor)";
  for (const OutgoingMessage& m : outgoing_)
    if (m.descriptor == id)
      return "send to " + (m.peer == dma::kPeerAllOthers ? std::string("every other node") : "node " + std::to_string(m.peer)) +
             " tag " + std::to_string(m.tag) + " (" + std::to_string(m.bytes.size()) + " bytes)";
  for (const auto& [key, receives] : posted_)
    for (const PostedReceive& r : receives)
      if (r.descriptor == id)
        return "receive from node " + std::to_string(key.first) + " tag " + std::to_string(key.second) + " (" +
               std::to_string(r.length) + " bytes)";
  return number + (registers_.done(id) ? " (done)" : "");
}

}  // namespace meshmp
