// Virtual-channel allocation stage: head flits that know their output port ask for an output VC. Two
// allocator architectures (router.vc_allocator):
// - per-port (the default, and the RTL router's): per output port the requests are served in round-robin
//   order of input VC index starting at a pointer that moves past the last winner; each winner takes the
//   lowest-numbered free output VC of its class range that has a credit (for cut-through and
//   store-and-forward one with room for the whole packet). Every request that can be met is met.
// - islip (SystemC router only): BookSim2's separable iSLIP allocator with one iteration. Every free
//   output VC grants one of the input VCs asking for it, the first at or after its grant pointer; every
//   input VC accepts one of its grants, the first output VC (numbered port * vcs + vc) at or after its
//   accept pointer; both pointers move past the match. An output VC whose grant is not accepted stays
//   free this cycle although another input VC asked for it, and a wormhole head is given an output VC
//   whether or not it has a credit (the switch allocator waits for one). Successive packets from an
//   input VC take the output VCs in turn.
#pragma once

#include <vector>

#include "hw/router/output_unit.h"

namespace meshmp {

struct VcRequest {
  int input_vc;      // in_port * vcs + vc
  int vc_begin;      // allowed output VCs [vc_begin, vc_end)
  int vc_end;
  int credits_needed;  // 1 for wormhole, the packet length for cut-through / store-and-forward
};

class VcAllocator {
 public:
  VcAllocator(int ports, int vcs, bool islip);

  // Requests must be made in increasing input VC order.
  void request(int out_port, const VcRequest& req);
  // Grants requests for free output VCs; calls grant(input_vc, out_port, out_vc) for each.
  template <class Grant>
  void allocate(std::vector<OutputUnit>& outputs, Grant&& grant);

 private:
  template <class Grant>
  void allocate_per_port(int out, OutputUnit& unit, Grant& grant);
  template <class Grant>
  void allocate_islip(int out, OutputUnit& unit, Grant& grant);

  std::vector<std::vector<VcRequest>> requests_;  // per output port, in input VC order
  std::vector<int> touched_;
  std::vector<int> pointer_;        // per-port: per output port, the input VC served first
  std::vector<int> grant_pointer_;   // islip: per output VC (port * vcs + vc)
  std::vector<int> accept_pointer_;  // islip: per input VC
  std::vector<int> granted_request_;  // islip: per VC of the port being allocated, the request it grants
  bool islip_;
  int vcs_;
  int input_vcs_;
};

template <class Grant>
void VcAllocator::allocate(std::vector<OutputUnit>& outputs, Grant&& grant) {
  for (int out : touched_) {
    if (islip_)
      allocate_islip(out, outputs[out], grant);
    else
      allocate_per_port(out, outputs[out], grant);
    requests_[out].clear();
  }
  touched_.clear();
}

template <class Grant>
void VcAllocator::allocate_per_port(int out, OutputUnit& unit, Grant& grant) {
  const auto& reqs = requests_[out];
  const int n = static_cast<int>(reqs.size());
  int start = 0;
  while (start < n && reqs[start].input_vc < pointer_[out]) ++start;
  int last_winner = -1;
  for (int k = 0; k < n; ++k) {
    const VcRequest& r = reqs[(start + k) % n];
    for (int v = r.vc_begin; v < r.vc_end; ++v) {
      if (unit.is_free(v) && unit.has_credit(v, r.credits_needed)) {
        unit.allocate(v, r.input_vc);
        grant(r.input_vc, out, v);
        last_winner = r.input_vc;
        break;
      }
    }
  }
  if (last_winner >= 0) pointer_[out] = (last_winner + 1) % input_vcs_;
}

template <class Grant>
void VcAllocator::allocate_islip(int out, OutputUnit& unit, Grant& grant) {
  const auto& reqs = requests_[out];
  const int n = static_cast<int>(reqs.size());
  // Grant: each free output VC picks a request (index into reqs) round robin by input VC.
  for (int v = 0; v < vcs_; ++v) {
    int& picked = granted_request_[v];
    picked = -1;
    if (!unit.is_free(v)) continue;
    const int from = grant_pointer_[out * vcs_ + v];
    int first = -1;
    for (int k = 0; k < n; ++k) {
      const VcRequest& r = reqs[k];
      if (v < r.vc_begin || v >= r.vc_end) continue;
      if (r.credits_needed > 1 && !unit.has_credit(v, r.credits_needed)) continue;  // a whole packet's room
      if (first < 0) first = k;
      if (r.input_vc >= from) { picked = k; break; }
    }
    if (picked < 0) picked = first;
  }
  // Accept: each request takes one of its grants round robin by output VC number.
  for (int k = 0; k < n; ++k) {
    const VcRequest& r = reqs[k];
    const int from = accept_pointer_[r.input_vc];
    int first = -1;
    int accepted = -1;
    for (int v = r.vc_begin; v < r.vc_end; ++v) {
      if (granted_request_[v] != k) continue;
      if (first < 0) first = v;
      if (out * vcs_ + v >= from) { accepted = v; break; }
    }
    if (accepted < 0) accepted = first;
    if (accepted < 0 || !unit.is_free(accepted)) continue;  // an exclusive (ejection) port: one packet at a time
    unit.allocate(accepted, r.input_vc);
    grant(r.input_vc, out, accepted);
    grant_pointer_[out * vcs_ + accepted] = (r.input_vc + 1) % input_vcs_;
    accept_pointer_[r.input_vc] = (out * vcs_ + accepted + 1) % input_vcs_;
  }
}

}  // namespace meshmp
