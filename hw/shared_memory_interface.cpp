// A node's DMA engine on 004's shared-memory machine. See shared_memory_interface.h.
#include "hw/shared_memory_interface.h"

#include <cstring>

#include "tlm/dma_registers.h"
#include "tlm/transport.h"

namespace meshmp {

SharedMemoryInterface::SharedMemoryInterface(sc_core::sc_module_name name, int node, std::size_t memory_bytes)
    : sc_core::sc_module(name),
      registers("registers"),
      memory_port("memory_port"),
      global_port("global_port"),
      node_(node),
      memory_bytes_(memory_bytes) {
  registers.register_b_transport(this, &SharedMemoryInterface::register_access);
  SC_THREAD(channel);
}

void SharedMemoryInterface::register_access(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  bool ok = false;
  if (!refused_.empty()) {
    ok = reject(refused_);
  } else if (trans.get_data_length() != 4) {
    ok = reject("register " + std::to_string(trans.get_address()) + " is 32 bits wide");
  } else if (trans.is_write()) {
    std::uint32_t value;
    std::memcpy(&value, trans.get_data_ptr(), 4);
    ok = write_register(trans.get_address(), value);
  } else {
    std::uint32_t value = 0;
    ok = read_register(trans.get_address(), value);
    if (ok) std::memcpy(trans.get_data_ptr(), &value, 4);
  }
  trans.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_GENERIC_ERROR_RESPONSE);
}

bool SharedMemoryInterface::write_register(std::uint64_t address, std::uint32_t value) {
  switch (address) {
    case dma::kPeer: reg_peer_ = value; return true;
    case dma::kLocalAddress: reg_address_ = value; return true;
    case dma::kLength: reg_length_ = value; return true;
    case dma::kTag: reg_tag_ = value; return true;
    case dma::kGlobalAddress: reg_global_ = value; return true;
    case dma::kChannel: return true;  // one channel
    case dma::kRouteLength:
      return value == 0 || reject("ROUTE_LENGTH = " + std::to_string(value) +
                                  ": source routes are the router network's; a shared-memory machine has none");
    case dma::kQuery: reg_query_ = value; return true;
    case dma::kStepMark: reg_step_mark_ = value; return true;
    case dma::kModelArrival: return true;  // the zero-load model of this machine is not built yet
    case dma::kCommand:
      if (value == dma::kCommandSharedRead) return start_access(false);
      if (value == dma::kCommandSharedWrite) return start_access(true);
      if (value == dma::kCommandSend || value == dma::kCommandReceive)
        return reject("COMMAND = " + std::to_string(value) +
                      ": a shared-memory machine has no messages; its data moves by SHARED_READ (3) and "
                      "SHARED_WRITE (4) through the global memory (004 §2 B)");
      return reject("COMMAND = " + std::to_string(value) + ": expected 3 (shared read) or 4 (shared write)");
    default: return reject("no writable register at offset " + std::to_string(address));
  }
}

bool SharedMemoryInterface::read_register(std::uint64_t address, std::uint32_t& value) {
  switch (address) {
    case dma::kDescriptorId: value = reg_descriptor_id_; return true;
    case dma::kStatus:
      if (reg_query_ >= done_.size()) return reject("QUERY = " + std::to_string(reg_query_) + ": no such descriptor");
      value = done_[reg_query_] ? dma::kStatusDone : dma::kStatusPending;
      return true;
    case dma::kCompleted: value = completed_; return true;
    case dma::kPeer: value = reg_peer_; return true;
    case dma::kLocalAddress: value = reg_address_; return true;
    case dma::kLength: value = reg_length_; return true;
    case dma::kTag: value = reg_tag_; return true;
    case dma::kGlobalAddress: value = reg_global_; return true;
    case dma::kStepMark: value = reg_step_mark_; return true;
    case dma::kModelArrival: value = dma::kNoModelArrival; return true;
    default: return reject("no readable register at offset " + std::to_string(address));
  }
}

bool SharedMemoryInterface::reject(const std::string& why) {
  last_error_ = "node " + std::to_string(node_) + " DMA: " + why;
  return false;
}

bool SharedMemoryInterface::local_access(tlm::tlm_command command, std::uint32_t address, std::uint8_t* data,
                                         std::uint32_t length) {
  return length == 0 || transport(memory_port, command, address, data, length) == tlm::TLM_OK_RESPONSE;
}

void SharedMemoryInterface::complete(std::uint32_t descriptor) {
  done_[descriptor] = true;
  ++completed_;
  completion_irq_.notify(sc_core::SC_ZERO_TIME);
}

bool SharedMemoryInterface::start_access(bool write) {
  const std::string what = std::string(write ? "shared write to" : "shared read from") + " global address " +
                           std::to_string(reg_global_) + " (" + std::to_string(reg_length_) + " bytes)";
  if (static_cast<std::uint64_t>(reg_address_) + reg_length_ > memory_bytes_)
    return reject(what + ": LOCAL_ADDRESS + LENGTH = " + std::to_string(std::uint64_t{reg_address_} + reg_length_) +
                  " exceeds the local memory of " + std::to_string(memory_bytes_) + " bytes");
  reg_descriptor_id_ = static_cast<std::uint32_t>(done_.size());
  done_.push_back(false);
  Access a{reg_descriptor_id_, write, reg_global_, reg_address_, std::vector<std::uint8_t>(reg_length_)};
  if (write && !local_access(tlm::TLM_READ_COMMAND, reg_address_, a.bytes.data(), reg_length_))
    return reject(what + ": local memory read failed");
  queued_.push_back(std::move(a));
  access_queued_.notify(sc_core::SC_ZERO_TIME);
  return true;
}

void SharedMemoryInterface::channel() {
  tlm::tlm_generic_payload& trans = channel_payload_;
  for (;;) {
    while (queued_.empty()) sc_core::wait(access_queued_);
    Access& a = queued_.front();
    trans.set_command(a.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans.set_address(a.global_address);
    trans.set_data_ptr(a.bytes.data());
    trans.set_data_length(static_cast<unsigned>(a.bytes.size()));
    trans.set_streaming_width(static_cast<unsigned>(a.bytes.size()));
    trans.set_byte_enable_ptr(nullptr);
    trans.set_byte_enable_length(0);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    global_port->b_transport(trans, delay);
    const std::string what = std::string(a.write ? "shared write to" : "shared read from") + " global address " +
                             std::to_string(a.global_address) + " (" + std::to_string(a.bytes.size()) + " bytes)";
    if (!trans.is_response_ok()) {
      refused_ = what + ": the memory answered " + trans.get_response_string();
      completion_irq_.notify(sc_core::SC_ZERO_TIME);
    } else if (!a.write && !local_access(tlm::TLM_WRITE_COMMAND, a.local_address, a.bytes.data(),
                                         static_cast<std::uint32_t>(a.bytes.size()))) {
      refused_ = what + ": local memory write failed";
      completion_irq_.notify(sc_core::SC_ZERO_TIME);
    } else {
      ++accesses_;
      complete(a.descriptor);
    }
    queued_.pop_front();
  }
}

std::string SharedMemoryInterface::describe_descriptor(std::uint32_t id) const {
  const std::string number = "descriptor " + std::to_string(id);
  if (id >= done_.size()) return number + " (no such descriptor)";
  for (const Access& a : queued_)
    if (a.descriptor == id)
      return std::string(a.write ? "shared write to" : "shared read from") + " global address " +
             std::to_string(a.global_address) + " (" + std::to_string(a.bytes.size()) + " bytes)";
  return number + (done_[id] ? " (done)" : "");
}

}  // namespace meshmp
