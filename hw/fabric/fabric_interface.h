// A node's DMA engine on one of paper 004's shared-resource machines (004 §2 A broadcast bus, §2 F
// switch; tlm/broadcast_bus.h, tlm/omega_switch.h): the register map of tlm/dma_registers.h, as the
// processor sees it on the router network (hw/node/network_interface.h), with whole messages instead of flits.
//  - Send: COMMAND = send reads the message from local memory when the descriptor starts and queues it;
//    the engine's one channel sends the queued messages one after the other, each as one TLM-2.0
//    transaction on `fabric_out` (tlm/message_transfer.h: a write with the bytes and a MessageTransfer
//    naming this node, the receiver, the tag, the step mark and the message's number to that receiver),
//    which blocks for the fabric's arbitration and tau + m / b; the send completes when it returns.
//    PEER = kPeerAllOthers broadcasts to every other node (a fabric without broadcast refuses it).
//  - Receive: messages arrive on `fabric_in` (the engine is the fabric's target); an arriving message
//    is matched to the oldest posted receive of its source and tag and written to memory, or kept in the
//    engine's buffer until such a receive is posted. A sender's messages to one node arrive in the order
//    it sent them (its channel sends one at a time, each delivered before the next starts), so messages
//    meet their receives in sending order, as on the router network.
//  - Errors (a peer that is not a node, a region outside memory, a receive whose LENGTH differs from the
//    message's, a transfer the fabric refuses) are error responses with last_error() saying why.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hw/node/dma_engine.h"
#include "hw/node/dma_register_file.h"
#include "tlm/memory_window.h"
#include "tlm/message_transfer.h"

namespace meshmp {

class FabricInterface : public sc_core::sc_module, public DmaEngine {
 public:
  SC_HAS_PROCESS(FabricInterface);
  tlm_utils::simple_target_socket<FabricInterface> registers;     // the processor's register accesses
  tlm_utils::simple_initiator_socket<FabricInterface> memory_port; // local memory
  tlm_utils::simple_initiator_socket<FabricInterface> fabric_out;  // to the fabric's nodes_in binding
  tlm_utils::simple_target_socket<FabricInterface> fabric_in;      // from the fabric's nodes_out binding

  FabricInterface(sc_core::sc_module_name name, int node, int nodes, std::size_t memory_bytes);

  // DmaEngine
  tlm::tlm_target_socket<>& register_target() override { return registers; }
  tlm::tlm_initiator_socket<>& memory_initiator() override { return memory_port; }
  const sc_core::sc_event& completion_irq() const override { return registers_.completion_irq(); }
  const std::string& last_error() const override { return registers_.last_error(); }
  std::string describe_descriptor(std::uint32_t id) const override;
  std::uint64_t unexpected_messages() const override { return unexpected_count_; }
  std::size_t unreceived_messages() const override;
  std::vector<std::string> unreceived_descriptions() const override;

  std::uint64_t messages_sent() const { return messages_sent_; }
  std::uint64_t messages_received() const { return messages_received_; }

 private:
  struct OutgoingMessage {
    std::uint32_t descriptor;
    std::uint32_t peer;
    std::uint32_t tag;
    std::uint32_t step;
    std::vector<std::uint8_t> bytes;
  };
  struct PostedReceive {
    std::uint32_t descriptor;
    std::uint32_t address;
    std::uint32_t length;
  };
  using SourceTag = std::pair<int, std::uint32_t>;

  void register_access(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  // The registers' direct memory interface (DmaRegisterFile::grant).
  bool direct_registers(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    return registers_.grant(trans.get_address(), dmi);
  }
  void message_in(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool command(std::uint32_t value);
  bool start_send();
  bool start_receive();
  void channel();  // SC_THREAD: sends the queued messages one at a time

  int node_;
  int nodes_;
  std::size_t memory_bytes_;
  DmaRegisterFile registers_;
  MemoryWindow<tlm_utils::simple_initiator_socket<FabricInterface>> memory_{memory_port};  // the local memory
  std::deque<OutgoingMessage> outgoing_;
  std::vector<std::uint64_t> sequence_to_;              // per receiver: messages sent to it so far
  std::map<SourceTag, std::deque<PostedReceive>> posted_;
  std::map<SourceTag, std::deque<std::vector<std::uint8_t>>> buffered_;
  std::uint64_t messages_sent_ = 0, messages_received_ = 0, unexpected_count_ = 0;
  tlm::tlm_generic_payload channel_payload_;  // the channel's transaction; it owns its extension
  MessageTransfer* channel_transfer_ = nullptr;
  sc_core::sc_event send_queued_;
};

// Node `node`'s engine on a fabric whose `nodes_in` / `nodes_out` sockets take one binding per node, in
// node order (the broadcast bus, the Omega switch): binding i is node i.
template <typename Fabric>
std::unique_ptr<DmaEngine> make_bound_fabric_interface(Fabric& fabric, int node, int nodes, std::size_t memory_bytes) {
  auto engine = std::make_unique<FabricInterface>("dma", node, nodes, memory_bytes);
  engine->fabric_out.bind(fabric.nodes_in);
  fabric.nodes_out.bind(engine->fabric_in);
  return engine;
}

}  // namespace meshmp
