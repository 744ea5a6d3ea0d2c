// suh-mesh (000 §3) on 2-D meshes: byte-exact, and the machine's schedule counts equal 000 Table 1 and
// §3.4: C synchronized steps (C the longer side), step p of phases 1 and 2 carries R (C - 2p) blocks,
// phase 3 two steps of R C / 2, R C^2 / 2 in total; no step meets header blocking (the paper's
// contention-free claim). When R != C a node itself starts (R + C) / 2 messages, fewer than C (the idle
// steps of §3.2). Local copies: the paper's two rearrangements plus loading and unloading this machine's
// buffers, 4 R C m bytes.
#include <gtest/gtest.h>

#include "exchange_run.h"

namespace meshmp {
namespace {

class SuhMesh : public ::testing::TestWithParam<const char*> {};

TEST_P(SuhMesh, EveryByteInPlaceWithTable1Counts) {
  MachineConfig config;
  config.topology = GetParam();
  config.algorithm = "suh-mesh";
  config.block_bytes = 8;
  ASSERT_FALSE(config.validate().has_value());
  const Topology topology = Topology::parse(config.topology);
  const std::uint64_t C = std::max(topology.dimension(0).size, topology.dimension(1).size);
  const std::uint64_t R = std::min(topology.dimension(0).size, topology.dimension(1).size);
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();

  std::vector<std::uint64_t> expected;
  for (int phase = 0; phase < 2; ++phase)
    for (std::uint64_t p = 1; p <= C / 2 - 1; ++p) expected.push_back(R * (C - 2 * p));
  expected.push_back(R * C / 2);
  expected.push_back(R * C / 2);
  const nlohmann::json& schedule = run.stats["schedule"];
  EXPECT_EQ(schedule["synchronized_steps"], C);
  EXPECT_EQ(schedule["step_max_blocks"].get<std::vector<std::uint64_t>>(), expected);
  EXPECT_EQ(schedule["sum_of_step_max_blocks"], R * C * C / 2);
  EXPECT_EQ(schedule["steps_with_blocking"], 0);
  EXPECT_EQ(schedule["max_messages_per_node"], R == C ? C : (R + C) / 2);
  EXPECT_EQ(schedule["rearrangement_bytes_max_per_node"], 4 * R * C * config.block_bytes);
}

INSTANTIATE_TEST_SUITE_P(Meshes, SuhMesh,
                         ::testing::Values("mesh:2x2", "mesh:4x4", "mesh:6x6", "mesh:8x4", "mesh:4x8", "mesh:8x6",
                                           "mesh:10x4", "mesh:8x8"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == ':') c = '_';
                           return name;
                         });

TEST(SuhMesh, RefusesMeshesItCannotScheduleNamingTheRule) {
  const Algorithm& suh = find_algorithm("suh-mesh");
  const auto odd = suh.supports(Topology::parse("mesh:5x4"), {});
  ASSERT_TRUE(odd.has_value());
  EXPECT_NE(odd->find("topology = 'mesh:5x4': suh-mesh needs both mesh sizes even"), std::string::npos) << *odd;
  const auto cube = suh.supports(Topology::parse("mesh:4x4x4"), {});
  ASSERT_TRUE(cube.has_value());
  EXPECT_NE(cube->find("runs on a 2-D mesh"), std::string::npos) << *cube;
  EXPECT_TRUE(suh.supports(Topology::parse("torus:4x4"), {}).has_value());
}

}  // namespace
}  // namespace meshmp
