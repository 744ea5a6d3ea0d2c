// The node API that every algorithm is written against (firmware runs unchanged at every level of
// fidelity): who am I, send / receive / send-and-receive of a region of local memory, waiting for
// completion, local copy charged at rho per byte (000 §3.3 cost model), barriers (a modelled hardware
// barrier, and a software one made of null messages), the null-message signal of 001 §7.2, and step marks
// for the per-step statistics.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "firmware/api/algorithm_options.h"
#include "firmware/api/exchange_layout.h"
#include "firmware/api/exchange_parameters.h"
#include "topology/topology.h"

namespace meshmp {

class Workload;

// A firmware mistake (bad address, unknown peer, ...): ends the run with this message.
class FirmwareError : public std::runtime_error {
 public:
  explicit FirmwareError(const std::string& what) : std::runtime_error(what) { prepare_stack_for_throw(); }

 private:
  // Firmware runs on SystemC's coroutine stacks, which AddressSanitizer does not know as stacks: when an
  // exception is thrown there, its no-return handler cannot clear the stale redzones below the throw and
  // reports a false stack-buffer-overflow. Under AddressSanitizer this clears them; otherwise it is empty.
  static void prepare_stack_for_throw();
};

using Handle = int;

// One strided local copy: `count` pieces of `length` bytes, piece i from `from + i * from_stride` to
// `to + i * to_stride` (a DMA engine's strided descriptor; count 1 is a plain copy).
struct LocalCopy {
  std::uint32_t to = 0;
  std::uint32_t from = 0;
  std::uint32_t length = 0;
  std::uint32_t count = 1;
  std::uint32_t to_stride = 0;
  std::uint32_t from_stride = 0;
};

// Where a shared-memory access's bytes lie in the global memory (004 §2 B; tlm/strided_access.h): pieces
// of piece_bytes, one every stride_bytes from the access's global address. piece_bytes 0: contiguous.
struct GlobalPieces {
  std::uint32_t piece_bytes = 0;
  std::uint32_t stride_bytes = 0;
};

// Tags at or above this value are reserved for the runtime (software barrier).
constexpr std::uint32_t kReservedTagBase = 0x80000000u;

class NodeApi {
 public:
  virtual ~NodeApi() = default;

  virtual int id() const = 0;
  virtual const Topology& topology() const = 0;
  int num_nodes() const { return topology().num_nodes(); }
  int coordinate(int dimension) const { return topology().coordinate(id(), dimension); }
  // True when this node is all-port (a message on every link at once), false when one-port.
  virtual bool all_port() const = 0;
  // The run's workload: how memory started and where every unit must end (firmware/workloads/workload.h).
  virtual const Workload& workload() const = 0;
  // Where the block workloads (complete exchange, one-to-all) keep their blocks in local memory;
  // FirmwareError for the other workloads.
  virtual const ExchangeLayout& layout() const = 0;

  // Starts sending `length` bytes at local `address` to `peer`; charges the start-up t_s. `route`, when
  // given, is the list of output ports the message takes (source routing).
  virtual Handle send(int peer, std::uint32_t address, std::uint32_t length, std::uint32_t tag,
                      const std::vector<int>& route = {}) = 0;
  // Posts a receive of `length` bytes from `peer` with `tag` into local `address`.
  virtual Handle receive(int peer, std::uint32_t address, std::uint32_t length, std::uint32_t tag) = 0;
  // Starts sending `length` bytes at local `address` to every other node at once, in one transfer: the
  // broadcast bus's (004 §2 A); every other node receives it as a message from this node. FirmwareError
  // on a machine without hardware broadcast.
  virtual Handle broadcast(std::uint32_t address, std::uint32_t length, std::uint32_t tag) = 0;
  // The shared-memory machine's accesses (004 §2 B): `length` bytes from local `local_address` to the
  // global memory at `global_address`, and back. Each costs t_s and the memory's tau_M + m / b_M over the
  // node's one channel; FirmwareError on a machine without a global memory. `pieces` makes the global end
  // strided: the bytes lie there in pieces of piece_bytes, one every stride_bytes (one access all the
  // same: one start-up); the local end is contiguous.
  virtual Handle shared_write(std::uint32_t global_address, std::uint32_t local_address, std::uint32_t length,
                              GlobalPieces pieces = {}) = 0;
  virtual Handle shared_read(std::uint32_t local_address, std::uint32_t global_address, std::uint32_t length,
                             GlobalPieces pieces = {}) = 0;
  // Waits until the descriptor completed: a send when its last flit left, a receive when its last byte
  // is in memory.
  virtual void wait(Handle handle) = 0;
  // Waits for every descriptor this node started.
  virtual void wait_all() = 0;
  // True when the descriptor has completed (does not wait).
  virtual bool test(Handle handle) = 0;
  // Waits until one of `handles` has completed and returns its index in `handles`.
  virtual std::size_t wait_any(const std::vector<Handle>& handles) = 0;

  // This machine's cost-model quantities (t_s, link width, rho, port model, largest packet), for
  // firmware that tunes itself to them (003 §6.1.3: MPT's packet size per class).
  virtual ExchangeParameters cost_parameters() const = 0;

  // The algorithm's options, as declared and given for this run.
  virtual const AlgorithmOptions& options() const = 0;

  // Posts the receive, starts the send, waits for both.
  void send_receive(int peer_to, std::uint32_t send_address, int peer_from, std::uint32_t receive_address,
                    std::uint32_t length, std::uint32_t tag) {
    Handle r = receive(peer_from, receive_address, length, tag);
    Handle s = send(peer_to, send_address, length, tag);
    wait(s);
    wait(r);
  }

  // Copies within local memory; charges rho cycles per byte.
  void local_copy(std::uint32_t to, std::uint32_t from, std::uint32_t length) { local_copies({{to, from, length}}); }
  // Copies within local memory as one operation (a gather or scatter of many pieces), the pieces in
  // order; charges rho cycles per byte of all of them (000 §3.3), rounded up once.
  virtual void local_copies(const std::vector<LocalCopy>& copies) = 0;
  // Copies within local memory as consecutive operations, one per LocalCopy: the bytes and the time of
  // a local_copies({copy}) for each in turn (rho per byte, rounded up per operation), spent in one wait.
  // For firmware that moves many single blocks while none of its transfers touches them.
  virtual void local_copy_each(const std::vector<LocalCopy>& copies) = 0;
  // Spends `cycles` cycles computing.
  virtual void compute(std::uint64_t cycles) = 0;

  // The machine's hardware barrier (an AND tree with a fixed latency).
  virtual void hardware_barrier() = 0;
  // A dissemination barrier made of null messages: ceil(log2 N) rounds.
  void software_barrier();
  // 001 §7.2 local synchronization: a null message (header only) to `peer`, and the wait for one.
  void signal(int peer, std::uint32_t tag) { wait(send(peer, 0, 0, tag)); }
  void wait_signal(int peer, std::uint32_t tag) { wait(receive(peer, 0, 0, tag)); }

  // Marks the start of algorithm step `step` (statistics count messages and bytes per step).
  virtual void begin_step(int step) = 0;
  // Cycles since the start of the run.
  virtual std::uint64_t now_cycles() const = 0;

 private:
  std::uint32_t barrier_epoch_ = 0;
};

}  // namespace meshmp
