// Router output unit: per output virtual channel the credit counter (free slots in the downstream input
// buffer) and the input VC that owns it from VC allocation until its tail flit leaves (wormhole).
// Ejection ports have credits too (the network interface's ejection buffer, returned as the interface
// consumes flits: its back-pressure), and are exclusive: one packet at a time over all their VCs (a
// node's DMA engine receives one worm at a time).
#pragma once

#include <vector>

namespace meshmp {

class OutputUnit {
 public:
  // An ejection port is exclusive when `exclusive`.
  OutputUnit(int vcs, int buffer_flits, bool ejection, bool exclusive);

  int num_vcs() const { return static_cast<int>(credits_.size()); }
  bool ejection() const { return ejection_; }
  int credits(int vc) const { return credits_[vc]; }
  const int& credit_counter(int vc) const { return credits_[vc]; }  // for waveform tracing
  bool has_credit(int vc, int flits = 1) const { return credits_[vc] >= flits; }
  int owner(int vc) const { return owner_[vc]; }
  // True when a new packet may take output VC `vc`: nobody owns it and, on an exclusive (ejection) port,
  // no other packet is passing either.
  bool is_free(int vc) const { return owner_[vc] < 0 && (!exclusive_ || owned_ == 0); }

  void allocate(int vc, int input_vc_index) {
    owner_[vc] = input_vc_index;
    ++owned_;
  }
  void release(int vc) {
    owner_[vc] = -1;
    --owned_;
  }
  // A flit left on `vc`: one downstream slot fewer. Returns false if no credit was left (a bug).
  bool consume_credit(int vc);
  // The downstream router freed a slot. Returns false if that exceeds the buffer depth (a bug).
  bool return_credit(int vc);

 private:
  std::vector<int> credits_;
  std::vector<int> owner_;
  int buffer_flits_;
  bool ejection_;
  bool exclusive_;
  int owned_ = 0;  // output VCs currently owned by a packet
};

}  // namespace meshmp
