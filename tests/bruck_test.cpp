// The Bruck et al. index algorithm (firmware/baselines/bruck.cpp) on the whole machine: byte-exact on
// rings, meshes, tori and hypercubes of any size, with the algorithm's exact counts measured by the
// machine: ceil(log2 N) start-ups per node, step b's message = the positions with bit b set, and every
// local move (two rotations, packing and unpacking) among the node's copied bytes.
#include <gtest/gtest.h>

#include "exchange_run.h"
#include "test_names.h"

namespace meshmp {
namespace {

class Bruck : public ::testing::TestWithParam<const char*> {};

TEST_P(Bruck, EveryByteInPlaceWithTheExactCounts) {
  MachineConfig config;
  config.topology = GetParam();
  config.algorithm = "bruck";
  config.block_bytes = 24;
  config.router.max_packet_payload_flits = 4;  // combined messages span several packets
  ASSERT_FALSE(config.validate().has_value()) << *config.validate();
  const int n = Topology::parse(config.topology).num_nodes();
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();

  int steps = 0;
  while ((1 << steps) < n) ++steps;
  std::vector<std::uint64_t> moved;
  std::uint64_t moved_total = 0;
  for (int b = 0; b < steps; ++b) {
    std::uint64_t count = 0;
    for (int k = 0; k < n; ++k) count += (k >> b) & 1;
    moved.push_back(count);
    moved_total += count;
  }
  const nlohmann::json& schedule = run.stats["schedule"];
  EXPECT_EQ(schedule["synchronized_steps"], steps);
  EXPECT_EQ(schedule["step_max_blocks"].get<std::vector<std::uint64_t>>(), moved);
  EXPECT_EQ(schedule["sum_of_step_max_blocks"], moved_total);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(run.startups[i], static_cast<std::uint64_t>(steps)) << "node " << i;
    EXPECT_EQ(run.copied_bytes[i], (2ull * n + 2 * moved_total) * config.block_bytes) << "node " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, Bruck,
                         ::testing::Values("ring:2", "ring:5", "ring:13", "hypercube:4", "torus:4x4", "mesh:3x5",
                                           "torus:8x16", "torus:4x4x4"),
                         topology_test_name);

}  // namespace
}  // namespace meshmp
