// A node's network interface with its DMA engine: a register file reached by TLM-2.0 b_transport from the
// processor (hw/node/dma_register_file.h with the channel and source-route registers: peer, local address,
// length, tag, channel, optional source route), a DMA that reads the message's real bytes from local
// memory and hands them to the network on an injection channel (one-port: one channel; all-port: one per
// network direction), and a receive matcher (hw/node/receive_matcher.h) that matches arriving messages to
// posted receives by (source, tag) in each source's sending order and writes their bytes into local memory
// through the interface's TLM-2.0 initiator socket. Completion of any descriptor raises an interrupt.
//
// The network behind it is either level of fidelity, reached through a MessageTransport
// (hw/node/message_transport.h): flits on the cycle-level network, one TLM-2.0 transaction per message on
// the transaction-level one. Everything from the registers to the receive matching is the same code for
// both.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/network/interconnect.h"
#include "hw/node/dma_engine.h"
#include "hw/node/dma_register_file.h"
#include "hw/node/message_rule.h"
#include "hw/node/message_statistics.h"
#include "hw/node/message_transport.h"
#include "hw/node/receive_matcher.h"
#include "hw/node/zero_load_observer.h"
#include "tlm/memory_window.h"

namespace meshmp {

// Values a waveform shows for the DMA engine.
struct DmaProbe {
  bool busy = false;
  unsigned queued_sends = 0;
  unsigned bytes_left = 0;
  unsigned receives_pending = 0;
  unsigned completed = 0;
};

class NetworkInterface : public sc_core::sc_module, public DmaEngine, private TransportClient {
 public:
  tlm_utils::simple_target_socket<NetworkInterface> registers;
  tlm_utils::simple_initiator_socket<NetworkInterface> memory_port;

  // `unexpected_buffer_bytes`: room for messages that arrive before their receive is posted; when it is
  // full, arriving packets wait in the network (the interface withholds its ejection credits; cycle level
  // only). Every message received is reported to `messages`.
  // `channel_startup_cycles`: a start-up each injection channel spends on every message before its first
  // flit (node.startup_on = channel; 0 when the processor pays t_s).
  // `network`: the cycle-level Network or the TransactionNetwork; the interface attaches itself to it.
  NetworkInterface(sc_core::sc_module_name name, int node, Interconnect& network, std::size_t memory_bytes,
                   std::uint64_t unexpected_buffer_bytes, MessageStatistics& messages,
                   std::uint64_t channel_startup_cycles = 0);

  // DmaEngine
  tlm::tlm_target_socket<>& register_target() override { return registers; }
  tlm::tlm_initiator_socket<>& memory_initiator() override { return memory_port; }
  const sc_core::sc_event& completion_irq() const override { return registers_.completion_irq(); }
  const std::string& last_error() const override { return registers_.last_error(); }
  std::vector<std::string> unreceived_descriptions() const override;
  // What descriptor `id` is ("send to node 3 tag 1 (64 bytes)"), for stall reports.
  std::string describe_descriptor(std::uint32_t id) const override;
  std::uint64_t unexpected_messages() const override { return matcher_.unexpected_messages(); }
  // Messages that arrived but were never matched to a receive (a firmware mistake at the end of a run).
  std::size_t unreceived_messages() const override { return matcher_.unreceived_messages(); }

  // The interface's state for deadlock and stall reports (empty when idle).
  std::vector<std::string> describe_pending() const override;
  // Records of posted receives ever allocated: the most receives pending at once (records are reused).
  std::size_t receive_records_allocated() const { return matcher_.receive_records_allocated(); }
  // Transaction level: the generic payloads its port ever allocated (one per message in the network at
  // once, not per send taken); 0 at cycle level.
  std::size_t payloads_allocated() const { return transport_->payloads_allocated(); }
  // Transaction level: the buffers for sent messages' bytes it ever allocated (the rest were recycled from
  // messages delivered); 0 at cycle level.
  std::size_t payload_buffers_allocated() const { return transport_->payload_buffers_allocated(); }
  // Checks every message this engine starts against `rule` (004 §2's port rules, given by the machine): a
  // message that breaks it is refused with the rule's error. Null for none.
  void set_message_rule(MessageRule* rule) { message_rule_ = rule; }
  // The run's zero-load model, told each message sent and the receive each message completed (none:
  // nobody is told).
  void observe_zero_load(ZeroLoadObserver* observer) { zero_load_ = observer; }
  // Messages whose first packet arrived before that of a message their source had sent earlier.
  std::uint64_t out_of_order_messages() const { return matcher_.out_of_order_messages(); }
  // Largest number of bytes the interface held at once for messages not yet matched to a receive.
  std::uint64_t peak_buffered_bytes() const { return matcher_.peak_buffered_bytes(); }
  // Completion interrupts raised (hw/node/dma_register_file.h: interrupt moderation).
  std::uint64_t interrupts_raised() const { return registers_.interrupts_raised(); }
  const DmaProbe& probe() const { return probe_; }
  // Keeps probe() up to date (waveform tracing only: it costs a walk over the queues per cycle).
  void enable_probe() { probe_enabled_ = true; }

 private:
  // TransportClient
  void send_finished(std::uint32_t descriptor) override { registers_.complete(descriptor); }
  void transport_changed() override { update_probe(); }

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  // The registers' direct memory interface (DmaRegisterFile::grant).
  bool direct_registers(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    return registers_.grant(trans.get_address(), dmi);
  }
  bool command(std::uint32_t value);
  // PEER is a node, the region is in memory. `kind`: "send to" or "receive from" (for the error).
  bool descriptor_fits(const char* kind);
  bool start_send();
  // The injection channel of a send to PEER along `route` (CHANNEL, or by the first hop).
  bool choose_channel(const std::vector<std::uint8_t>& route, int& channel);
  // The source route from ROUTE / ROUTE_LENGTH, checked to lead from this node to PEER.
  bool read_source_route(std::vector<std::uint8_t>& route);
  bool start_receive();
  void update_probe();
  // The descriptor being written, for errors ("send to node 3 tag 1").
  std::string describe_registers(const char* kind) const;

  int node_;
  Interconnect& network_;
  std::size_t memory_bytes_;
  std::uint64_t channel_startup_cycles_;
  DmaRegisterFile registers_;
  MemoryWindow<tlm_utils::simple_initiator_socket<NetworkInterface>> memory_{memory_port};  // the local memory
  ReceiveMatcher matcher_;
  std::unique_ptr<MessageTransport> transport_;
  MessageRule* message_rule_ = nullptr;
  ZeroLoadObserver* zero_load_ = nullptr;  // told which message was sent and which receive it completed
  DmaProbe probe_;
  bool probe_enabled_ = false;
};

}  // namespace meshmp
