// A link's virtual channels held over time, as a step function. See lane_occupancy.h.
#include "hw/network/lane_occupancy.h"

#include <algorithm>

namespace meshmp {

std::size_t LaneOccupancy::first_after(std::uint64_t cycle) const {
  const auto at = std::upper_bound(changes_.begin() + static_cast<std::ptrdiff_t>(first_), changes_.end(), cycle,
                                   [](std::uint64_t c, const Change& change) { return c < change.cycle; });
  return static_cast<std::size_t>(at - changes_.begin());
}

int LaneOccupancy::held_at(std::uint64_t cycle) const {
  const std::size_t after = first_after(cycle);
  return after == 0 ? 0 : changes_[after - 1].held;
}

std::uint64_t LaneOccupancy::first_below(std::uint64_t cycle, int lanes) const {
  std::size_t after = first_after(cycle);
  if (after == 0 || changes_[after - 1].held < lanes) return cycle;
  // The last change ends the last hold (none held from then on), so one is found.
  while (changes_[after].held >= lanes) ++after;
  return changes_[after].cycle;
}

std::size_t LaneOccupancy::change_at(std::uint64_t cycle) {
  const auto at = std::lower_bound(changes_.begin() + static_cast<std::ptrdiff_t>(first_), changes_.end(), cycle,
                                   [](const Change& change, std::uint64_t c) { return change.cycle < c; });
  const auto index = static_cast<std::size_t>(at - changes_.begin());
  if (at != changes_.end() && at->cycle == cycle) return index;
  const int before = index == 0 ? 0 : changes_[index - 1].held;
  changes_.insert(at, Change{cycle, before});
  return index;
}

void LaneOccupancy::hold(std::uint64_t from, std::uint64_t to) {
  const std::size_t begin = change_at(from);
  const std::size_t end = change_at(to);  // after `begin`: inserting it leaves `begin` in place
  for (std::size_t i = begin; i < end; ++i) ++changes_[i].held;
}

void LaneOccupancy::forget_before(std::uint64_t now) {
  // The change in force at `now` stays: it gives the count from then on.
  while (first_ + 1 < changes_.size() && changes_[first_ + 1].cycle <= now) ++first_;
  if (!changes_.empty() && first_ + 1 == changes_.size() && changes_[first_].cycle <= now &&
      changes_[first_].held == 0) {  // nothing held from now on
    changes_.clear();
    first_ = 0;
  } else if (first_ > 16 && 2 * first_ > changes_.size()) {
    changes_.erase(changes_.begin(), changes_.begin() + static_cast<std::ptrdiff_t>(first_));
    first_ = 0;
  }
}

}  // namespace meshmp
