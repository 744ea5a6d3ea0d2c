// Paper 004's broadcast bus (004 §2 (A), "The Broadcast Bus Model") as a TLM-2.0 interconnect.
//
// What it models. K nodes share one global, time-shared bus. A packet of m words moves between any two
// nodes, or from one node to all (here: to any set of nodes), in tau_B + m / b_B: a broadcast costs
// exactly what one transfer costs. Here m is the payload's data length in bytes, tau_B =
// timing.startup_cycles and b_B = timing.bytes_per_cycle, in cycles of `cycle`. The bus has the
// bandwidth of k* nodes' channels (k* = B / b_B <= K): at most k* transfers hold it at once, each at one
// channel's speed b_B; further requests wait for a free slot. Every transfer goes over the bus (there
// is no other path between nodes).
//
// Sockets. nodes_in is bound once per node, in node order: binding i is node i's sending DMA engine
// (an initiator calling b_transport). nodes_out is bound once per node, in node order: binding i is node
// i's receiving DMA engine (a target). Both must have exactly K bindings at end of elaboration (else
// SC_REPORT_ERROR, which throws sc_core::sc_report out of sc_start; none at all is SystemC's own
// "port not bound" error). The bus speaks the protocol of tlm/message_transfer.h: blocking transport
// only (no nb_transport, no DMI: get_direct_mem_ptr answers false, and nothing is forwarded on the
// backward path; transport_dbg moves no bytes).
//
// A transaction (b_transport on nodes_in[s]):
//   1. its annotated delay is waited out (and the delay returned is zero, whatever the outcome);
//   2. it is checked, in this order, and answered at once (no bus time, nothing delivered) if wrong:
//        not TLM_WRITE_COMMAND                             -> TLM_COMMAND_ERROR_RESPONSE
//        byte enables present                              -> TLM_BYTE_ENABLE_ERROR_RESPONSE
//        streaming width < data length                     -> TLM_BURST_ERROR_RESPONSE
//        no MessageTransfer extension                      -> TLM_GENERIC_ERROR_RESPONSE
//        source != s (the binding it came through)         -> TLM_GENERIC_ERROR_RESPONSE
//        no destination                                    -> TLM_GENERIC_ERROR_RESPONSE
//        a destination outside 0..K-1 (not a node)         -> TLM_ADDRESS_ERROR_RESPONSE
//        a destination listed twice                        -> TLM_GENERIC_ERROR_RESPONSE
//        data length > 0 with no data pointer              -> TLM_GENERIC_ERROR_RESPONSE
//      with the reason in MessageTransfer::error when the extension is there (cleared when accepted). The
//      payload's address is not interpreted (the receiver decides where the bytes land). A destination
//      may be the sender itself;
//   3. it requests the bus and is arbitrated (below);
//   4. granted at edge g, it holds one of the k* slots for n = timing.transfer_cycles(length) =
//      tau + ceil(m / b) cycles: cycles g .. g+n-1;
//   5. at time (g+n) * cycle it is delivered by b_transport on nodes_out[d] to every destination d in
//      ascending node order, all at that same time, with the sender's payload (TLM_WRITE_COMMAND, the
//      extension attached, annotated delay zero; the receiver copies the bytes before it returns). A
//      receiver's returned annotated delay is honoured: the largest of them is waited out afterwards
//      (a receiver that waits inside b_transport delays the receivers after it);
//   6. the slot is released; the sender's b_transport returns TLM_OK_RESPONSE, or, if a receiver
//      answered with an error, the first such receiver's status in ascending node order
//      (TLM_GENERIC_ERROR_RESPONSE for one that left TLM_INCOMPLETE_RESPONSE), with
//      MessageTransfer::error = "node <d> answered <status>[: <the receiver's MessageTransfer::error>]";
//      the other receivers still take the bytes, and the transfer's time is the same.
//
// Arbitration, exactly. Time is counted in cycles of `cycle`; edge e is the instant e * cycle and cycle
// e is [e * cycle, (e+1) * cycle).
//   - A request made during cycle c (at a time t with floor(t / cycle) = c, so a request made exactly at
//     an edge belongs to the cycle that edge starts) is first considered at edge c+1: arbitration takes
//     one cycle.
//   - A slot released during cycle c (the release happens at the delivery time, (g+n) * cycle, or later
//     if a receiver delays) is free again for the arbitration at edge c+1, not at edge c. So a transfer
//     costs the bus 1 + n cycles: with k* = 1, back-to-back transfers complete every 1 + n cycles.
//   - At each edge the arbiter grants as many considered requests as there are free slots (at most k*
//     transfers hold the bus at any time), round-robin by sending node: the next grant goes to the first
//     node, in the cyclic order after the last node granted (initially node K-1, so node 0 first), that
//     has a considered request. A node with several pending requests (several threads on its binding)
//     has them served oldest first, one per round-robin turn.
//   - Arbitration at edge e depends only on requests and releases from before edge e, never on the order
//     in which SystemC runs processes at the same instant: the model is deterministic. (The one order
//     left to SystemC: two requests one node makes at the same instant from two threads go in the
//     order the calls were made.)
// Hence an uncontended transfer made at an edge completes 1 + tau + ceil(m / b) cycles later.
//
// Statistics (counted when a transfer is granted, from the cycles it holds the bus, g .. g+n-1, so they
// do not depend on process order): transfers, bytes, broadcasts (transfers to more than one node), the
// peak number of transfers holding the bus in one cycle, the cycles requests waited from the edge they
// were first considered at to the edge they were granted (in total and per sending node), and the busy
// cycles (cycles in which at least one transfer holds the bus). Refused transactions are counted
// separately (refused) and nowhere else.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <set>
#include <string>
#include <vector>

