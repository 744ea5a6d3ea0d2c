// A DMA engine's window onto its node's local memory (tlm/node_memory.h): TLM-2.0's direct memory
// interface once the memory grants it (asked for at the first access; a copy is then a memcpy), and a
// b_transport per access for a memory that does not. Either way the bytes move at the moment of the call,
// so which path serves an access changes no simulated time.
#pragma once

#include <tlm>

#include <cstdint>
#include <cstring>

#include "tlm/transport.h"

namespace meshmp {

template <class InitiatorSocket>
class MemoryWindow {
 public:
  explicit MemoryWindow(InitiatorSocket& socket) : socket_(socket) {}

  // Moves `length` bytes between `data` and the memory at `address`; false when the memory refuses.
  bool access(tlm::tlm_command command, std::uint64_t address, unsigned char* data, std::uint32_t length) {
    if (length == 0) return true;
    if (!asked_) ask();
    if (bytes_ && address <= last_ && length - 1 <= last_ - address) {
      if (command == tlm::TLM_READ_COMMAND) std::memcpy(data, bytes_ + address, length);
      else std::memcpy(bytes_ + address, data, length);
      return true;
    }
    return transport(socket_, command, address, data, length) == tlm::TLM_OK_RESPONSE;
  }

 private:
  // The memory's grant: read and write from address 0, or nothing (every access by b_transport).
  void ask() {
    asked_ = true;
    tlm::tlm_generic_payload request;
    request.set_command(tlm::TLM_READ_COMMAND);
    request.set_address(0);
    tlm::tlm_dmi dmi;
    if (socket_->get_direct_mem_ptr(request, dmi) && dmi.is_read_write_allowed() && dmi.get_start_address() == 0) {
      bytes_ = dmi.get_dmi_ptr();
      last_ = dmi.get_end_address();
    }
  }

  InitiatorSocket& socket_;
  bool asked_ = false;
  unsigned char* bytes_ = nullptr;
  std::uint64_t last_ = 0;
};

}  // namespace meshmp
