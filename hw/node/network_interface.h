// A node's network interface with its DMA engine: a register file reached by TLM-2.0 b_transport from the
// processor (descriptors: peer, local address, length, tag, channel, optional source route), a DMA that
// reads the message's real bytes from local memory and hands them to the network on an injection channel
// (one-port: one channel; all-port: one per network direction), and a receive engine that matches
// arriving messages to posted receives by (source, tag), in the order each source sent them (MPI's
// non-overtaking rule), and writes their bytes into local memory through its TLM-2.0 initiator socket.
// Messages that arrive before their receive is posted wait in the interface's bounded buffer; when it is
// full they wait in the network (ejection credits withheld; cycle level only). Completion of any
// descriptor raises an interrupt.
//
// The network behind it is either level of fidelity (hw/network/interconnect.h). On the cycle-level network a
// packetizer per injection channel injects flits and a depacketizer reassembles the ejected ones; on the
// transaction-level network a TransactionPort hands each message over as one TLM-2.0 transaction and
// takes arriving messages whole (their bytes land when the last packet's would). Everything from the
// registers to the receive matching is the same code for both.
//
// State is kept for what is pending only (a run of millions of messages must fit in memory): a done bit
// per descriptor number, a record per posted receive (linked per source, oldest first) and per message
// being written, the packets in flight in the network's host records.
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
#include <utility>
#include <unordered_map>
#include <vector>

#include "hw/network/depacketizer.h"
#include "hw/node/dma_engine.h"
#include "hw/node/message_statistics.h"
#include "hw/network/interconnect.h"
#include "hw/network/network.h"
#include "hw/network/network_endpoint.h"
#include "hw/network/packetizer.h"
#include "hw/node/peer_table.h"
#include "hw/network/transaction_port.h"
#include "hw/node/zero_load_observer.h"
#include "firmware/api/port_rule.h"

namespace meshmp {

// Values a waveform shows for the DMA engine.
struct DmaProbe {
  bool busy = false;
  unsigned queued_sends = 0;
  unsigned bytes_left = 0;
  unsigned receives_pending = 0;
  unsigned completed = 0;
};

class NetworkInterface : public sc_core::sc_module, public NetworkEndpoint, public DmaEngine {
 public:
  tlm_utils::simple_target_socket<NetworkInterface> registers;
  tlm_utils::simple_initiator_socket<NetworkInterface> memory_port;

  // `unexpected_buffer_bytes`: room for messages that arrive before their receive is posted; when it is
  // full, arriving packets wait in the network (the interface withholds its ejection credits).
  // Every message received is reported to `messages`.
  // `channel_startup_cycles`: a start-up each injection channel spends on every message before its first
  // flit (node.startup_on = channel; 0 when the processor pays t_s).
  // `network`: the cycle-level Network or the TransactionNetwork; the interface attaches itself to it.
  NetworkInterface(sc_core::sc_module_name name, int node, Interconnect& network, std::size_t memory_bytes,
                   std::uint64_t unexpected_buffer_bytes, MessageStatistics& messages,
                   std::uint64_t channel_startup_cycles = 0);

  // DmaEngine
  tlm::tlm_target_socket<>& register_target() override { return registers; }
  tlm::tlm_initiator_socket<>& memory_initiator() override { return memory_port; }
  const sc_core::sc_event& completion_irq() const override { return completion_irq_; }
  const std::string& last_error() const override { return last_error_; }
  std::vector<std::string> unreceived_descriptions() const override;

  // NetworkEndpoint
  bool step(std::uint64_t cycle) override;
  std::uint64_t next_work_cycle(std::uint64_t cycle) const override;
  void eject(int channel, const Flit& flit, std::uint64_t cycle) override;
  void injection_credit(int channel, int vc) override;
  std::vector<std::string> describe_pending() const override;

