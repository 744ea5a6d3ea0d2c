// The DMA register file every DMA engine serves. See dma_register_file.h.
#include "hw/node/dma_register_file.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "hw/router/flit.h"
#include "tlm/dma_registers.h"

namespace meshmp {

DmaRegisterFile::DmaRegisterFile(int node, std::string machine, DmaRegisterSet registers,
                                 std::function<bool(std::uint32_t)> command)
    : node_(node), machine_(std::move(machine)), has_(registers), command_(std::move(command)) {
  if (has_.source_route) route_.assign(kMaxRouteHops, 0);
}

void DmaRegisterFile::serve(tlm::tlm_generic_payload& trans) {
  const unsigned length = trans.get_data_length();
  bool ok = false;
  const std::uint64_t address = trans.get_address();
  if (!refused_.empty()) {
    ok = reject(refused_);
  } else if (has_.source_route && trans.is_write() && address >= dma::kRoute &&
             address + length <= dma::kRoute + kMaxRouteHops) {
    // ROUTE: one port per byte, written in any width.
    std::memcpy(route_.data() + (address - dma::kRoute), trans.get_data_ptr(), length);
    ok = true;
  } else if (length == 0 || length % 4 != 0 || (!trans.is_write() && length != 4)) {
    ok = refuse_width(address, trans.is_write(), length);
  } else if (trans.is_write()) {
    // A burst writes consecutive registers in address order (a descriptor: PEER to COMMAND).
    ok = true;
    for (unsigned offset = 0; ok && offset < length; offset += 4) {
      std::uint32_t value;
      std::memcpy(&value, trans.get_data_ptr() + offset, 4);
      ok = write(trans.get_address() + offset, value);
    }
  } else {
    std::uint32_t value = 0;
    ok = read(trans.get_address(), value);
    if (ok) std::memcpy(trans.get_data_ptr(), &value, 4);
  }
  trans.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_GENERIC_ERROR_RESPONSE);
}

bool DmaRegisterFile::write(std::uint64_t address, std::uint32_t value) {
  switch (address) {
    case dma::kPeer: peer_ = value; return true;
    case dma::kLocalAddress: local_address_ = value; return true;
    case dma::kLength: length_ = value; return true;
    case dma::kTag: tag_ = value; return true;
    case dma::kChannel:
      if (has_.source_route) channel_ = value;
      return true;  // without: one channel, nothing to choose
    case dma::kRouteLength:
      if (has_.source_route) {
        route_length_ = value;
        return true;
      }
      return value == 0 || refuse_write(address, value);
    case dma::kQuery: query_ = value; return true;
    case dma::kStepMark: step_mark_ = value; return true;
    case dma::kIrqThreshold: irq_threshold_ = value; return true;
    case dma::kCommand: return command_(value);
    case dma::kGlobalAddress:
    case dma::kGlobalPiece:
    case dma::kGlobalStride:
      if (!has_.global_address) break;
      global_register(address) = value;
      return true;
    default: break;
  }
  return refuse_write(address, value);
}

bool DmaRegisterFile::refuse_width(std::uint64_t address, bool write, unsigned length) {
  return reject("register " + std::to_string(address) + " is 32 bits wide (" + (write ? "a write" : "a read") + " of " +
                std::to_string(length) + " bytes)");
}

bool DmaRegisterFile::refuse_write(std::uint64_t address, std::uint32_t value) {
  if (address == dma::kRouteLength)
    return reject("ROUTE_LENGTH = " + std::to_string(value) + ": source routes are the router network's; " + machine_ +
                  " has none");
  return reject("no writable register at offset " + std::to_string(address));
}

std::uint32_t& DmaRegisterFile::global_register(std::uint64_t address) {
  return address == dma::kGlobalPiece ? global_piece_ : address == dma::kGlobalStride ? global_stride_ : global_address_;
}

