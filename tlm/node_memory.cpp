// A node's local memory as a TLM-2.0 target. See node_memory.h.
#include "tlm/node_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

namespace meshmp {

namespace {
// Drops the whole pages inside `bytes`, all zero, from the process (MADV_DONTNEED on private anonymous
// memory: the next read of a page maps the shared zero page, the next write a fresh zeroed page).
void release_zero_pages(std::vector<std::uint8_t>& bytes) {
  const long page_size = sysconf(_SC_PAGESIZE);
  if (page_size <= 0) return;
  const auto page = static_cast<std::uintptr_t>(page_size);
  const auto start = reinterpret_cast<std::uintptr_t>(bytes.data());
  const std::uintptr_t first = (start + page - 1) / page * page, last = (start + bytes.size()) / page * page;
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}
}  // namespace

NodeMemory::NodeMemory(sc_core::sc_module_name name, std::size_t size_bytes)
    : sc_core::sc_module(name), cpu_port("cpu_port"), dma_port("dma_port"), bytes_(size_bytes, 0) {
  for (auto* port : {&cpu_port, &dma_port}) {
    port->register_b_transport(this, &NodeMemory::b_transport);
    port->register_get_direct_mem_ptr(this, &NodeMemory::get_direct_mem_ptr);
  }
  release_zero_pages(bytes_);
}

void NodeMemory::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  const std::uint64_t addr = trans.get_address();
  const std::size_t len = trans.get_data_length();
  if (addr > bytes_.size() || len > bytes_.size() - addr) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (trans.get_byte_enable_ptr()) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (len > 0 && trans.is_read()) std::memcpy(trans.get_data_ptr(), bytes_.data() + addr, len);
  else if (len > 0 && trans.is_write()) std::memcpy(bytes_.data() + addr, trans.get_data_ptr(), len);
  trans.set_dmi_allowed(true);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool NodeMemory::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.allow_read_write();
  dmi.set_dmi_ptr(bytes_.data());
  dmi.set_start_address(0);
  dmi.set_end_address(bytes_.size() - 1);
  return true;
}

}  // namespace meshmp
