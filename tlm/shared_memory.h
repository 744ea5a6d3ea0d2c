// Paper 004 §2 (B), the shared memory model, as a TLM-2.0 target: K processors reach one global memory of
// B word-interleaved banks; moving m bytes between a processor and the memory takes tau + m / b (004's
// tau_M + m / b_M, FabricTiming in whole cycles of `cycle`); processors use different banks at once, and at
// most k* accesses are in flight (the memory's bandwidth is k* processors' channels).
//
// Binding. `processors` is a multi-passthrough target socket bound exactly K times, once per processor; the
// binding index is the processor's number (0 .. K-1, in binding order). end_of_elaboration checks the count
// (SC_REPORT_ERROR otherwise). bytes() is the untimed backdoor (initial data, verifiers); transport_dbg reads
// and writes untimed too. get_direct_mem_ptr answers false: DMI would bypass the banks' timing.
//
// b_transport(payload, delay), from an SC_THREAD of the processor:
//  - the annotated delay is waited out first and returned as SC_ZERO_TIME;
//  - checks, in this order, each answered at once (no cycles charged, memory untouched):
//      command neither TLM_READ_COMMAND nor TLM_WRITE_COMMAND          -> TLM_COMMAND_ERROR_RESPONSE
//      the last byte accessed beyond size_bytes                         -> TLM_ADDRESS_ERROR_RESPONSE
//      a byte-enable pointer (byte enables are refused)                 -> TLM_BYTE_ENABLE_ERROR_RESPONSE
//      streaming width != length, or strided pieces that do not fit     -> TLM_BURST_ERROR_RESPONSE
//      length > 0 with a null data pointer                              -> TLM_GENERIC_ERROR_RESPONSE
//  - otherwise the access is timed as below, blocks the caller until it completes, and answers
//    TLM_OK_RESPONSE. The data pointer is the processor's buffer: a write's bytes are taken from it, a
//    read's bytes are put into it, both at completion (below). dmi_allowed is always false.
//
// A strided access (the StridedAccess extension, tlm/strided_access.h) is one access like any other: one
// tau, its length in bytes streamed at b; only where its bytes lie differs. Below, "the access's byte i"
// is at its memory address (piece floor(i / piece) at address + that times stride); a contiguous access is
// one piece of its length.
//
// Timing (cycles are numbered from time 0: cycle c is [c * cycle, (c + 1) * cycle); edge e starts cycle e).
//  1. Request. A request made at time t (after its annotated delay) is made during cycle c = floor(t / cycle)
//     and is first considered at edge c + 1 (a request made exactly at edge e is therefore considered at e + 1;
//     this makes the outcome independent of the order SystemC runs processes within a time step).
//  2. Duration. Granted at edge t0, an access of m bytes occupies cycles t0 .. t0 + T - 1 with
//     T = timing.transfer_cycles(m) = tau + ceil(m / b) (tau = startup_cycles, b = bytes_per_cycle), and
//     completes at edge t0 + T. A lone access made at time 0 completes at (1 + tau + ceil(m / b)) * cycle.
//  3. Banks. Word w of the memory (w = address / word_bytes) lives in bank w mod B. The access's bytes
//     stream in address order at b bytes per cycle after the tau start-up cycles: byte i of the access moves
//     in cycle t0 + tau + floor(i / b). Word j of the access (j = 0, 1, ..., memory word w0 + j with
//     w0 = address / word_bytes) is in bank (w0 + j) mod B during the one cycle its first byte of the access
//     moves: t0 + tau + floor(s_j / b), s_j = max(0, (w0 + j) * word_bytes - address). For a word-aligned
//     access s_j = j * word_bytes, i.e. cycle t0 + tau + floor(j * word_bytes / b). The access's bank
//     schedule is the set of these (bank, cycle) pairs; a strided access's is its pieces' (each piece as a
//     contiguous access at its address, its byte 0 being the access's byte piece * piece_bytes). An
//     access's own words never conflict with each other.
//     A bank serves a word in that one cycle, even when a word is wider than b (the processor's channel, not
//     the bank, is what limits the rate). An access of no bytes uses no bank (it still costs tau cycles).
//  4. Arbitration, at every edge e where requests are pending (requests made before edge e, see 1):
//     first every access whose completion edge is e completes (5); then the pending requests are visited
//     round-robin by processor, starting with the processor after the last one granted at an earlier edge
//     (processor 0 first at the first edge), each processor's requests in the order it made them. A visited
//     request is granted at e unless
//       a. its processor already has an access in flight, or an earlier request of its processor is still
//          pending (one channel per processor: it waits, a "channel wait"); else
//       b. k* accesses are in flight (granted, completion edge > e; counting those granted at e): a "port
//          wait"; else
//       c. its bank schedule (granted at e) shares a (bank, cycle) pair with an access in flight, including
//          those granted earlier at this edge: a "bank conflict".
//     A request not granted is considered again at the next edge (e + 1). A wait is counted against the
//     first reason that applies, in the order a, b, c.
//  5. Data. Data moves when the access completes, at edge t0 + T, in the memory's own process: at an edge,
//     first every completing write lands (in grant order: of two writes to one byte, the later granted one
//     is the byte's value), then every completing read copies the memory's bytes into its payload. A read
//     therefore sees every write that completed at or before its own completion edge and none that
//     completes later. Then the processor's b_transport returns (at time (t0 + T) * cycle).
//
// Determinism: grants, completion edges and data depend only on the requests' times, processors and
// contents, never on SystemC's process order, provided one processor does not make two requests at the
// same simulated instant from two threads (their order within the processor is then the order they arrive).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <deque>
#include <set>
#include <utility>
#include <vector>

