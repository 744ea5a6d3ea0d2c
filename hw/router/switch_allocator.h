// Switch allocation stage, separable input-first: each input port picks one of its VCs that holds a
// ready flit with a credit downstream (round robin from a per-input pointer), then each output port
// grants one of the input ports asking for it (round robin from a per-output pointer). Pointers move past
// the winner only on a grant. One flit per input and per output per cycle: the crossbar's limits.
#pragma once

#include <vector>

namespace meshmp {

struct SwitchGrant {
  int in_port;
  int vc;
  int out_port;
};

class SwitchAllocator {
 public:
  SwitchAllocator(int inputs, int outputs, int vcs);

  // Candidates must be offered in increasing (input port, VC) order.
  void offer(int in_port, int vc, int out_port);
  // Runs both arbitration stages; the grants, in increasing output port order, are valid until the next call.
  const std::vector<SwitchGrant>& allocate();

 private:
  // Round robin over a list seen in increasing order: the first entry at or after the pointer wins,
  // else the first entry. Tracked as entries are offered, so no list is ever built.
  struct RoundRobinPick {
    int first = -1;       // first entry seen
    int from_pointer = -1;  // first entry at or after the pointer
    void see(int entry, int pointer) {
      if (first < 0) first = entry;
      if (from_pointer < 0 && entry >= pointer) from_pointer = entry;
    }
    int winner() const { return from_pointer >= 0 ? from_pointer : first; }
    void clear() { first = from_pointer = -1; }
  };
  std::vector<RoundRobinPick> input_pick_;   // per input port: over its VCs
  std::vector<int> vc_output_;               // per (input, vc): requested output port
  std::vector<int> touched_inputs_;
  std::vector<RoundRobinPick> output_pick_;  // per output port: over input ports
  std::vector<int> touched_outputs_;
  std::vector<int> input_pointer_;
  std::vector<int> output_pointer_;
  std::vector<SwitchGrant> grants_;
  int vcs_;
};

}  // namespace meshmp
