// Virtual-channel allocation stage. See vc_allocator.h.
#include "hw/router/vc_allocator.h"

namespace meshmp {

VcAllocator::VcAllocator(int ports, int vcs, bool islip)
    : requests_(ports), pointer_(ports, 0), grant_pointer_(islip ? ports * vcs : 0, 0),
      accept_pointer_(islip ? ports * vcs : 0, 0), granted_request_(islip ? vcs : 0, -1), islip_(islip), vcs_(vcs),
      input_vcs_(ports * vcs) {
  // Room for the worst case now, so the router's state stays together in memory (built in one go).
  for (auto& r : requests_) r.reserve(input_vcs_);
  touched_.reserve(ports);
}

void VcAllocator::request(int out_port, const VcRequest& req) {
  if (requests_[out_port].empty()) touched_.push_back(out_port);
  requests_[out_port].push_back(req);
}

}  // namespace meshmp
