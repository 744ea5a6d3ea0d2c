// The 95 % confidence interval of a mean over seeds (sims/confidence_interval.h) against values worked
// out by hand: Student's t quantiles from a table (and, beyond 30 degrees of freedom, the expansion
// within 1e-5 of the tabulated quantile), and the half width t s / sqrt(n) of small samples.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sims/confidence_interval.h"

namespace {

using meshmp::mean_with_ci95;
using meshmp::student_t_975;

TEST(ConfidenceInterval, StudentQuantilesMatchTheTables) {
  EXPECT_NEAR(student_t_975(1), 12.7062, 1e-4);
  EXPECT_NEAR(student_t_975(2), 4.3027, 1e-4);
  EXPECT_NEAR(student_t_975(4), 2.7764, 1e-4);
  EXPECT_NEAR(student_t_975(10), 2.2281, 1e-4);
  EXPECT_NEAR(student_t_975(30), 2.0423, 1e-4);
  EXPECT_NEAR(student_t_975(40), 2.0211, 1e-4);   // beyond the table: the expansion
  EXPECT_NEAR(student_t_975(60), 2.0003, 1e-4);
  EXPECT_NEAR(student_t_975(120), 1.9799, 1e-4);
  EXPECT_NEAR(student_t_975(1000000), 1.95996, 1e-5);  // the normal quantile
  for (int degrees = 2; degrees <= 200; ++degrees) EXPECT_LT(student_t_975(degrees), student_t_975(degrees - 1));
}

TEST(ConfidenceInterval, HalfWidthIsTTimesTheStandardError) {
  // 1..5: mean 3, s^2 = (4 + 1 + 0 + 1 + 4) / 4 = 2.5, t_4 = 2.77645: 2.77645 sqrt(2.5 / 5) = 1.963243.
  const meshmp::MeanWithInterval five = mean_with_ci95({1, 2, 3, 4, 5});
  EXPECT_DOUBLE_EQ(five.mean, 3.0);
  EXPECT_NEAR(five.half_width, 1.963243, 1e-5);
  // 10 and 12: mean 11, s = sqrt 2, s / sqrt 2 = 1: the half width is t_1 itself.
  const meshmp::MeanWithInterval two = mean_with_ci95({10, 12});
  EXPECT_DOUBLE_EQ(two.mean, 11.0);
  EXPECT_NEAR(two.half_width, 12.7062, 1e-4);
  // Equal values: no spread, no width.
  EXPECT_DOUBLE_EQ(mean_with_ci95({4, 4, 4}).half_width, 0.0);
  // One value: a mean, no interval.
  const meshmp::MeanWithInterval one = mean_with_ci95({7});
  EXPECT_DOUBLE_EQ(one.mean, 7.0);
  EXPECT_TRUE(std::isnan(one.half_width));
}

}  // namespace
