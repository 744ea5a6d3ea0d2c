// A node's DMA engine on 004's shared-memory machine. See shared_memory_interface.h.
#include "hw/fabric/shared_memory_interface.h"

#include "tlm/dma_registers.h"

namespace meshmp {
namespace {

std::string describe_access(bool write, std::uint32_t global, std::size_t length, std::uint32_t piece,
                            std::uint32_t stride) {
  std::string text = std::string(write ? "shared write to" : "shared read from") + " global address " +
                     std::to_string(global) + " (" + std::to_string(length) + " bytes";
  if (piece != 0) text += " in pieces of " + std::to_string(piece) + " every " + std::to_string(stride);
  return text + ")";
}

}  // namespace

SharedMemoryInterface::SharedMemoryInterface(sc_core::sc_module_name name, int node, std::size_t memory_bytes)
    : sc_core::sc_module(name),
      registers("registers"),
      memory_port("memory_port"),
      global_port("global_port"),
      memory_bytes_(memory_bytes),
      registers_(node, "a shared-memory machine", DmaRegisterSet{true, false},
                 [this](std::uint32_t value) { return command(value); }) {
  registers.register_b_transport(this, &SharedMemoryInterface::register_access);
  registers.register_get_direct_mem_ptr(this, &SharedMemoryInterface::direct_registers);
  registers_.on_direct_access_void([this] { registers->invalidate_direct_mem_ptr(0, ~sc_dt::uint64{0}); });
  SC_THREAD(channel);
}

void SharedMemoryInterface::register_access(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  registers_.serve(trans);
}

bool SharedMemoryInterface::command(std::uint32_t value) {
  if (value == dma::kCommandSharedRead) return start_access(false);
  if (value == dma::kCommandSharedWrite) return start_access(true);
  if (value == dma::kCommandSend || value == dma::kCommandReceive)
    return registers_.reject("COMMAND = " + std::to_string(value) +
                             ": a shared-memory machine has no messages; its data moves by SHARED_READ (3) and "
                             "SHARED_WRITE (4) through the global memory (004 §2 B)");
  return registers_.reject("COMMAND = " + std::to_string(value) + ": expected 3 (shared read) or 4 (shared write)");
}

bool SharedMemoryInterface::start_access(bool write) {
  const std::uint32_t global = registers_.global_address(), address = registers_.local_address();
  const std::uint32_t length = registers_.length();
  const std::uint32_t piece = registers_.global_piece(), stride = registers_.global_stride();
  const std::string what = describe_access(write, global, length, piece, stride);
  if (static_cast<std::uint64_t>(address) + length > memory_bytes_)
    return registers_.reject(what + ": LOCAL_ADDRESS + LENGTH = " + std::to_string(std::uint64_t{address} + length) +
                  " exceeds the local memory of " + std::to_string(memory_bytes_) + " bytes");
  if (piece != 0 && length % piece != 0)
    return registers_.reject(what + ": GLOBAL_PIECE = " + std::to_string(piece) + " does not divide LENGTH");
  if (piece != 0 && stride < piece)
    return registers_.reject(what + ": GLOBAL_STRIDE = " + std::to_string(stride) + " is less than GLOBAL_PIECE = " +
                             std::to_string(piece) + " (the pieces would overlap)");
  Access a{registers_.new_descriptor(), write, global, address, piece, stride, std::vector<std::uint8_t>(length)};
  if (write && !memory_.access(tlm::TLM_READ_COMMAND, address, a.bytes.data(), length))
    return registers_.reject(what + ": local memory read failed");
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
    if (a.piece_bytes != 0) {
      strided_ = StridedAccess(a.piece_bytes, a.stride_bytes);
      trans.set_extension(&strided_);
    }
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    global_port->b_transport(trans, delay);
    trans.clear_extension<StridedAccess>();  // the payload is the engine's: its destructor must not free it
    const std::string what = describe_access(a.write, a.global_address, a.bytes.size(), a.piece_bytes, a.stride_bytes);
    if (!trans.is_response_ok()) {
      registers_.refuse_from_now(what + ": the memory answered " + trans.get_response_string());
    } else if (!a.write && !memory_.access(tlm::TLM_WRITE_COMMAND, a.local_address, a.bytes.data(),
                                           static_cast<std::uint32_t>(a.bytes.size()))) {
      registers_.refuse_from_now(what + ": local memory write failed");
    } else {
      ++accesses_;
      registers_.complete(a.descriptor);
    }
    queued_.pop_front();
  }
}

std::string SharedMemoryInterface::describe_descriptor(std::uint32_t id) const {
  const std::string number = "descriptor " + std::to_string(id);
  if (!registers_.exists(id)) return number + " (no such descriptor)";
  for (const Access& a : queued_)
    if (a.descriptor == id)
      return describe_access(a.write, a.global_address, a.bytes.size(), a.piece_bytes, a.stride_bytes);
  return number + (registers_.done(id) ? " (done)" : "");
}

}  // namespace meshmp