#include "tlm/message_transfer.h"

namespace meshmp {

// Counted over the whole run. Cycle counts are edges or cycles as stated; an access's cycles are counted
// when it is granted.
struct SharedMemoryStatistics {
  std::uint64_t accesses = 0;                // completed TLM_OK accesses (reads + writes)
  std::uint64_t reads = 0;
  std::uint64_t writes = 0;
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  std::uint64_t errors = 0;                  // requests answered with an error response
  std::uint64_t peak_concurrent = 0;         // most accesses in flight at once
  std::uint64_t bank_conflicts = 0;          // requests that waited at least one edge for a bank collision
  std::uint64_t bank_conflict_cycles = 0;    // edges requests waited for bank collisions (summed)
  std::uint64_t port_waits = 0;              // requests that waited at least one edge for the k* limit
  std::uint64_t port_wait_cycles = 0;        // edges requests waited for the k* limit (summed)
  std::uint64_t channel_waits = 0;           // requests that waited for their own processor's channel
  std::uint64_t channel_wait_cycles = 0;
  std::uint64_t busy_cycles = 0;             // cycles with at least one access in flight
};

class SharedMemory : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<SharedMemory> processors;

  // Throws std::invalid_argument unless processors, banks, ports >= 1, word_bytes >= 1,
  // timing.bytes_per_cycle >= 1 and cycle > 0.
  SharedMemory(sc_core::sc_module_name name, int processors, std::uint64_t size_bytes, int banks,
               std::uint32_t word_bytes, int ports, FabricTiming timing, sc_core::sc_time cycle);

  std::uint64_t size() const { return bytes_.size(); }
  std::vector<std::uint8_t>& bytes() { return bytes_; }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

  int processor_count() const { return processor_count_; }
  int banks() const { return banks_; }
  std::uint32_t word_bytes() const { return word_bytes_; }
  int ports() const { return ports_; }
  const FabricTiming& timing() const { return timing_; }
  sc_core::sc_time cycle() const { return cycle_; }
  int bank_of(std::uint64_t address) const {
    return static_cast<int>((address / word_bytes_) % static_cast<std::uint64_t>(banks_));
  }

  const SharedMemoryStatistics& statistics() const { return stats_; }

