// One blocking TLM-2.0 transaction (loosely timed, no annotated delay: the caller charges its own cycles),
// as the processor and the DMA engine issue them to registers and memories.
#pragma once

#include <tlm>

#include <cstdint>

namespace meshmp {

template <class InitiatorSocket>
tlm::tlm_response_status transport(InitiatorSocket& socket, tlm::tlm_command command, std::uint64_t address,
                                   unsigned char* data, unsigned length) {
  tlm::tlm_generic_payload trans;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(data);
  trans.set_data_length(length);
  trans.set_streaming_width(length);
  socket->b_transport(trans, delay);
  return trans.get_response_status();
}

}  // namespace meshmp
