// Paper 004 §2 (F), the switch connected machine, as a TLM-2.0 fabric: K = 2^n nodes joined by Lawrie's
// Omega network (D. H. Lawrie, "Access and Alignment of Data in an Array Processor", IEEE Trans. Comp.
// C-24, 1975), the network 004 names as "one of the most popular", whose data movements "are determined
// by the data packet itself". 004 charges tau_S + m / b_S for any set of transfers from P_1..P_k to the
// images of a permutation; this model charges exactly that for every set the network passes without two
// transfers sharing a link (the identity and every uniform shift j -> j + c mod K among them), and
// serialises the transfers of any other set at its links, as the real network blocks. It has no hardware
// broadcast (each 2x2 switch connects one input to one output): a transfer names exactly one receiver.
//
// Wiring. The network has n = log2 K stages, numbered 0 (next to the senders) to n - 1 (next to the
// receivers), and K lines. Sending node i drives line i into stage 0. Before every stage the K lines pass
// a perfect shuffle: line i goes to line rotl_n(i), the rotate-left of i's n bits (i = b_{n-1} .. b_0 ->
// b_{n-2} .. b_0 b_{n-1}). Then K/2 2x2 switches: switch j takes shuffled lines 2j and 2j + 1 and drives
// its upper output, line 2j, or its lower output, line 2j + 1, of the stage. Line d of stage n - 1 is the
// channel to receiving node d.
//
// Routing (destination tags, Lawrie 1975). At stage s the switch sends a message to its upper output if
// bit n-1-s of the destination is 0, its lower output if it is 1: after stage s the line number's low s+1
// bits are the destination's high s+1 bits, so after stage n - 1 the message is on line `destination`.
// A transfer holds one link per stage: (s, line after stage s's switch), n links in all (path()); the
// last is (n - 1, destination). Besides its path, a transfer holds its sender's one channel into the
// network, so a node's transfers leave it one at a time.
//
// Protocol: tlm/message_transfer.h. Sending node i calls b_transport on nodes_in's binding i with a write
// whose MessageTransfer names source i and exactly one destination. The fabric waits out the annotated
// delay, then requests the transfer's links; when they are granted it holds them for
// timing.transfer_cycles(length) = tau + ceil(m / b) cycles, delivers the payload by b_transport on
// nodes_out's binding `destination` (the receiver copies the bytes and answers; a delay it annotates is
// waited out), and returns TLM_OK_RESPONSE (or the receiver's error response) with zero delay. Refused,
// with MessageTransfer::error saying why, and not counted: no extension or a command other than write
// (TLM_GENERIC_ERROR_RESPONSE / TLM_COMMAND_ERROR_RESPONSE), byte enables
// (TLM_BYTE_ENABLE_ERROR_RESPONSE), a streaming width other than the length (TLM_BURST_ERROR_RESPONSE), an
// address other than 0, or a destination that is not a node (TLM_ADDRESS_ERROR_RESPONSE), a source other
// than the binding's node, or no or several destinations (TLM_GENERIC_ERROR_RESPONSE: no hardware
// broadcast). No DMI.
//
// Timing and arbitration. Cycle c is [c * cycle, (c + 1) * cycle); edge e is the time e * cycle, the
// start of cycle e. A request made during cycle c (the time b_transport has waited out its delay, an edge
// time counting as the cycle it starts) is first considered at edge c + 1: arbitration takes one cycle.
// At each edge e the arbiter considers every request made before e and not yet granted, in this order:
// by sending node, round-robin, starting from the node after the last node granted at the latest edge
// that granted anything (node 0 first until the first grant); a node's own requests by request time, then
// destination, tag, sequence, then the order they arrived. Each in turn is granted if every link of its
// path and its sender's channel are free at e; it then holds them for cycles e .. e + L - 1
// (L = transfer_cycles(length)), is delivered at edge e + L, and releases them there; a release, like a
// request, is seen by the next edge, so the links are free again from edge e + L + 1. A request not
// granted waits for a later edge (it is a conflict; its wait is its grant edge minus c + 1 cycles). With
// nothing else in the way a transfer therefore completes 1 + tau + ceil(m / b) cycles after the cycle of
// its request, and a set of transfers the network passes at once completes in one pass of that length.
// Every decision is the arbiter's, made from request cycles and its own record of held links, so the
// result does not depend on the order in which SystemC runs the requesting threads.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tlm/message_transfer.h"