 private:
  struct Request {
    int processor = 0;
    bool write = false;
    std::uint64_t address = 0;
    std::uint32_t length = 0;
    std::uint32_t piece_bytes = 0;   // the pieces the bytes lie in (tlm/strided_access.h); one piece of
    std::uint32_t stride_bytes = 0;  // `length` for a contiguous access
    unsigned char* data = nullptr;
    std::uint64_t request_cycle = 0;  // considered from edge request_cycle + 1
    std::uint64_t grant_edge = 0;
    std::uint64_t end_edge = 0;
    std::uint64_t grant_sequence = 0;
    bool granted = false;
    bool done = false;
    bool waited_bank = false, waited_port = false, waited_channel = false;
    sc_core::sc_event done_event;  // its caller waits on it alone (a shared event would wake all K callers)
    std::vector<std::pair<std::uint64_t, std::uint64_t>> schedule;  // (cycle, bank)
    // Calls visit(memory address, offset in the data) for each piece, in order.
    template <typename Visit>
    void for_each_piece(Visit visit) const {
      for (std::uint64_t offset = 0, at = address; offset < length; offset += piece_bytes, at += stride_bytes)
        visit(at, offset);
    }
  };

  void end_of_elaboration() override;
  void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& trans);
  tlm::tlm_response_status check(const tlm::tlm_generic_payload& trans) const;

  void edge_thread();
  void complete_through(std::uint64_t edge);
  // Processor p's channel is free and its first request has been considered: it may be granted.
  void mark_ready_if_free(int p, std::uint64_t edge);
  // The requests made before `edge` that have not been considered yet are from now on.
  void consider_arrivals(std::uint64_t edge);
  // Grants what it can at `edge`; returns true when a request waited for a bank (the next edge may differ:
  // the bank schedules shift with the edge). Requests left waiting for a port or their channel wait until
  // an access completes or a request arrives, and the edges in between are not visited: their waits are
  // counted when the next edge is (held_port_waiters_, held_channel_waiters_). Its work is in the
  // processors it grants or finds in a bank conflict, not in all K: the waits are counted from the
  // numbers of considered requests and of ready processors (see rule 4 in the header's comment: a
  // considered request that is not its processor's first, or whose processor's channel is busy, waits
  // for its channel; once the k* ports are taken, every ready processor not yet visited waits for a port).
  bool arbitrate(std::uint64_t edge);
  // Whether `r`'s bank schedule meets a (cycle, bank) pair an access in flight holds.
  bool collides(const Request& r) const;
  // Grants processor `p`'s first request `r` at `edge`: its bank slots reserved, its channel busy until it
  // ends (`in_flight` counts it), its queue moves on.
  void grant(int p, Request& r, std::uint64_t edge, std::uint64_t& in_flight);
  void bank_schedule(Request& request, std::uint64_t grant_edge) const;
  std::uint64_t in_flight_at(std::uint64_t edge) const;

  int processor_count_;
  int banks_;
  std::uint32_t word_bytes_;
  int ports_;
  FabricTiming timing_;
  sc_core::sc_time cycle_;
  std::vector<std::uint8_t> bytes_;

  std::vector<std::deque<Request*>> pending_;   // per processor, in request order
  std::uint64_t pending_count_ = 0;             // requests in pending_
  std::vector<Request*> arriving_;              // pending, not considered yet (made at or after the last edge)
  std::uint64_t considered_count_ = 0;          // pending requests that have been considered
  std::set<int> ready_;                         // processors whose channel is free and first request considered
  std::set<int> fresh_ready_;                   // those of ready_ whose first request never waited for a port
  std::vector<Request*> in_flight_;             // granted, not completed, in grant order
  std::set<std::pair<std::uint64_t, std::uint64_t>> reserved_;  // (cycle, bank) of accesses in flight
  std::vector<std::uint64_t> busy_until_processor_;  // completion edge of the processor's access in flight
  int last_granted_;
  std::uint64_t grant_sequence_ = 0;
  std::uint64_t busy_until_ = 0;  // end of the union of granted accesses' cycles (an edge)
  sc_core::sc_event wake_;        // the edge thread's next edge
  std::uint64_t last_visited_edge_ = 0;
  std::uint64_t held_port_waiters_ = 0, held_channel_waiters_ = 0;
  SharedMemoryStatistics stats_;
};

}  // namespace meshmp