  // Records of posted receives ever allocated: the most receives pending at once (records are reused).
  std::size_t receive_records_allocated() const { return posted_pool_.size(); }
  // Transaction level: the generic payloads its port ever allocated (one per message in the network at
  // once, not per send taken); 0 at cycle level.
  std::size_t payloads_allocated() const { return transactions_ ? transactions_->payloads_allocated() : 0; }
  // What descriptor `id` is ("send to node 3 tag 1 (64 bytes)"), for stall reports.
  std::string describe_descriptor(std::uint32_t id) const override;
  std::uint64_t unexpected_messages() const override { return unexpected_count_; }
  // Messages that arrived but were never matched to a receive (a firmware mistake at the end of a run).
  std::size_t unreceived_messages() const override { return buffered_.size(); }
  // Checks every message this engine starts against a port rule (004 §2; firmware/api/port_rule.h):
  // a message that breaks it is refused with the monitor's error. Null for none.
  void set_port_rule_monitor(PortRuleMonitor* monitor) { port_rule_monitor_ = monitor; }
  // The run's zero-load model, told each message sent and the receive each message completed (none:
  // nobody is told).
  void observe_zero_load(ZeroLoadObserver* observer) { zero_load_ = observer; }
  // Messages whose first packet arrived before that of a message their source had sent earlier.
  std::uint64_t out_of_order_messages() const { return out_of_order_count_; }
  // Largest number of bytes the interface held at once for messages not yet matched to a receive.
  std::uint64_t peak_buffered_bytes() const { return peak_buffered_bytes_; }
  const DmaProbe& probe() const { return probe_; }
  // Keeps probe() up to date (waveform tracing only: it costs a walk over the queues per cycle).
  void enable_probe() { probe_enabled_ = true; }

 private:
  // A posted receive not yet matched to a message: a slot of posted_pool_, linked per source.
  struct PostedReceive {
    std::uint32_t address;
    std::uint32_t length;
    std::uint32_t tag;
    std::uint32_t id;    // descriptor number
    std::int32_t next;   // next posted receive of the same source (slot), -1 = none
  };
  // A receive whose message is being written to memory, packet by packet.
  struct Transfer {
    std::uint32_t address = 0;
    std::uint32_t length = 0;
    std::uint32_t tag = 0;
    std::uint32_t id = 0;
    std::uint32_t bytes_received = 0;
    std::uint64_t blocked_cycles = 0;
    std::uint64_t created_cycle = 0;
    std::pair<int, std::uint32_t> message{};  // (source, its sequence number to this node)
  };
  // A message that arrived (or is arriving) before it could be matched to a posted receive: its bytes
  // wait in the interface's buffer. It is admitted (eligible for matching) in the order its source sent
  // it to this node.
  struct BufferedMessage {
    std::uint32_t tag;
    std::vector<std::uint8_t> bytes;
    std::uint32_t bytes_received = 0;
    std::uint64_t blocked_cycles = 0;
    std::uint64_t created_cycle = 0;
  };
  using SourceTag = std::pair<int, std::uint32_t>;
  using SourceMessage = std::pair<int, std::uint32_t>;  // (source, its sequence number to this node)

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool write_register(std::uint64_t address, const unsigned char* data, unsigned length);
  bool write_word(std::uint64_t address, std::uint32_t value);
  bool read_register(std::uint64_t address, unsigned char* data, unsigned length);
  // PEER is a node, the region is in memory. `kind`: "send to" or "receive from" (for the error).
  bool descriptor_fits(const char* kind);
  std::uint32_t new_descriptor();                 // the next descriptor number, pending
  bool start_send();
  bool start_receive();
  bool reject(const std::string& why);
  bool memory_access(tlm::tlm_command command, std::uint32_t address, std::uint8_t* data, std::uint32_t length);
  // Consumes the flits waiting on ejection channel `channel` while it can (a head that would need more
  // unexpected-message buffer than is free stops it), returning their credits.
  void drain_ejection(int channel, std::uint64_t cycle);
  // Takes one ejected flit if it can: false when it is the head of a message that must be buffered and
  // does not fit (back-pressure). Returns the flit's credit when it took it.
  bool consume(int channel, const Flit& flit, std::uint64_t cycle);
  // A whole packet arrived: `record` is its host record, `payload` its `n` bytes.
  void deliver(const PacketRecord& record, const std::uint8_t* payload, std::uint32_t n, std::uint64_t cycle);
  // A whole message arrived from the transaction-level network.
  void message_arrived(const NetworkMessage& message, const std::uint8_t* bytes, std::uint32_t length);
  // Admits the buffered messages of `src` that are next in its sending order: each is matched to the
  // oldest posted receive of its (source, tag), or waits for one.
  void admit_in_order(int src, std::uint64_t cycle);
  // The oldest posted receive of (src, tag), unlinked from its list; false when there is none.
  bool take_posted(int src, std::uint32_t tag, PostedReceive& receive);
  bool has_posted(int src, std::uint32_t tag) const;
  // The transfer of `message` into the memory of `receive` (`transfer`): false (and a failure) when the
  // lengths differ.
  bool start_transfer(const SourceMessage& message, const PostedReceive& receive, const PacketRecord& head,
                      Transfer& transfer);
  // Copies a buffered message into the memory of `receive`; completes it when it is whole (its
  // statistics were recorded when it arrived).
  void hand_over(const SourceMessage& message, BufferedMessage& buffered, const PostedReceive& receive,
                 std::uint64_t cycle);
  // A matched message is whole in memory: its statistics, and its receive completes.
  void finish_receive(int src, const Transfer& transfer, std::uint64_t cycle);
  void complete(std::uint32_t descriptor);
  // A receive is whole in memory: completes it, keeping its message's zero-load arrival for the processor.
  void complete_receive(const Transfer& transfer);
  void update_probe();

