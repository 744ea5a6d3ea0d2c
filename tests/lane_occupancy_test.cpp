// A link's virtual channels held over time (hw/network/lane_occupancy.h) against the list of holds it
// replaces: the count at every cycle and the first cycle below a bound are those of counting the holds
// one by one, while time advances and what is over is forgotten.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "hw/network/lane_occupancy.h"

namespace {

struct Hold {
  std::uint64_t from, to;
};

int counted(const std::vector<Hold>& holds, std::uint64_t cycle) {
  return static_cast<int>(
      std::count_if(holds.begin(), holds.end(), [cycle](const Hold& h) { return h.from <= cycle && cycle < h.to; }));
}

TEST(LaneOccupancy, CountsAndFirstFreeCyclesAreThoseOfTheHoldsOneByOne) {
  std::mt19937_64 random(42);
  meshmp::LaneOccupancy occupancy;
  std::vector<Hold> holds;
  std::uint64_t now = 0;
  for (int round = 0; round < 2000; ++round) {
    now += random() % 4;
    occupancy.forget_before(now);
    // The reference keeps the holds that can still count (a cycle from `now` on): scanning every hold
    // ever made took 317 s of the sanitized suite.
    holds.erase(std::remove_if(holds.begin(), holds.end(), [now](const Hold& h) { return h.to <= now; }), holds.end());
    const std::uint64_t from = now + 1 + random() % 40, to = from + 1 + random() % 30;
    occupancy.hold(from, to);
    holds.push_back({from, to});
    for (std::uint64_t cycle = now; cycle < now + 80; ++cycle) {
      ASSERT_EQ(occupancy.held_at(cycle), counted(holds, cycle)) << "cycle " << cycle << " round " << round;
      for (int lanes = 1; lanes <= 3; ++lanes) {
        std::uint64_t expected = cycle;
        while (counted(holds, expected) >= lanes) ++expected;
        ASSERT_EQ(occupancy.first_below(cycle, lanes), expected)
            << "cycle " << cycle << " lanes " << lanes << " round " << round;
      }
    }
  }
}

TEST(LaneOccupancy, ForgettingWhatIsOverKeepsFewChanges) {
  meshmp::LaneOccupancy occupancy;
  for (std::uint64_t now = 0; now < 100000; now += 10) {
    occupancy.forget_before(now);
    occupancy.hold(now + 1, now + 5);
    occupancy.hold(now + 3, now + 9);
    ASSERT_LE(occupancy.changes_kept(), 40u) << "at cycle " << now;
  }
  // The last round's holds, [99991, 99995) and [99993, 99999), are still there.
  EXPECT_EQ(occupancy.held_at(99994), 2);
  EXPECT_EQ(occupancy.first_below(99994, 2), 99995u);
  EXPECT_EQ(occupancy.first_below(99994, 1), 99999u);
}

}  // namespace
