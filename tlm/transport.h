// One blocking TLM-2.0 transaction (loosely timed, no annotated delay: the caller charges its own cycles),
// as the processor and the DMA engine issue them to registers and memories. Payload objects are reused
// (constructing one allocates its extension array): one per nesting level, since a target may issue a
// transaction of its own while serving one (the DMA engine reads memory while a COMMAND write is served).
#pragma once

#include <tlm>

#include <cstdint>

namespace meshmp {

namespace detail {
struct PayloadPool {
  static constexpr int kDepth = 4;
  tlm::tlm_generic_payload payloads[kDepth];
  int in_use = 0;
};
inline PayloadPool& payload_pool() {
  static PayloadPool pool;
  return pool;
}
}  // namespace detail

namespace detail {
template <class InitiatorSocket>
tlm::tlm_response_status send(InitiatorSocket& socket, tlm::tlm_generic_payload& trans, tlm::tlm_command command,
                              std::uint64_t address, unsigned char* data, unsigned length) {
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(data);
  trans.set_data_length(length);
  trans.set_streaming_width(length);
  trans.set_byte_enable_ptr(nullptr);
  trans.set_byte_enable_length(0);
  trans.set_dmi_allowed(false);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  socket->b_transport(trans, delay);
  return trans.get_response_status();
}
}  // namespace detail

template <class InitiatorSocket>
tlm::tlm_response_status transport(InitiatorSocket& socket, tlm::tlm_command command, std::uint64_t address,
                                   unsigned char* data, unsigned length) {
  detail::PayloadPool& pool = detail::payload_pool();
  if (pool.in_use >= detail::PayloadPool::kDepth) {  // nested deeper than the pool: a payload of its own
    tlm::tlm_generic_payload deeper;
    return detail::send(socket, deeper, command, address, data, length);
  }
  struct Level {
    detail::PayloadPool& pool;
    ~Level() { --pool.in_use; }
  } level{pool};
  tlm::tlm_generic_payload& trans = pool.payloads[pool.in_use++];
  return detail::send(socket, trans, command, address, data, length);
}

}  // namespace meshmp
