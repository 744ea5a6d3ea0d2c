// Router input unit (pipeline stage "buffer write" and the per-VC state of route computation and VC
// allocation): one FIFO per virtual channel holding real flits, the cycle each flit was written, and the
// state of the packet at the front of the VC (idle -> waiting for an output VC -> active).
#pragma once

#include <cstdint>
#include <vector>

#include "hw/flit.h"

namespace meshmp {

enum class VcState : std::uint8_t { Idle, WaitingForVc, Active };

struct BufferedFlit {
  Flit flit;
  std::uint64_t written;  // the cycle it was written (buffer write stage)
};

struct InputVirtualChannel {
  std::vector<BufferedFlit> slots;      // ring buffer, capacity = buffer depth
  int front = 0;
  int count = 0;
  int tails_buffered = 0;               // packets whose tail is in the buffer (store-and-forward)
  VcState state = VcState::Idle;
  // Decided by route computation for the front packet:
  int out_port = -1;
  int out_vc = -1;
  int vc_begin = 0, vc_end = 0;         // the output VCs the packet may use
  std::uint8_t next_vc_class = 0;
  std::uint8_t next_ring_dimension = kNoPort;
  std::uint64_t last_sent_cycle = 0;    // when the last flit left (body-flit stall statistic)

  bool empty() const { return count == 0; }
  const Flit& front_flit() const { return slots[front].flit; }
  std::uint64_t front_written() const { return slots[front].written; }
};

class InputUnit {
 public:
  InputUnit(int vcs, int buffer_flits);

  int num_vcs() const { return static_cast<int>(vcs_.size()); }
  InputVirtualChannel& vc(int v) { return vcs_[v]; }
  const InputVirtualChannel& vc(int v) const { return vcs_[v]; }
  int buffered_flits() const { return buffered_; }
  // Bit v set when VC v holds at least one flit (the router visits only these).
  std::uint32_t occupied_vcs() const { return occupied_; }
  // Bit v set when VC v is in state Active (has its output VC); kept by set_state().
  std::uint32_t active_vcs() const { return active_; }
  void set_state(int v, VcState state) {
    vcs_[v].state = state;
    if (state == VcState::Active) active_ |= 1u << v;
    else active_ &= ~(1u << v);
  }

  // Writes a flit into its VC (the one in flit.vc). Returns false on overflow: a credit-protocol bug.
  bool write(const Flit& flit, std::uint64_t cycle);
  Flit pop(int v);

 private:
  std::vector<InputVirtualChannel> vcs_;
  int capacity_;
  int buffered_ = 0;
  std::uint32_t occupied_ = 0;
  std::uint32_t active_ = 0;
};

}  // namespace meshmp
