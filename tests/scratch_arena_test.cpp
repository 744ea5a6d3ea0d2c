// ScratchArena (firmware/api/scratch_arena.h): a node's scratch taken first-fit and given back, the
// bytes of a message reused by a later one; taking more than was declared, or giving a range back
// twice, is refused.
#include <gtest/gtest.h>

#include <stdexcept>

#include "firmware/api/scratch_arena.h"

namespace meshmp {
namespace {

TEST(ScratchArena, TakesTheLowestRangeThatFits) {
  ScratchArena scratch(1000, 100);
  EXPECT_EQ(scratch.take(30), 1000u);
  EXPECT_EQ(scratch.take(30), 1030u);
  EXPECT_EQ(scratch.take(30), 1060u);
  scratch.give_back(1000, 30);
  EXPECT_THROW(scratch.take(40), std::logic_error) << "40 bytes fit neither the freed 30 nor the last 10";
  EXPECT_EQ(scratch.take(10), 1000u) << "the lowest range that fits: the freed one, below the tail";
  EXPECT_EQ(scratch.take(20), 1010u);
  EXPECT_EQ(scratch.take(10), 1090u);
}

TEST(ScratchArena, ReusesTheBytesOfWhatWasGivenBack) {
  ScratchArena scratch(0, 100);
  const std::uint32_t first = scratch.take(50);
  scratch.give_back(first, 50);
  EXPECT_EQ(scratch.take(50), first);
  EXPECT_EQ(scratch.high_water(), 50u) << "a range taken again raises no high water";
}

TEST(ScratchArena, JoinsNeighboursGivenBack) {
  ScratchArena scratch(0, 90);
  const std::uint32_t a = scratch.take(30), b = scratch.take(30), c = scratch.take(30);
  scratch.give_back(a, 30);
  scratch.give_back(c, 30);
  scratch.give_back(b, 30);  // joins both sides: one free range of 90
  EXPECT_EQ(scratch.take(90), 0u);
}

TEST(ScratchArena, TakesRangesGivenFromOutsideItsOwn) {
  ScratchArena scratch(1000, 10);
  scratch.give_back(200, 64);  // a buffer the firmware has finished with
  EXPECT_EQ(scratch.take(64), 200u);
  EXPECT_EQ(scratch.take(10), 1000u);
}

TEST(ScratchArena, RefusesMoreThanItHolds) {
  ScratchArena scratch(0, 100);
  scratch.take(60);
  EXPECT_THROW(scratch.take(41), std::logic_error);
  EXPECT_THROW(scratch.take(0), std::logic_error);
}

TEST(ScratchArena, RefusesARangeGivenBackTwice) {
  ScratchArena scratch(0, 100);
  const std::uint32_t a = scratch.take(40);
  scratch.take(40);
  scratch.give_back(a, 40);
  EXPECT_THROW(scratch.give_back(a, 40), std::logic_error);
  EXPECT_THROW(scratch.give_back(a + 10, 10), std::logic_error);
  EXPECT_THROW(scratch.give_back(90, 20), std::logic_error) << "overlaps the free tail";
}

}  // namespace
}  // namespace meshmp
