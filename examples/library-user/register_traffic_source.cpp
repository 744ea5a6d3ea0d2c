// The register-driven traffic source. See register_traffic_source.h.
#include "register_traffic_source.h"

#include <stdexcept>
#include <string>

#include "tlm/dma_registers.h"

namespace library_user {

RegisterTrafficSource::RegisterTrafficSource(sc_core::sc_module_name name, std::uint32_t peer, std::uint32_t address,
                                             std::uint32_t length, std::uint32_t tag,
                                             const sc_core::sc_event& completion)
    : sc_core::sc_module(name), socket("socket"), peer_(peer), address_(address), length_(length), tag_(tag),
      completion_(completion) {
  SC_HAS_PROCESS(RegisterTrafficSource);
  SC_THREAD(run);
}

void RegisterTrafficSource::run() {
  namespace dma = meshmp::dma;
  write(dma::kPeer, peer_);
  write(dma::kLocalAddress, address_);
  write(dma::kLength, length_);
  write(dma::kTag, tag_);
  write(dma::kChannel, dma::kAutoChannel);
  write(dma::kRouteLength, 0);
  write(dma::kCommand, dma::kCommandSend);
  const std::uint32_t descriptor = read(dma::kDescriptorId);
  for (;;) {
    write(dma::kQuery, descriptor);
    if (read(dma::kStatus) == dma::kStatusDone) break;
    wait(completion_);
  }
  sent_ = true;
  sent_at_ = sc_core::sc_time_stamp();
}

void RegisterTrafficSource::write(std::uint64_t address, std::uint32_t value) {
  transport(tlm::TLM_WRITE_COMMAND, address, value);
}

std::uint32_t RegisterTrafficSource::read(std::uint64_t address) {
  std::uint32_t value = 0;
  transport(tlm::TLM_READ_COMMAND, address, value);
  return value;
}

// One 32-bit register access, its annotated delay waited.
void RegisterTrafficSource::transport(tlm::tlm_command command, std::uint64_t address, std::uint32_t& value) {
  tlm::tlm_generic_payload trans;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  trans.set_data_length(4);
  trans.set_streaming_width(4);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  socket->b_transport(trans, delay);
  if (trans.is_response_error())
    throw std::runtime_error("register access at " + std::to_string(address) + ": " + trans.get_response_string());
  wait(delay);
}

}  // namespace library_user
