// Virtual-channel allocation stage: head flits that know their output port ask for an output VC. Per
// output port the requests are served in round-robin order of input VC index starting at a pointer that
// moves past the last winner; each winner takes the lowest-numbered free output VC of its class range
// (for cut-through and store-and-forward only one with room for the whole packet). A fixed order that an
// RTL twin reproduces exactly. With round-robin VC selection (router.vc_selection) a winner takes the
// first free VC of its range at or after the port's VC pointer, which then moves past it: successive
// packets through a port spread over its VCs, as BookSim2's iSLIP VC allocator spreads them (SystemC
// router only).
#pragma once

#include <vector>

#include "hw/output_unit.h"

namespace meshmp {

struct VcRequest {
  int input_vc;      // in_port * vcs + vc
  int vc_begin;      // allowed output VCs [vc_begin, vc_end)
  int vc_end;
  int credits_needed;  // 1 for wormhole, the packet length for cut-through / store-and-forward
};

class VcAllocator {
 public:
  VcAllocator(int outputs, int input_vcs, bool round_robin_vcs);

  void request(int out_port, const VcRequest& req);
  // Grants as many requests as there are free output VCs; calls grant(input_vc, out_port, out_vc).
  template <class Grant>
  void allocate(std::vector<OutputUnit>& outputs, Grant&& grant);

 private:
  std::vector<std::vector<VcRequest>> requests_;  // per output port, in input VC order
  std::vector<int> touched_;
  std::vector<int> pointer_;
  std::vector<int> vc_pointer_;  // round-robin VC selection: per output port, where the search starts
  bool round_robin_vcs_;
  int input_vcs_;
};

template <class Grant>
void VcAllocator::allocate(std::vector<OutputUnit>& outputs, Grant&& grant) {
  for (int out : touched_) {
    auto& reqs = requests_[out];
    OutputUnit& unit = outputs[out];
    const int n = static_cast<int>(reqs.size());
    int start = 0;
    while (start < n && reqs[start].input_vc < pointer_[out]) ++start;
    int last_winner = -1;
    for (int k = 0; k < n; ++k) {
      const VcRequest& r = reqs[(start + k) % n];
      const int span = r.vc_end - r.vc_begin;
      int v = r.vc_begin + (round_robin_vcs_ ? vc_pointer_[out] % span : 0);
      for (int i = 0; i < span; ++i, v = v + 1 == r.vc_end ? r.vc_begin : v + 1) {
        if (unit.is_free(v) && unit.has_credit(v, r.credits_needed)) {
          unit.allocate(v, r.input_vc);
          grant(r.input_vc, out, v);
          last_winner = r.input_vc;
          if (round_robin_vcs_) vc_pointer_[out] = v - r.vc_begin + 1;
          break;
        }
      }
    }
    if (last_winner >= 0) pointer_[out] = (last_winner + 1) % input_vcs_;
    reqs.clear();
  }
  touched_.clear();
}

}  // namespace meshmp
