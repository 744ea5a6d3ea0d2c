// Virtual-channel allocation stage. See vc_allocator.h.
#include "hw/vc_allocator.h"

namespace meshmp {

VcAllocator::VcAllocator(int outputs, int input_vcs, bool round_robin_vcs)
    : requests_(outputs), pointer_(outputs, 0), vc_pointer_(outputs, 0), round_robin_vcs_(round_robin_vcs),
      input_vcs_(input_vcs) {
  // Room for the worst case now, so the router's state stays together in memory (built in one go).
  for (auto& r : requests_) r.reserve(input_vcs);
  touched_.reserve(outputs);
}

void VcAllocator::request(int out_port, const VcRequest& req) {
  if (requests_[out_port].empty()) touched_.push_back(out_port);
  requests_[out_port].push_back(req);
}

}  // namespace meshmp
