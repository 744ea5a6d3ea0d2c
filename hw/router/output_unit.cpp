// Router output unit. See output_unit.h.
#include "hw/router/output_unit.h"

namespace meshmp {

OutputUnit::OutputUnit(int vcs, int buffer_flits, bool ejection, bool exclusive)
    : credits_(vcs, buffer_flits), owner_(vcs, -1), buffer_flits_(buffer_flits), ejection_(ejection), exclusive_(exclusive) {}

bool OutputUnit::consume_credit(int vc) {
  if (credits_[vc] <= 0) return false;
  --credits_[vc];
  return true;
}

bool OutputUnit::return_credit(int vc) {
  if (credits_[vc] >= buffer_flits_) return false;
  ++credits_[vc];
  return true;
}

}  // namespace meshmp
