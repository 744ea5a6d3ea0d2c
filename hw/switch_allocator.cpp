// Switch allocation stage. See switch_allocator.h.
#include "hw/switch_allocator.h"

namespace meshmp {

SwitchAllocator::SwitchAllocator(int inputs, int outputs, int vcs)
    : candidates_(inputs), output_requests_(outputs), chosen_vc_(inputs, -1),
      input_pointer_(inputs, 0), output_pointer_(outputs, 0), vcs_(vcs) {}

void SwitchAllocator::offer(int in_port, int vc, int out_port) {
  if (candidates_[in_port].empty()) touched_inputs_.push_back(in_port);
  candidates_[in_port].push_back({vc, out_port});
}

const std::vector<SwitchGrant>& SwitchAllocator::allocate() {
  grants_.clear();
  // Stage 1: every input port chooses one VC. Inputs are offered in increasing order, so the
  // per-output request lists come out sorted by input port.
  for (int in : touched_inputs_) {
    auto& cands = candidates_[in];
    const Candidate* pick = &cands.front();
    for (const auto& c : cands)
      if (c.vc >= input_pointer_[in]) { pick = &c; break; }
    chosen_vc_[in] = pick->vc;
    if (output_requests_[pick->out_port].empty()) touched_outputs_.push_back(pick->out_port);
    output_requests_[pick->out_port].push_back(in);
    cands.clear();
  }
  touched_inputs_.clear();
  // Stage 2: every output port grants one requesting input.
  for (int out : touched_outputs_) {
    auto& reqs = output_requests_[out];
    int in = reqs.front();
    for (int r : reqs)
      if (r >= output_pointer_[out]) { in = r; break; }
    grants_.push_back({in, chosen_vc_[in], out});
    input_pointer_[in] = (chosen_vc_[in] + 1) % vcs_;
    output_pointer_[out] = (in + 1) % static_cast<int>(candidates_.size());
    reqs.clear();
  }
  touched_outputs_.clear();
  return grants_;
}

}  // namespace meshmp
