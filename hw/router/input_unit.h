// Router input unit (pipeline stage "buffer write" and the per-VC state of route computation and VC
// allocation): one FIFO per virtual channel holding real flits, the age of every buffered flit (cycles
// since its buffer write, saturating at the deepest pipeline), and the state of the packet at the front of
// the VC (idle -> waiting for an output VC -> active).
//
// Ages are state an RTL holds in a few bits: per VC a write-history shift register, bit k set when a flit
// was written k cycles ago (k < kAgeSaturation; a VC takes at most one flit per cycle). The young flits are
// the newest ones, so the i-th newest flit's age is the position of the i-th set bit, and every flit older
// than the register remembers has the saturated age. The registers shift once per cycle at the edge (the
// router is stepped every cycle while it holds flits).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "hw/base/config_limits.h"
#include "hw/router/flit.h"
#include "hw/router/routing.h"

namespace meshmp {

// Set bits of a byte, as a table: the baseline x86-64 target has no population-count instruction.
struct BitsSetTable {
  std::uint8_t count[256];
  constexpr BitsSetTable() : count() {
    for (int b = 1; b < 256; ++b) count[b] = static_cast<std::uint8_t>(count[b >> 1] + (b & 1));
  }
  constexpr int operator[](std::uint32_t byte) const { return count[byte]; }
};
inline constexpr BitsSetTable kBitsSet{};

enum class VcState : std::uint8_t { Idle, WaitingForVc, Active };

// Ages stop here: no pipeline is deeper, so an age this large means "old enough for any stage".
constexpr int kAgeSaturation = static_cast<int>(limits::kPipelineDepth.max);
static_assert(kAgeSaturation <= 8, "a VC's write history is one byte");

struct InputVirtualChannel {
  std::vector<Flit> slots;              // ring buffer, capacity = buffer depth
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
  // How many outputs an adaptive function offered the front head (0: out_port is the route); the outputs
  // are in the router's table (Router::route_choices_), out of the way of the VC state every cycle reads.
  std::uint8_t route_choices = 0;
  // The cycle the last tail crossed the switch from this VC (head pipeline from-front: the head behind
  // it is routed the cycle after).
  std::uint64_t last_tail_cycle = 0;

  bool empty() const { return count == 0; }
  const Flit& front_flit() const { return slots[front]; }
  Flit& front_flit() { return slots[front]; }  // route computation writes a two-phase head's header
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

  // Age (cycles since its buffer write, at most kAgeSaturation) of the flit `behind` places behind the
  // front of VC v (0 = the front flit).
  // The front flit's age: the oldest flit the history remembers is its highest set bit.
  int front_age(int v) const {
    const std::uint32_t history = write_history(v);
    if (vcs_[v].count > kBitsSet[history]) return kAgeSaturation;
    return 31 - __builtin_clz(history);
  }
  int age(int v, int behind) const {
    std::uint32_t history = write_history(v);
    const int newest_first = vcs_[v].count - 1 - behind;
    if (newest_first >= kBitsSet[history]) return kAgeSaturation;
    for (int k = 0; k < newest_first; ++k) history &= history - 1;
    return __builtin_ctz(history);
  }

  // Buffer write: the flit goes into its VC (the one in flit.vc) with age 0. Returns false on overflow:
  // a credit-protocol bug.
  bool write(const Flit& flit);
  Flit pop(int v);
  // Flits written since the unit was built (the power model's buffer writes).
  std::uint64_t flits_written() const { return flits_written_; }
  // The clock edge: every buffered flit is one cycle older.
  void age_one_cycle() {
    if (any_young_ == 0) return;
    any_young_ = 0;
    for (std::uint64_t& word : history_) {
      word = (word << 1) & kHistoryMask;
      any_young_ |= word;
    }
  }

 private:
  // Bits 0..kAgeSaturation-1 of every byte.
  static constexpr std::uint64_t kHistoryMask = 0x0101010101010101ull * ((1u << kAgeSaturation) - 1);
  std::uint32_t write_history(int v) const { return (history_[v / 8] >> (8 * (v % 8))) & 0xff; }

  std::vector<InputVirtualChannel> vcs_;
  std::array<std::uint64_t, 2> history_{};  // write-history registers, one byte per VC (16 VCs at most)
  std::uint64_t any_young_ = 0;         // nonzero while some register holds a bit
  int capacity_;
  int buffered_ = 0;
  std::uint64_t flits_written_ = 0;
  std::uint32_t occupied_ = 0;
  std::uint32_t active_ = 0;
};

}  // namespace meshmp