  int node_;
  Interconnect& network_;
  Network* flit_network_;  // the cycle-level network, or null
  std::size_t memory_bytes_;
  RouterParams params_;
  int channels_;  // injection channels (and ejection channels)
  // Cycle level: a packetizer per injection channel, the depacketizer of the ejection channels.
  std::vector<std::unique_ptr<Packetizer>> packetizers_;
  std::unique_ptr<Depacketizer> depacketizer_;
  // Transaction level: the port of the channels.
  std::unique_ptr<TransactionPort> transactions_;
  MessageStatistics& messages_;
  std::vector<bool> done_;                      // per descriptor number: completed
  std::vector<PostedReceive> posted_pool_;      // posted receives, by slot
  std::vector<std::int32_t> free_posted_;       // free slots of posted_pool_
  std::uint32_t posted_count_ = 0;
  std::map<SourceMessage, BufferedMessage> buffered_;             // arrived or arriving, not yet matched
  std::map<SourceTag, std::vector<std::uint32_t>> unmatched_;     // admitted buffered messages, in order
  std::map<SourceMessage, Transfer> transfers_;  // messages being written to their posted receive
  // Per peer: the head of its posted-receive list, and (MPI's non-overtaking rule: messages from one
  // source to one destination are numbered in sending order and matched in that order, whatever order
  // their packets arrive in) the sequence numbers both ways.
  PeerTable peers_;
  std::uint64_t unexpected_count_ = 0;
  std::uint64_t out_of_order_count_ = 0;
  std::uint64_t buffered_bytes_ = 0;
  std::uint64_t peak_buffered_bytes_ = 0;
  std::uint64_t channel_startup_cycles_ = 0;
  std::uint64_t buffer_limit_bytes_;
  std::uint64_t reserved_bytes_ = 0;                     // for buffered messages whose first packet is arriving
  std::map<SourceMessage, std::uint32_t> reservations_;  // message -> bytes reserved at its head
  std::vector<std::deque<Flit>> ejected_;                // per ejection channel: flits not yet consumed

  // Register file.
  std::uint32_t reg_peer_ = 0, reg_address_ = 0, reg_length_ = 0, reg_tag_ = 0;
  std::uint32_t reg_channel_ = 0xffffffff, reg_route_length_ = 0, reg_descriptor_id_ = 0, reg_query_ = 0;
  std::uint32_t reg_step_mark_ = 0;
  PortRuleMonitor* port_rule_monitor_ = nullptr;
  ZeroLoadObserver* zero_load_ = nullptr;  // told which message was sent and which receive it completed
  std::vector<std::uint8_t> reg_route_;
  std::uint32_t completed_ = 0;
  std::string last_error_;

  sc_core::sc_event completion_irq_;
  DmaProbe probe_;
  bool probe_enabled_ = false;
};

}  // namespace meshmp
