// A node's DMA engine on paper 004's shared-memory machine (004 §2 B; tlm/shared_memory.h): the register
// map of tlm/dma_registers.h, with the two commands that machine has instead of messages. SHARED_READ
// moves LENGTH bytes from the global memory at GLOBAL_ADDRESS to local memory at LOCAL_ADDRESS,
// SHARED_WRITE the other way; GLOBAL_PIECE and GLOBAL_STRIDE make the global end strided (the pieces
// of tlm/strided_access.h, sent with the transaction as that extension). The engine's one channel (the
// processor's channel to the memory, b_M) carries the queued accesses one after the other, each as one
// TLM-2.0 transaction on `global_port` that blocks for the memory's arbitration, bank conflicts and
// tau_M + m / b_M; the descriptor completes when it returns. A write reads the local bytes when its descriptor starts; a read writes them to local memory
// when the access completes. SEND and RECEIVE are refused: the machine has no messages (004: "data
// exchanges are performed via the global memory").
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "hw/node/dma_engine.h"
#include "hw/node/dma_register_file.h"
#include "tlm/memory_window.h"
#include "tlm/strided_access.h"

namespace meshmp {

class SharedMemoryInterface : public sc_core::sc_module, public DmaEngine {
 public:
  SC_HAS_PROCESS(SharedMemoryInterface);
  tlm_utils::simple_target_socket<SharedMemoryInterface> registers;      // the processor's register accesses
  tlm_utils::simple_initiator_socket<SharedMemoryInterface> memory_port;  // local memory
  tlm_utils::simple_initiator_socket<SharedMemoryInterface> global_port;  // the shared memory's binding

  SharedMemoryInterface(sc_core::sc_module_name name, int node, std::size_t memory_bytes);

  // DmaEngine (the machine has no messages: none is ever unexpected or unreceived)
  tlm::tlm_target_socket<>& register_target() override { return registers; }
  tlm::tlm_initiator_socket<>& memory_initiator() override { return memory_port; }
  const sc_core::sc_event& completion_irq() const override { return registers_.completion_irq(); }
  const std::string& last_error() const override { return registers_.last_error(); }
  std::string describe_descriptor(std::uint32_t id) const override;
  std::uint64_t unexpected_messages() const override { return 0; }
  std::size_t unreceived_messages() const override { return 0; }
  std::vector<std::string> unreceived_descriptions() const override { return {}; }
  std::uint64_t accesses() const { return accesses_; }

 private:
  struct Access {
    std::uint32_t descriptor;
    bool write;
    std::uint32_t global_address;
    std::uint32_t local_address;
    std::uint32_t piece_bytes;  // 0: contiguous
    std::uint32_t stride_bytes;
    std::vector<std::uint8_t> bytes;
  };

  void register_access(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  // The registers' direct memory interface (DmaRegisterFile::grant).
  bool direct_registers(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    return registers_.grant(trans.get_address(), dmi);
  }
  bool command(std::uint32_t value);
  bool start_access(bool write);
  void channel();  // SC_THREAD: the queued accesses, one at a time

  std::size_t memory_bytes_;
  DmaRegisterFile registers_;
  MemoryWindow<tlm_utils::simple_initiator_socket<SharedMemoryInterface>> memory_{memory_port};  // the local memory
  std::deque<Access> queued_;
  std::uint64_t accesses_ = 0;
  tlm::tlm_generic_payload channel_payload_;
  StridedAccess strided_;  // the channel payload's extension while a strided access is in flight
  sc_core::sc_event access_queued_;
};

}  // namespace meshmp
