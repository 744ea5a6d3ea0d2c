// Router input unit. See input_unit.h.
#include "hw/input_unit.h"

namespace meshmp {

InputUnit::InputUnit(int vcs, int buffer_flits) : vcs_(vcs), capacity_(buffer_flits) {
  for (auto& vc : vcs_) vc.slots.resize(buffer_flits);
}

bool InputUnit::write(const Flit& flit, std::uint64_t cycle) {
  InputVirtualChannel& vc = vcs_[flit.vc];
  if (vc.count == capacity_) return false;
  int slot = vc.front + vc.count;
  if (slot >= capacity_) slot -= capacity_;
  vc.slots[slot] = {flit, cycle};
  ++vc.count;
  ++buffered_;
  occupied_ |= 1u << flit.vc;
  if (flit.tail) ++vc.tails_buffered;
  return true;
}

Flit InputUnit::pop(int v) {
  InputVirtualChannel& vc = vcs_[v];
  Flit flit = vc.slots[vc.front].flit;
  if (++vc.front == capacity_) vc.front = 0;
  if (--vc.count == 0) occupied_ &= ~(1u << v);
  --buffered_;
  if (flit.tail) --vc.tails_buffered;
  return flit;
}

}  // namespace meshmp
