// suh-mesh (000 §3 in two dimensions, §4 in n) on meshes and on a torus's mesh links: byte-exact, and the
// machine's schedule counts equal 000 Table 1 and §3.4 / §4, a_1 the longest side and N the nodes:
// (n/2) a_1 synchronized steps; step s of each of the n ring phases carries (a_1 - 2s) N / a_1 blocks,
// each of the n steps of the last phase N / 2; (n/4) a_1^2 a_2..a_n in total. A node itself starts sum a_k / 2
// messages (fewer than (n/2) a_1 when the sides differ: the idle steps of §3.2). Local copies: the
// paper's n rearrangements, loading and unloading this machine's buffers (2 N m), and for n >= 3 the
// gathering before steps 3..n of the last phase, N m / 2 each: m N (n + 2 + (n - 2) / 2).
// With sync=barrier (000's synchronized steps) every step is contention-free (the paper's claim) in any
// number of dimensions and the run takes exactly the zero-load model of its schedule; without, steps of
// different phases overlap where the sides differ.
#include <gtest/gtest.h>

#include <algorithm>

#include "exchange_run.h"
#include "test_names.h"

namespace meshmp {
namespace {

struct Table1 {
  std::uint64_t n = 0, longest = 0, nodes = 0, half_sides = 0;
  explicit Table1(const Topology& t)
      : n(static_cast<std::uint64_t>(t.num_dimensions())), nodes(static_cast<std::uint64_t>(t.num_nodes())) {
    for (int d = 0; d < t.num_dimensions(); ++d) {
      longest = std::max<std::uint64_t>(longest, static_cast<std::uint64_t>(t.dimension(d).size));
      half_sides += static_cast<std::uint64_t>(t.dimension(d).size) / 2;
    }
  }
  std::vector<std::uint64_t> step_max_blocks() const {
    std::vector<std::uint64_t> blocks;
    for (std::uint64_t phase = 0; phase < n; ++phase)
      for (std::uint64_t s = 1; s + 1 <= longest / 2; ++s) blocks.push_back((longest - 2 * s) * nodes / longest);
    for (std::uint64_t step = 0; step < n; ++step) blocks.push_back(nodes / 2);
    return blocks;
  }
};

ExchangeRun run_suh(const std::string& topology, const std::string& sync) {
  MachineConfig config;
  config.topology = topology;
  config.algorithm = "suh-mesh";
  config.block_bytes = 8;
  config.algorithm_options["sync"] = sync;
  EXPECT_FALSE(config.validate().has_value());
  return run_exchange(config);
}

class SuhMesh : public ::testing::TestWithParam<const char*> {};

TEST_P(SuhMesh, EveryByteInPlaceWithTable1Counts) {
  const Topology topology = Topology::parse(GetParam());
  const Table1 table(topology);
  const ExchangeRun run = run_suh(GetParam(), "none");
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();

  const nlohmann::json& schedule = run.stats["schedule"];
  const std::uint64_t m = 8, n = table.n, N = table.nodes, a1 = table.longest;
  EXPECT_EQ(schedule["synchronized_steps"], n * a1 / 2);
  EXPECT_EQ(schedule["step_max_blocks"].get<std::vector<std::uint64_t>>(), table.step_max_blocks());
  EXPECT_EQ(schedule["sum_of_step_max_blocks"], n * a1 * a1 * (N / a1) / 4);
  EXPECT_EQ(schedule["max_messages_per_node"], table.half_sides);
  EXPECT_EQ(schedule["rearrangement_bytes_max_per_node"], m * N * (n + 2) + (n > 2 ? m * N / 2 * (n - 2) : 0));
}

INSTANTIATE_TEST_SUITE_P(Meshes, SuhMesh,
                         ::testing::Values("mesh:2x2", "mesh:4x4", "mesh:6x6", "mesh:8x4", "mesh:4x8", "mesh:8x6",
                                           "mesh:10x4", "mesh:8x8", "mesh:2x2x2", "mesh:4x4x4", "mesh:6x4x2",
                                           "mesh:8x4x4", "mesh:6x6x6", "mesh:4x4x4x4"),
                         topology_test_name);
// On a torus the algorithm uses the mesh links only (source routes that never wrap).
INSTANTIATE_TEST_SUITE_P(TorusMeshLinks, SuhMesh,
                         ::testing::Values("torus:8x8", "torus:16x16", "torus:8x16", "torus:12x12", "torus:6x4x2",
                                           "torus:4x4x4"),
                         topology_test_name);

// With a barrier before every step the schedule is the paper's: zero header blocking on every step and
// the completion time the zero-load model of the steps exactly.
class SuhMeshBarrier : public ::testing::TestWithParam<const char*> {};

TEST_P(SuhMeshBarrier, ContentionFreeAndExactlyTheZeroLoadModel) {
  const ExchangeRun run = run_suh(GetParam(), "barrier");
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();
  EXPECT_EQ(run.stats["schedule"]["steps_with_blocking"], 0);
  EXPECT_EQ(run.result.completion_cycles, run.zero_load_cycles);
}

INSTANTIATE_TEST_SUITE_P(Shapes, SuhMeshBarrier,
                         ::testing::Values("mesh:6x6", "mesh:10x4", "mesh:8x16", "mesh:6x10", "mesh:4x4x4",
                                           "mesh:6x4x2", "mesh:8x4x4", "torus:8x8", "torus:8x16", "torus:6x4x2"),
                         topology_test_name);

// Without barriers a group whose ring is shorter starts its next phase while the longer rings are still
// in their last steps, on lines they use: on 8x4x4 two steps meet header blocking (000 assumes
// synchronized steps; 5 of 16 on 8x16, 2 of 10 on 6x10, none on the equal-sided shapes), and the steps
// overlap, so the run is shorter than the zero-load model that puts them one after the other.
TEST(SuhMesh, UnsynchronizedStepsOverlapOnMeshesWithUnequalSides) {
  const ExchangeRun none = run_suh("mesh:8x4x4", "none");
  ASSERT_TRUE(none.report.ok());
  EXPECT_EQ(none.stats["schedule"]["steps_with_blocking"], 2);
  EXPECT_LT(none.result.completion_cycles, none.zero_load_cycles);
}

TEST(SuhMesh, RefusesMeshesItCannotScheduleNamingTheRule) {
  const Algorithm& suh = find_algorithm("suh-mesh");
  const auto odd = suh.why_unsupported(Topology::parse("mesh:5x4"), {});
  ASSERT_TRUE(odd.has_value());
  EXPECT_NE(odd->find("topology = 'mesh:5x4': suh-mesh needs every mesh size even"), std::string::npos) << *odd;
  const auto odd3 = suh.why_unsupported(Topology::parse("mesh:4x4x3"), {});
  ASSERT_TRUE(odd3.has_value());
  EXPECT_NE(odd3->find("needs every mesh size even"), std::string::npos) << *odd3;
  const auto line = suh.why_unsupported(Topology::parse("mesh:8"), {});
  ASSERT_TRUE(line.has_value());
  EXPECT_NE(line->find("two or more dimensions"), std::string::npos) << *line;
  const auto cube = suh.why_unsupported(Topology::parse("hypercube:4"), {});
  ASSERT_TRUE(cube.has_value());
  EXPECT_NE(cube->find("every dimension a path or a ring"), std::string::npos) << *cube;
  const auto wide = suh.why_unsupported(Topology::parse("torus:36x4"), {});
  ASSERT_TRUE(wide.has_value());
  EXPECT_NE(wide->find("sides of at most 34"), std::string::npos) << *wide;
  EXPECT_FALSE(suh.why_unsupported(Topology::parse("torus:34x4"), {}).has_value());
}

}  // namespace
}  // namespace meshmp
