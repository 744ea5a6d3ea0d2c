// 002 §3's lower bounds on the total exchange, computed from the topology (topology/exchange_bounds.*),
// against brute force on small machines: the status bound (3) equals the average over nodes of the
// BFS distance sums (Corollary 2 checked by search), and the cut bound (4), the best bisection of one
// dimension, equals the best of all 2^(n-1) - 1 cuts on every shape of 002's verification list small
// enough to search (rings, paths, meshes, tori, hypercubes, generalized hypercubes, mixed products).
#include <gtest/gtest.h>

#include <cmath>
#include <queue>

#include "test_names.h"
#include "topology/exchange_bounds.h"

namespace meshmp {
namespace {

double average_status_by_search(const Topology& t) {
  double total = 0;
  for (int source = 0; source < t.num_nodes(); ++source) {
    std::vector<int> distance(static_cast<std::size_t>(t.num_nodes()), -1);
    std::queue<int> frontier;
    distance[static_cast<std::size_t>(source)] = 0;
    frontier.push(source);
    while (!frontier.empty()) {
      const int v = frontier.front();
      frontier.pop();
      total += distance[static_cast<std::size_t>(v)];
      for (int p = 0; p < t.num_ports(); ++p) {
        const int u = t.neighbor(v, p);
        if (u >= 0 && distance[static_cast<std::size_t>(u)] < 0) {
          distance[static_cast<std::size_t>(u)] = distance[static_cast<std::size_t>(v)] + 1;
          frontier.push(u);
        }
      }
    }
  }
  return total / t.num_nodes();
}

class ExchangeBoundsOn : public ::testing::TestWithParam<const char*> {};

TEST_P(ExchangeBoundsOn, EqualBruteForce) {
  const Topology t = Topology::parse(GetParam());
  const ExchangeBounds bounds = exchange_bounds(t);
  const double searched = average_status_by_search(t);
  EXPECT_DOUBLE_EQ(bounds.average_status, searched);
  EXPECT_EQ(bounds.status_bound_steps, static_cast<std::uint64_t>(std::ceil(searched - 1e-9)));
  const Cut best = best_cut_exhaustive(t);
  EXPECT_DOUBLE_EQ(bounds.cut.steps, best.steps) << bounds.cut.description;
  EXPECT_EQ(bounds.cut_bound_steps, static_cast<std::uint64_t>(std::ceil(best.steps - 1e-9)));
  EXPECT_EQ(bounds.cut.part1 + bounds.cut.part2, static_cast<std::uint64_t>(t.num_nodes()));
}

INSTANTIATE_TEST_SUITE_P(
    SmallMachines, ExchangeBoundsOn,
    ::testing::Values("ring:3", "ring:4", "ring:5", "ring:6", "ring:7", "ring:8", "ring:9", "ring:12", "mesh:3",
                      "mesh:5", "mesh:9", "mesh:4x4", "mesh:3x5", "torus:4x4", "torus:5x3", "torus:3x3x2",
                      "hypercube:1", "hypercube:2", "hypercube:3", "hypercube:4", "ghc:3x4", "ghc:4x4", "ghc:5",
                      "product:ring4xpath3", "product:ring3xpath3xpath2", "mesh:2x2x2"),
    topology_test_name);

// Where a formula is known: a ring of k has AS = floor(k^2 / 4) and its bisection k^2 / 8 (k even);
// the hypercube of dimension d has AS = d 2^(d-1) and the cut 2^(d-1) (2^(d-1) x 2^(d-1) blocks over
// 2^(d-1) edges).
TEST(ExchangeBounds, RingsAndHypercubesByFormula) {
  for (int k = 3; k <= 40; ++k) {
    const ExchangeBounds ring = exchange_bounds(Topology::parse("ring:" + std::to_string(k)));
    EXPECT_DOUBLE_EQ(ring.average_status, std::floor(k * k / 4.0)) << k;
    EXPECT_DOUBLE_EQ(ring.cut.steps, (k / 2) * (k - k / 2) / 2.0) << k;
  }
  for (int d = 1; d <= 16; ++d) {
    const ExchangeBounds cube = exchange_bounds(Topology::parse("hypercube:" + std::to_string(d)));
    EXPECT_DOUBLE_EQ(cube.average_status, d * std::ldexp(1.0, d - 1)) << d;
    EXPECT_DOUBLE_EQ(cube.cut.steps, std::ldexp(1.0, d - 1)) << d;
  }
}

}  // namespace
}  // namespace meshmp