#include "tlm/message_transfer.h"

namespace meshmp {

struct BusStatistics {
  std::uint64_t transfers = 0;                    // transfers granted the bus
  std::uint64_t bytes = 0;                        // their data lengths
  std::uint64_t broadcasts = 0;                   // of them, those with more than one destination
  std::uint64_t peak_concurrent_transfers = 0;    // most transfers holding the bus in one cycle (<= k*)
  std::uint64_t wait_cycles = 0;                  // sum over transfers of grant edge - first-considered edge
  std::vector<std::uint64_t> node_wait_cycles;    // the same, per sending node (K entries)
  std::uint64_t busy_cycles = 0;                  // cycles with at least one transfer holding the bus
  std::uint64_t refused = 0;                      // transactions answered with an error before the bus
};

class BroadcastBus : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<BroadcastBus> nodes_in;      // binding i = sending node i
  tlm_utils::multi_passthrough_initiator_socket<BroadcastBus> nodes_out;  // binding i = receiving node i

  SC_HAS_PROCESS(BroadcastBus);
  // nodes = K >= 1, concurrent_transfers = k* >= 1, timing.bytes_per_cycle >= 1, cycle > 0; otherwise
  // std::invalid_argument.
  BroadcastBus(sc_core::sc_module_name name, int nodes, int concurrent_transfers, FabricTiming timing,
               sc_core::sc_time cycle);

  int nodes() const { return nodes_; }
  int concurrent_transfers() const { return concurrent_transfers_; }
  const FabricTiming& timing() const { return timing_; }
  const sc_core::sc_time& cycle() const { return cycle_; }

  const BusStatistics& statistics() const { return statistics_; }
  std::uint64_t transfers() const { return statistics_.transfers; }
  std::uint64_t bytes() const { return statistics_.bytes; }
  std::uint64_t broadcasts() const { return statistics_.broadcasts; }
  std::uint64_t peak_concurrent_transfers() const { return statistics_.peak_concurrent_transfers; }
  std::uint64_t wait_cycles() const { return statistics_.wait_cycles; }
  std::uint64_t wait_cycles(int node) const {
    return statistics_.node_wait_cycles.at(static_cast<std::size_t>(node));
  }
  std::uint64_t busy_cycles() const { return statistics_.busy_cycles; }
  std::uint64_t refused() const { return statistics_.refused; }

 private:
  struct Request {
    int source = 0;
    std::uint64_t considered_edge = 0;  // the first edge whose arbitration sees it
    std::uint64_t cycles = 0;           // n = tau + ceil(m / b)
    std::uint64_t bytes = 0;
    bool broadcast = false;
    sc_core::sc_event done;             // notified at grant, for the end of the transfer (g+n)
  };

  void end_of_elaboration() override;
  void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& trans);
  void invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end);
  void refuse(tlm::tlm_generic_payload& trans, MessageTransfer* ext, tlm::tlm_response_status status,
              const std::string& why);
  void deliver(tlm::tlm_generic_payload& trans, MessageTransfer& ext, const std::vector<int>& destinations);
  void arbiter();
  void arbitrate(std::uint64_t edge);
  std::uint64_t current_cycle() const;  // floor(now / cycle)

  int nodes_;
  int concurrent_transfers_;
  FabricTiming timing_;
  sc_core::sc_time cycle_;
  std::uint64_t cycle_ticks_;

  // Arbitration state. arrivals_: requests not yet considered, in the order made (so by considered
  // edge); queues_[node]: its considered requests, oldest first; ready_: nodes with a considered request.
  std::deque<Request*> arrivals_;
  std::vector<std::deque<Request*>> queues_;
  std::set<int> ready_;
  int last_granted_;
  std::uint64_t last_arbitrated_edge_ = 0;   // edge 0 is never arbitrated (no request can be seen there)
  int free_slots_;                           // slots free for the next arbitration
  std::deque<std::uint64_t> released_;       // released slots' first usable edge, nondecreasing
  sc_core::sc_event wake_;                   // a request or a release

  // Statistics state: the end edges of granted transfers still holding the bus at the last grant.
  std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<std::uint64_t>> holding_;
  std::uint64_t busy_until_edge_ = 0;
  BusStatistics statistics_;
};

}  // namespace meshmp