bool DmaRegisterFile::read(std::uint64_t address, std::uint32_t& value) {
  switch (address) {
    case dma::kDescriptorId: value = descriptor_id_; return true;
    case dma::kStatus:
      if (query_ >= descriptors_) return refuse_read(address);
      value = done(query_) ? dma::kStatusDone : dma::kStatusPending;
      return true;
    case dma::kCompleted: value = completed_; return true;
    case dma::kPeer: value = peer_; return true;
    case dma::kLocalAddress: value = local_address_; return true;
    case dma::kLength: value = length_; return true;
    case dma::kTag: value = tag_; return true;
    case dma::kStepMark: value = step_mark_; return true;
    case dma::kIrqThreshold: value = irq_threshold_; return true;
    case dma::kGlobalAddress:
    case dma::kGlobalPiece:
    case dma::kGlobalStride:
      if (!has_.global_address) break;
      value = global_register(address);
      return true;
    default:
      if (address >= dma::kDoneTable && address < dma::kDoneTableEnd && address % 4 == 0) {
        const std::uint64_t word = (address - dma::kDoneTable) / 4;
        value = word < done_table_.size() ? done_table_[word] : 0;
        return true;
      }
      break;
  }
  return refuse_read(address);
}

bool DmaRegisterFile::refuse_read(std::uint64_t address) {
  if (address == dma::kStatus) return reject("QUERY = " + std::to_string(query_) + ": no such descriptor");
  return reject("no readable register at offset " + std::to_string(address));
}

bool DmaRegisterFile::grant(std::uint64_t address, tlm::tlm_dmi& dmi) {
  // The registers are host words; the register map is little endian, and so must the host be.
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "DMA registers by DMI need a little-endian host");
  std::uint32_t* word = nullptr;
  bool writable = false;
  if (!refused_.empty()) return false;
  if (address >= dma::kDoneTable && address < dma::kDoneTable + 4 * done_table_.size()) {
    dmi.set_dmi_ptr(reinterpret_cast<unsigned char*>(done_table_.data()));
    dmi.set_start_address(dma::kDoneTable);
    dmi.set_end_address(dma::kDoneTable + 4 * done_table_.size() - 1);
    dmi.allow_read();
    return true;
  }
  switch (address & ~std::uint64_t{3}) {
    case dma::kDescriptorId: word = &descriptor_id_; break;
    case dma::kCompleted: word = &completed_; break;
    case dma::kStepMark: word = &step_mark_; writable = true; break;
    case dma::kIrqThreshold: word = &irq_threshold_; writable = true; break;
    default: return false;
  }
  dmi.set_dmi_ptr(reinterpret_cast<unsigned char*>(word));
  dmi.set_start_address(address & ~std::uint64_t{3});
  dmi.set_end_address((address & ~std::uint64_t{3}) + 3);
  if (writable) dmi.allow_read_write();
  else dmi.allow_read();
  return true;
}

std::uint32_t DmaRegisterFile::new_descriptor() {
  descriptor_id_ = descriptors_++;
  if (descriptor_id_ / 32 >= done_table_.size()) {  // room for twice as many: the words move
    done_table_.resize(std::max<std::size_t>(4, 2 * done_table_.size()), 0);
    if (invalidate_) invalidate_();
  }
  return descriptor_id_;
}

void DmaRegisterFile::complete(std::uint32_t descriptor) {
  done_table_[descriptor / 32] |= 1u << (descriptor % 32);
  ++completed_;
  if (completed_ < irq_threshold_) return;
  ++interrupts_raised_;
  completion_irq_.notify(sc_core::SC_ZERO_TIME);
}

bool DmaRegisterFile::reject(const std::string& why) {
  last_error_ = "node " + std::to_string(node_) + " DMA: " + why;
  return false;
}

void DmaRegisterFile::refuse_from_now(const std::string& why) {
  refused_ = why;
  if (invalidate_) invalidate_();
  ++interrupts_raised_;
  completion_irq_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace meshmp
