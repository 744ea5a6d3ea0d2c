// A node's network interface with its DMA engine: a register file reached by TLM-2.0 b_transport from the
// processor (descriptors: peer, local address, length, tag, channel, optional source route), a DMA that
// reads the message's real bytes from local memory and hands them to a packetizer per injection channel
// (one-port: one channel; all-port: one per network direction), a depacketizer on the ejection channels,
// and a receive engine that matches arriving messages to posted receives by (source, tag), in the order
// each source sent them (MPI's non-overtaking rule), and writes their bytes into local memory through its
// TLM-2.0 initiator socket. Messages that arrive before their receive is posted wait in the interface's
// bounded buffer; when it is full they wait in the network (ejection credits withheld). Completion of
// any descriptor raises an interrupt.
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
#include <vector>

#include "hw/depacketizer.h"
#include "hw/network.h"
#include "hw/network_endpoint.h"
#include "hw/packetizer.h"

namespace meshmp {

struct ReceivedMessageRecord {
  int src;
  std::uint32_t bytes;
  std::uint64_t latency_cycles;    // from the sender's descriptor to the last byte in memory
  std::uint64_t blocked_cycles;    // header blocking of its packets, summed
};

// Values a waveform shows for the DMA engine.
struct DmaProbe {
  bool busy = false;
  unsigned queued_sends = 0;
  unsigned bytes_left = 0;
  unsigned receives_pending = 0;
  unsigned completed = 0;
};

class NetworkInterface : public sc_core::sc_module, public NetworkEndpoint {
 public:
  tlm_utils::simple_target_socket<NetworkInterface> registers;
  tlm_utils::simple_initiator_socket<NetworkInterface> memory_port;

  // `unexpected_buffer_bytes`: room for messages that arrive before their receive is posted; when it is
  // full, arriving packets wait in the network (the interface withholds its ejection credits).
  NetworkInterface(sc_core::sc_module_name name, int node, Network& network, std::size_t memory_bytes,
                   std::uint64_t unexpected_buffer_bytes);

  const sc_core::sc_event& completion_irq() const { return completion_irq_; }
  // Why the last register access answered with an error response.
  const std::string& last_error() const { return last_error_; }

  // NetworkEndpoint
  bool step(std::uint64_t cycle) override;
  void eject(int channel, const Flit& flit, std::uint64_t cycle) override;
  void injection_credit(int channel, int vc) override;
  std::vector<std::string> describe_pending() const override;

  const std::vector<ReceivedMessageRecord>& received_messages() const { return received_; }
  std::uint64_t unexpected_messages() const { return unexpected_count_; }
  // Messages that arrived but were never matched to a receive (a firmware mistake at the end of a run).
  std::size_t unreceived_messages() const { return buffered_.size(); }
  // Messages whose first packet arrived before that of a message their source had sent earlier.
  std::uint64_t out_of_order_messages() const { return out_of_order_count_; }
  // Largest number of bytes the interface held at once for messages not yet matched to a receive.
  std::uint64_t peak_buffered_bytes() const { return peak_buffered_bytes_; }
  const DmaProbe& probe() const { return probe_; }
  // Keeps probe() up to date (waveform tracing only: it costs a walk over the queues per cycle).
  void enable_probe() { probe_enabled_ = true; }

 private:
  struct Descriptor {
    std::uint32_t address;
    std::uint32_t length;
    std::uint32_t tag;
    bool done = false;
    std::uint32_t bytes_received = 0;
    std::uint64_t blocked_cycles = 0;
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
  bool read_register(std::uint64_t address, unsigned char* data, unsigned length);
  bool descriptor_fits(const std::string& what);  // PEER is a node, the region is in memory
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
  // A whole packet arrived: `record` is its host record, `payload` its bytes.
  void deliver(const PacketRecord& record, const std::vector<std::uint8_t>& payload, std::uint64_t cycle);
  // Admits the buffered messages of `src` that are next in its sending order: each is matched to the
  // oldest posted receive of its (source, tag), or waits for one.
  void admit_in_order(int src, std::uint64_t cycle);
  // Copies a buffered message into the memory of descriptor `id`; completes it when it is whole.
  void hand_over(const SourceMessage& message, BufferedMessage& buffered, int id, std::uint64_t cycle);
  void record_arrival(int src, std::uint32_t bytes, std::uint64_t created_cycle, std::uint64_t blocked_cycles,
                      std::uint64_t cycle);
  void complete(int descriptor);
  void update_probe();

  int node_;
  Network& network_;
  std::size_t memory_bytes_;
  RouterParams params_;
  std::vector<std::unique_ptr<Packetizer>> packetizers_;
  Depacketizer depacketizer_;
  std::vector<Descriptor> descriptors_;
  // Oldest first; almost always one entry per key, so plain vectors (a deque costs a 512-byte chunk).
  std::map<SourceTag, std::vector<int>> posted_receives_;
  std::map<SourceMessage, BufferedMessage> buffered_;             // arrived or arriving, not yet matched
  std::map<SourceTag, std::vector<std::uint32_t>> unmatched_;     // admitted buffered messages, in order
  std::map<SourceMessage, int> message_to_descriptor_;  // messages being written to a posted receive
  // MPI's non-overtaking rule: messages from one source to one destination are numbered in sending order
  // and matched in that order, whatever order their packets arrive in.
  std::vector<std::uint32_t> next_sequence_to_;    // per destination: the next message's number
  std::vector<std::uint32_t> next_sequence_from_;  // per source: the number of the next message to admit
  std::uint64_t unexpected_count_ = 0;
  std::uint64_t out_of_order_count_ = 0;
  std::uint64_t buffered_bytes_ = 0;
  std::uint64_t peak_buffered_bytes_ = 0;
  std::uint64_t buffer_limit_bytes_;
  std::uint64_t reserved_bytes_ = 0;                     // for buffered messages whose first packet is arriving
  std::map<SourceMessage, std::uint32_t> reservations_;  // message -> bytes reserved at its head
  std::vector<std::deque<Flit>> ejected_;                // per ejection channel: flits not yet consumed
  std::vector<ReceivedMessageRecord> received_;

  // Register file.
  std::uint32_t reg_peer_ = 0, reg_address_ = 0, reg_length_ = 0, reg_tag_ = 0;
  std::uint32_t reg_channel_ = 0xffffffff, reg_route_length_ = 0, reg_descriptor_id_ = 0, reg_query_ = 0;
  std::vector<std::uint8_t> reg_route_;
  std::uint32_t completed_ = 0;
  std::string last_error_;

  sc_core::sc_event completion_irq_;
  DmaProbe probe_;
  bool probe_enabled_ = false;
};

}  // namespace meshmp
