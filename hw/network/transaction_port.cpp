// A network interface's TLM-2.0 side on the transaction-level network. See transaction_port.h.
#include "hw/network/transaction_port.h"

#include <stdexcept>

namespace meshmp {

TransactionPort::TransactionPort(sc_core::sc_module_name name, int channels, sc_core::sc_time clock_period,
                                 SentCallback sent, ArrivalCallback arrived)
    : sc_core::sc_module(name),
      out("out"),
      in("in"),
      period_(clock_period),
      sent_(std::move(sent)),
      arrived_(std::move(arrived)),
      channels_(static_cast<std::size_t>(channels)) {
  out.register_nb_transport_bw(this, &TransactionPort::nb_transport_bw);
  in.register_nb_transport_fw(this, &TransactionPort::nb_transport_fw);
}

void TransactionPort::send(int channel, OutgoingMessage message) {
  Channel& sending = channels_[static_cast<std::size_t>(channel)];
  if (sending.injecting)
    sending.waiting.push_back(std::move(message));
  else
    hand_over(channel, std::move(message));
}

void TransactionPort::hand_over(int channel, OutgoingMessage message) {
  Transaction* trans;
  if (free_.empty()) {
    pool_.push_back(std::make_unique<Transaction>(this));
    trans = pool_.back().get();
    trans->message = new NetworkMessage;
    trans->set_extension(trans->message);  // owned by the payload, reused with it
  } else {
    trans = free_.back();
    free_.pop_back();
  }
  NetworkMessage* m = trans->message;
  m->source = message.src;
  m->destination = message.dst;
  m->tag = message.tag;
  m->message_id = message.message_id;
  m->step = message.step;
  m->route = std::move(message.route);
  m->created_cycle = message.created_cycle;
  m->startup_cycles = message.startup_cycles;
  m->blocked_cycles = 0;
  m->zero_load = message.zero_load;
  trans->bytes = std::move(message.payload);
  trans->descriptor = message.descriptor;
  trans->set_command(tlm::TLM_WRITE_COMMAND);
  trans->set_address(0);
  trans->set_data_ptr(trans->bytes.data());
  trans->set_data_length(static_cast<unsigned>(trans->bytes.size()));
  trans->set_streaming_width(static_cast<unsigned>(trans->bytes.size()));
  trans->set_byte_enable_ptr(nullptr);
  trans->set_byte_enable_length(0);
  trans->set_dmi_allowed(false);
  trans->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  trans->acquire();
  channels_[static_cast<std::size_t>(channel)].injecting = trans;
  const auto now = static_cast<std::uint64_t>(sc_core::sc_time_stamp() / period_);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = period_ * static_cast<double>(message.ready_cycle > now ? message.ready_cycle - now : 0);
  if (out[channel]->nb_transport_fw(*trans, phase, delay) != tlm::TLM_UPDATED || phase != tlm::END_REQ)
    throw std::logic_error(std::string(name()) + ": the network did not take a message into its channel (END_REQ)");
}

tlm::tlm_sync_enum TransactionPort::nb_transport_bw(int channel, tlm::tlm_generic_payload& payload,
                                                    tlm::tlm_phase& phase, sc_core::sc_time&) {
  auto& trans = static_cast<Transaction&>(payload);
  Channel& sending = channels_[static_cast<std::size_t>(channel)];
  if (phase != tlm::BEGIN_RESP || sending.injecting != &trans)
    throw std::logic_error(std::string(name()) + ": a response out of its channel's order");
  // The last flit is injected: the send completes (the network still holds the payload until delivery).
  sending.injecting = nullptr;
  const int descriptor = trans.descriptor;
  trans.release();
  if (!sending.waiting.empty()) {  // the channel's next message starts now
    OutgoingMessage next = std::move(sending.waiting.front());
    sending.waiting.pop_front();
    hand_over(channel, std::move(next));
  }
  sent_(descriptor);
  return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum TransactionPort::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                    sc_core::sc_time&) {
  const NetworkMessage* message = trans.get_extension<NetworkMessage>();
  tlm::tlm_response_status refused = tlm::TLM_OK_RESPONSE;
  if (phase != tlm::BEGIN_REQ || trans.get_command() != tlm::TLM_WRITE_COMMAND) refused = tlm::TLM_COMMAND_ERROR_RESPONSE;
  else if (!message) refused = tlm::TLM_GENERIC_ERROR_RESPONSE;
  else if (trans.get_byte_enable_ptr()) refused = tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  if (refused != tlm::TLM_OK_RESPONSE) {
    trans.set_response_status(refused);
    return tlm::TLM_COMPLETED;
  }
  arrived_(*message, trans.get_data_ptr(), trans.get_data_length());
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  phase = tlm::BEGIN_RESP;
  return tlm::TLM_COMPLETED;
}

std::string TransactionPort::describe(int destination, std::uint32_t tag, std::size_t bytes) {
  return "send to node " + std::to_string(destination) + " tag " + std::to_string(tag) + " (" +
         std::to_string(bytes) + " bytes)";
}

std::size_t TransactionPort::messages_sending(int channel) const {
  const Channel& sending = channels_[static_cast<std::size_t>(channel)];
  return (sending.injecting ? 1 : 0) + sending.waiting.size();
}

std::uint32_t TransactionPort::bytes_sending(int channel) const {
  const Channel& sending = channels_[static_cast<std::size_t>(channel)];
  std::uint32_t sum = sending.injecting ? static_cast<std::uint32_t>(sending.injecting->bytes.size()) : 0;
  for (const OutgoingMessage& message : sending.waiting) sum += static_cast<std::uint32_t>(message.payload.size());
  return sum;
}

std::string TransactionPort::describe_descriptor(int id) const {
  for (const Channel& sending : channels_) {
    if (const Transaction* trans = sending.injecting; trans && trans->descriptor == id)
      return describe(trans->message->destination, trans->message->tag, trans->bytes.size());
    for (const OutgoingMessage& message : sending.waiting)
      if (message.descriptor == id) return describe(message.dst, message.tag, message.payload.size());
  }
  return {};
}

std::vector<std::uint8_t> TransactionPort::take_buffer() {
  std::vector<std::uint8_t> buffer;
  if (spare_buffers_.empty()) {
    ++buffers_allocated_;
    return buffer;
  }
  buffer.swap(spare_buffers_.back());
  spare_buffers_.pop_back();
  return buffer;
}

void TransactionPort::free(tlm::tlm_generic_payload* payload) {
  auto* trans = static_cast<Transaction*>(payload);
  std::vector<std::uint8_t> bytes;  // a pooled payload keeps no message's bytes
  bytes.swap(trans->bytes);
  if (bytes.capacity() <= kSpareBufferBytes && spare_buffers_.size() < pool_.size()) {
    bytes.clear();
    spare_buffers_.push_back(std::move(bytes));
  }
  free_.push_back(trans);
}

}  // namespace meshmp
