// The DMA engines' window onto local memory (tlm/memory_window.h): a memcpy through TLM-2.0's direct
// memory interface once the memory grants it, a b_transport per access when it does not, and a refusal
// either way for bytes outside the memory.
#include <gtest/gtest.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <vector>

#include "tlm/memory_window.h"

namespace {

// A memory of 64 bytes that counts its b_transport calls and grants DMI only when told to.
class CountingMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<CountingMemory> socket;
  std::vector<unsigned char> bytes = std::vector<unsigned char>(64, 0);
  int transactions = 0;

  CountingMemory(sc_core::sc_module_name name, bool grants_dmi) : sc_core::sc_module(name), socket("socket") {
    socket.register_b_transport(this, &CountingMemory::b_transport);
    if (grants_dmi) socket.register_get_direct_mem_ptr(this, &CountingMemory::get_direct_mem_ptr);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
    ++transactions;
    const std::uint64_t address = trans.get_address();
    const unsigned length = trans.get_data_length();
    if (address > bytes.size() || length > bytes.size() - address) {
      trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (trans.is_read()) std::memcpy(trans.get_data_ptr(), bytes.data() + address, length);
    else std::memcpy(bytes.data() + address, trans.get_data_ptr(), length);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
    dmi.allow_read_write();
    dmi.set_dmi_ptr(bytes.data());
    dmi.set_start_address(0);
    dmi.set_end_address(bytes.size() - 1);
    return true;
  }
};

struct Engine : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Engine> memory_port{"memory_port"};
  meshmp::MemoryWindow<tlm_utils::simple_initiator_socket<Engine>> memory{memory_port};
  explicit Engine(sc_core::sc_module_name name) : sc_core::sc_module(name) {}
};

// Writes 8 bytes at 56, reads them back, then asks for a byte past the end and 2 bytes from 63.
void exercise(bool grants_dmi, int expected_transactions) {
  Engine engine("engine");
  CountingMemory memory("memory", grants_dmi);
  engine.memory_port.bind(memory.socket);
  unsigned char written[8] = {1, 2, 3, 4, 5, 6, 7, 8}, read[8] = {};
  EXPECT_TRUE(engine.memory.access(tlm::TLM_WRITE_COMMAND, 56, written, 8));
  EXPECT_EQ(std::vector<unsigned char>(memory.bytes.begin() + 56, memory.bytes.end()),
            std::vector<unsigned char>(written, written + 8));
  EXPECT_TRUE(engine.memory.access(tlm::TLM_READ_COMMAND, 56, read, 8));
  EXPECT_EQ(std::memcmp(read, written, 8), 0);
  EXPECT_FALSE(engine.memory.access(tlm::TLM_READ_COMMAND, 64, read, 1)) << "past the memory's end";
  EXPECT_FALSE(engine.memory.access(tlm::TLM_WRITE_COMMAND, 63, written, 2)) << "across the memory's end";
  EXPECT_TRUE(engine.memory.access(tlm::TLM_READ_COMMAND, 64, read, 0)) << "nothing to move";
  EXPECT_EQ(memory.transactions, expected_transactions);
}

}  // namespace

TEST(MemoryWindow, CopiesThroughDirectMemoryOnceGranted) {
  exercise(true, 2);  // only the two refused accesses reach b_transport, which answers them
}

TEST(MemoryWindow, UsesBTransportWhenTheMemoryGrantsNoDirectAccess) {
  exercise(false, 4);
}
