// How many virtual channels of one class of a link are held at each cycle by packets whose tails are held
// back behind their heads (the transaction-level network's approximation of wormhole's chained blocking,
// hw/network/transaction_network.h). It is a step function over cycles, kept as its change points, so
// that the count at a cycle and the first cycle it drops below a bound are found by bisection: the cost
// of a question does not grow with the packets held in the future.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace meshmp {

class LaneOccupancy {
 public:
  // One more virtual channel held over cycles [from, to) (from < to).
  void hold(std::uint64_t from, std::uint64_t to);
  // Virtual channels held at `cycle`.
  int held_at(std::uint64_t cycle) const;
  // The first cycle >= `cycle` at which fewer than `lanes` (>= 1) are held.
  std::uint64_t first_below(std::uint64_t cycle, int lanes) const;
  // Every later question and hold is at `now` or later: forgets the changes before it.
  void forget_before(std::uint64_t now);
  // Change points kept (for tests: forgetting keeps the list short).
  std::size_t changes_kept() const { return changes_.size(); }

 private:
  struct Change {
    std::uint64_t cycle;  // from this cycle on, until the next change,
    int held;             // this many are held
  };
  // The first change after `cycle` (at or after first_).
  std::size_t first_after(std::uint64_t cycle) const;
  // The index of a change at exactly `cycle`, inserted with the count before it if there was none.
  std::size_t change_at(std::uint64_t cycle);

  std::vector<Change> changes_;  // sorted by cycle; before the first change none is held
  std::size_t first_ = 0;        // changes before it are over
};

}  // namespace meshmp
