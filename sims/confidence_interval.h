// The 95 % confidence interval of a mean over independent runs (the seeds of `meshmp traffic --seeds`):
// Student's t with n - 1 degrees of freedom, the sample's standard deviation over sqrt(n).
#pragma once

#include <vector>

namespace meshmp {

// The two-sided 95 % quantile of Student's t (its 0.975 quantile) for `degrees` >= 1 degrees of freedom:
// tabulated to 6 digits up to 30, beyond by the Cornish-Fisher expansion around the normal quantile
// (within 1e-5 there).
double student_t_975(int degrees);

struct MeanWithInterval {
  double mean;
  double half_width;  // the interval is mean +- half_width; NaN for fewer than two values
};

// The mean of `values` (at least one) and its 95 % interval's half width t_{0.975, n-1} s / sqrt(n),
// s the standard deviation with n - 1 in its denominator.
MeanWithInterval mean_with_ci95(const std::vector<double>& values);

}  // namespace meshmp
