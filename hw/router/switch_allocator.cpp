// Switch allocation stage. See switch_allocator.h.
#include "hw/router/switch_allocator.h"

#include <utility>

namespace meshmp {

SwitchAllocator::SwitchAllocator(int inputs, int outputs, int vcs)
    : input_pick_(inputs), vc_output_(inputs * vcs, -1), output_pick_(outputs), input_pointer_(inputs, 0),
      output_pointer_(outputs, 0), vcs_(vcs) {
  // Room for the worst case now, so the router's state stays together in memory (built in one go).
  touched_inputs_.reserve(inputs);
  touched_outputs_.reserve(outputs);
  grants_.reserve(outputs);
}

void SwitchAllocator::offer(int in_port, int vc, int out_port) {
  RoundRobinPick& pick = input_pick_[in_port];
  if (pick.first < 0) touched_inputs_.push_back(in_port);
  pick.see(vc, input_pointer_[in_port]);
  vc_output_[in_port * vcs_ + vc] = out_port;
}

const std::vector<SwitchGrant>& SwitchAllocator::allocate() {
  grants_.clear();
  // Stage 1: every input port chooses one of its VCs; inputs come in increasing order, so each output
  // sees its requesting inputs in increasing order too.
  for (int in : touched_inputs_) {
    const int vc = input_pick_[in].winner();
    const int out = vc_output_[in * vcs_ + vc];
    if (output_pick_[out].first < 0) touched_outputs_.push_back(out);
    output_pick_[out].see(in, output_pointer_[out]);
  }
  // Stage 2: every output port grants one requesting input; grants come out in output-port order (the
  // order in which the router drives its output links, as the RTL does).
  for (std::size_t i = 1; i < touched_outputs_.size(); ++i)  // insertion sort: a handful of ports
    for (std::size_t j = i; j > 0 && touched_outputs_[j - 1] > touched_outputs_[j]; --j)
      std::swap(touched_outputs_[j - 1], touched_outputs_[j]);
  for (int out : touched_outputs_) {
    const int in = output_pick_[out].winner();
    const int vc = input_pick_[in].winner();
    grants_.push_back({in, vc, out});
    input_pointer_[in] = (vc + 1) % vcs_;
    output_pointer_[out] = (in + 1) % static_cast<int>(input_pick_.size());
    output_pick_[out].clear();
  }
  for (int in : touched_inputs_) input_pick_[in].clear();
  touched_inputs_.clear();
  touched_outputs_.clear();
  return grants_;
}

}  // namespace meshmp
