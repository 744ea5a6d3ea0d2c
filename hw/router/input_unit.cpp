// Router input unit. See input_unit.h.
#include "hw/router/input_unit.h"

namespace meshmp {

InputUnit::InputUnit(int vcs, int buffer_flits) : vcs_(vcs), capacity_(buffer_flits) {
  for (auto& vc : vcs_) vc.slots.resize(buffer_flits);
}

bool InputUnit::write(const Flit& flit) {
  InputVirtualChannel& vc = vcs_[flit.vc];
  if (vc.count == capacity_) return false;
  int slot = vc.front + vc.count;
  if (slot >= capacity_) slot -= capacity_;
  vc.slots[slot] = flit;
  ++vc.count;
  ++buffered_;
  ++flits_written_;
  occupied_ |= 1u << flit.vc;
  const std::uint64_t written_now = std::uint64_t{1} << (8 * (flit.vc % 8));
  history_[flit.vc / 8] |= written_now;
  any_young_ |= written_now;
  if (flit.tail) ++vc.tails_buffered;
  return true;
}

Flit InputUnit::pop(int v) {
  InputVirtualChannel& vc = vcs_[v];
  const int slot = vc.front;
  if (vc.slots[slot].tail) --vc.tails_buffered;
  // The front flit is the oldest: if the history still remembers it, it is the highest set bit.
  const std::uint32_t history = write_history(v);
  if (kBitsSet[history] == vc.count)
    history_[v / 8] &= ~(std::uint64_t{1} << (8 * (v % 8) + 31 - __builtin_clz(history)));
  if (++vc.front == capacity_) vc.front = 0;
  if (--vc.count == 0) occupied_ &= ~(1u << v);
  --buffered_;
  return vc.slots[slot];
}

}  // namespace meshmp