namespace meshmp {

// One link of the Omega network: the output line `line` of stage `stage`'s switches.
struct OmegaLink {
  int stage = 0;
  int line = 0;
  bool operator==(const OmegaLink& other) const { return stage == other.stage && line == other.line; }
  bool operator!=(const OmegaLink& other) const { return !(*this == other); }
};

struct OmegaStepStatistics {
  std::uint64_t transfers = 0;
  std::uint64_t bytes = 0;
  std::uint64_t conflicting_transfers = 0;  // granted later than the first edge that considered them
  std::uint64_t wait_cycles = 0;
  std::uint64_t passes = 0;                 // distinct edges at which this step's transfers were granted
};

struct OmegaStatistics {
  std::uint64_t transfers = 0;              // granted (and so delivered) transfers
  std::uint64_t bytes = 0;
  std::uint64_t conflicting_transfers = 0;  // transfers that waited at least one edge
  std::uint64_t wait_cycles = 0;            // sum over transfers of grant edge - first edge considered
  std::uint64_t passes = 0;                 // distinct edges at which anything was granted
  std::uint64_t peak_concurrent = 0;        // most transfers holding their links at one edge
  std::uint64_t refused = 0;                // error responses
  std::map<std::uint32_t, OmegaStepStatistics> steps;  // by MessageTransfer::step
};

class OmegaSwitch : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<OmegaSwitch> nodes_in;      // binding i: sending node i
  tlm_utils::multi_passthrough_initiator_socket<OmegaSwitch> nodes_out;  // binding d: receiving node d

  // nodes: K, a power of two >= 2; cycle > 0; timing.bytes_per_cycle > 0 (else std::invalid_argument).
  OmegaSwitch(sc_core::sc_module_name name, int nodes, FabricTiming timing, sc_core::sc_time cycle);

  int nodes() const { return nodes_; }
  int stages() const { return stages_; }
  const FabricTiming& timing() const { return timing_; }
  const sc_core::sc_time& cycle() const { return cycle_; }
  const OmegaStatistics& statistics() const { return statistics_; }

  // n = log2(nodes); std::invalid_argument unless nodes is a power of two >= 2.
  static int stage_count(int nodes);
  // The perfect shuffle before every stage: rotate-left of line's n bits.
  static int shuffle(int nodes, int line);
  // The links a transfer from source to destination holds, stage 0 first (n of them; the last is
  // (n - 1, destination)). std::invalid_argument for a node out of range.
  static std::vector<OmegaLink> path(int nodes, int source, int destination);
  // destination_of[i]: node i's destination, or -1 if node i sends nothing. True if no two paths share a
  // link (the network passes the whole set at once).
  static bool conflict_free(int nodes, const std::vector<int>& destination_of);
  // The pass (0, 1, ...) in which this model's arbiter grants each transfer of destination_of (-1 for
  // none) when all are requested during one cycle c with the same length and the arbiter fresh (node 0
  // first): pass p is granted at edge c + 1 + p (L + 1) and delivered L cycles later. -1: sends nothing.
  static std::vector<int> pass_schedule(int nodes, const std::vector<int>& destination_of);

 private:
  struct Request;

  void b_transport(int index, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  // The transfer arriving on binding `index`, checked against the protocol (tlm/message_transfer.h):
  // null, the payload refused with the rule it breaks, when it does not keep it.
  MessageTransfer* checked_transfer(int index, tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(int index, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  void end_of_elaboration() override;
  void arbiter();
  void arbitrate(std::uint64_t edge);
  void refuse(tlm::tlm_generic_payload& trans, tlm::tlm_response_status status, MessageTransfer* transfer,
              const std::string& why);
  std::uint64_t cycle_of(const sc_core::sc_time& time) const;
  sc_core::sc_time edge_time(std::uint64_t edge) const;
  static int arbitration_rank(int nodes, int last_granted, int source);

  const int nodes_;
  const int stages_;
  const FabricTiming timing_;
  const sc_core::sc_time cycle_;

  std::vector<Request*> pending_;               // requests not yet granted
  std::vector<std::uint64_t> link_free_from_;   // by stage * K + line: first edge the link is free
  std::vector<std::uint64_t> sender_free_from_; // by node: first edge its channel into the network is free
  std::vector<std::pair<std::uint64_t, std::uint64_t>> active_;  // (grant edge, delivery edge)
  int last_granted_;                            // node granted last at the latest granting edge
  std::uint64_t last_edge_ = 0;                 // latest edge arbitrated (0: none yet)
  std::uint64_t arrivals_ = 0;
  std::map<std::uint32_t, std::uint64_t> step_last_grant_;
  sc_core::sc_event request_event_;
  OmegaStatistics statistics_;
};

}  // namespace meshmp
