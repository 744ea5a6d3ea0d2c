// Router output unit: per output virtual channel the credit counter (free slots in the downstream input
// buffer) and the input VC that owns it from VC allocation until its tail flit leaves (wormhole).
// Ejection ports drain into the network interface every cycle, so their credits never run out.
#pragma once

#include <vector>

namespace meshmp {

class OutputUnit {
 public:
  OutputUnit(int vcs, int buffer_flits, bool unlimited_credits);

  int num_vcs() const { return static_cast<int>(credits_.size()); }
  bool unlimited_credits() const { return unlimited_; }
  int credits(int vc) const { return credits_[vc]; }
  const int& credit_counter(int vc) const { return credits_[vc]; }  // for waveform tracing
  bool has_credit(int vc, int flits = 1) const { return unlimited_ || credits_[vc] >= flits; }
  int owner(int vc) const { return owner_[vc]; }
  bool is_free(int vc) const { return owner_[vc] < 0; }

  void allocate(int vc, int input_vc_index) { owner_[vc] = input_vc_index; }
  void release(int vc) { owner_[vc] = -1; }
  // A flit left on `vc`: one downstream slot fewer. Returns false if no credit was left (a bug).
  bool consume_credit(int vc);
  // The downstream router freed a slot. Returns false if that exceeds the buffer depth (a bug).
  bool return_credit(int vc);

 private:
  std::vector<int> credits_;
  std::vector<int> owner_;
  int buffer_flits_;
  bool unlimited_;
};

}  // namespace meshmp
