// Student's t confidence intervals. See confidence_interval.h.
#include "sims/confidence_interval.h"

#include <cmath>
#include <stdexcept>

namespace meshmp {

double student_t_975(int degrees) {
  if (degrees < 1) throw std::invalid_argument("Student's t needs at least one degree of freedom");
  // t_{0.975, nu} for nu = 1..30.
  static constexpr double kTable[] = {12.7062, 4.30265, 3.18245, 2.77645, 2.57058, 2.44691, 2.36462, 2.30600,
                                      2.26216, 2.22814, 2.20099, 2.17881, 2.16037, 2.14479, 2.13145, 2.11991,
                                      2.10982, 2.10092, 2.09302, 2.08596, 2.07961, 2.07387, 2.06866, 2.06390,
                                      2.05954, 2.05553, 2.05183, 2.04841, 2.04523, 2.04227};
  if (degrees <= 30) return kTable[degrees - 1];
  // Cornish-Fisher: t = z + g1(z)/nu + g2(z)/nu^2 + g3(z)/nu^3, z the normal 0.975 quantile.
  const double z = 1.959963985, z2 = z * z, nu = degrees;
  const double g1 = (z2 + 1) * z / 4;
  const double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
  const double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
  return z + g1 / nu + g2 / (nu * nu) + g3 / (nu * nu * nu);
}

MeanWithInterval mean_with_ci95(const std::vector<double>& values) {
  if (values.empty()) throw std::invalid_argument("a mean of no values");
  const double n = static_cast<double>(values.size());
  double sum = 0;
  for (double v : values) sum += v;
  const double mean = sum / n;
  if (values.size() < 2) return {mean, NAN};
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);
  const double deviation = std::sqrt(squares / (n - 1));
  return {mean, student_t_975(static_cast<int>(values.size()) - 1) * deviation / std::sqrt(n)};
}

}  // namespace meshmp
