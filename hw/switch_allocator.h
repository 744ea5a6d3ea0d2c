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
  // Runs both arbitration stages; the grants are valid until the next call.
  const std::vector<SwitchGrant>& allocate();

 private:
  struct Candidate {
    int vc;
    int out_port;
  };
  std::vector<std::vector<Candidate>> candidates_;  // per input port
  std::vector<int> touched_inputs_;
  std::vector<std::vector<int>> output_requests_;   // per output port: requesting input ports
  std::vector<int> chosen_vc_;                      // per input port: its stage-1 winner
  std::vector<int> touched_outputs_;
  std::vector<int> input_pointer_;
  std::vector<int> output_pointer_;
  std::vector<SwitchGrant> grants_;
  int vcs_;
};

}  // namespace meshmp
