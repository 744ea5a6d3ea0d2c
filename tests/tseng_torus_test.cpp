// tseng-t1 (001 §3.1) and tseng-t4 (§3.2) on n x n tori (and T4 on non-square ones, §5), tseng-c1 (§4)
// on the 8x8x8 torus: byte-exact, with the machine's schedule counts
// equal to the paper's. T1 (Lemma 7): 4d - 4 phases, each phase's largest message n times the ring's
// (Lemmas 2-5 with the §2.4 blocks), in total 2n times Theorem 1's count. T4 (Theorem 2): two
// preparation phases of n^2/2 blocks, then T1 on the (n/2) x (n/2) logical tori with units of 4 blocks:
// 4d - 6 phases. With sync=barrier no header blocking and the measured time equals the zero-load model
// exactly (001 §7.1's 2d - 5 barriers per stage on rings of 16 or more nodes, a barrier before every
// phase and stage on rings of 8 and §5's other lengths: firmware/paper001/ring_stages.cpp).
#include <gtest/gtest.h>

#include <algorithm>

#include "exchange_run.h"
#include "firmware/paper001/ring_exchange_plan.h"
#include "test_names.h"
#include "tseng_counts.h"

namespace meshmp {
namespace {

// Every node's memory is verified in each run (EXPECT inside); `sync` is the algorithm option.
ExchangeRun run_torus_spec(const char* algorithm, const std::string& topology, const char* sync = "none") {
  MachineConfig config;
  config.topology = topology;
  config.algorithm = algorithm;
  config.algorithm_options = {{"sync", sync}};
  config.block_bytes = 8;
  EXPECT_FALSE(config.validate().has_value());
  ExchangeRun run = run_exchange(config);
  EXPECT_TRUE(run.report.ok()) << (run.report.errors.empty() ? "" : run.report.errors.front());
  return run;
}

ExchangeRun run_torus(const char* algorithm, int n, const char* sync) {
  return run_torus_spec(algorithm, "torus:" + std::to_string(n) + "x" + std::to_string(n), sync);
}

class TsengT1 : public ::testing::TestWithParam<std::tuple<int, const char*>> {};

TEST_P(TsengT1, EveryByteInPlaceWithLemma7Counts) {
  const auto [d, sync] = GetParam();
  const int n = 1 << d;
  const ExchangeRun run = run_torus("tseng-t1", n, sync);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  const nlohmann::json& stats = run.stats;
  std::vector<std::uint64_t> expected;
  for (int stage = 0; stage < 2; ++stage)
    for (std::uint64_t items : expected_phase_blocks(d)) expected.push_back(items * n);
  EXPECT_EQ(stats["schedule"]["synchronized_steps"], 4 * d - 4);
  EXPECT_EQ(stats["schedule"]["step_max_blocks"].get<std::vector<std::uint64_t>>(), expected);
  EXPECT_EQ(stats["schedule"]["sum_of_step_max_blocks"], 2 * n * theorem1_blocks(d));
  if (std::string(sync) == "barrier") {
    EXPECT_EQ(stats["network"]["header_blocking_cycles"], 0);
    EXPECT_EQ(run.result.completion_cycles, run.zero_load_cycles);
  }
}

INSTANTIATE_TEST_SUITE_P(Tori, TsengT1,
                         ::testing::Combine(::testing::Values(3, 4), ::testing::Values("none", "barrier", "signals")),
                         [](const auto& info) {
                           const int n = 1 << std::get<0>(info.param);
                           return "torus" + std::to_string(n) + "x" + std::to_string(n) + "_" + std::get<1>(info.param);
                         });

std::vector<std::uint64_t> t4_phase_blocks(int d) {
  const std::uint64_t n = 1ull << d;
  std::vector<std::uint64_t> expected = {n * n / 2, n * n / 2};
  for (int stage = 0; stage < 2; ++stage)
    for (std::uint64_t items : expected_phase_blocks(d - 1)) expected.push_back(items * (n / 2) * 4);
  return expected;
}

class TsengT4On16x16 : public ::testing::TestWithParam<const char*> {};

TEST_P(TsengT4On16x16, EveryByteInPlaceWithTheorem2Counts) {
  const ExchangeRun run = run_torus("tseng-t4", 16, GetParam());
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_EQ(run.stats["schedule"]["synchronized_steps"], 10);
  EXPECT_EQ(run.stats["schedule"]["step_max_blocks"].get<std::vector<std::uint64_t>>(), t4_phase_blocks(4));
  EXPECT_EQ(run.stats["schedule"]["sum_of_step_max_blocks"], 2 * 128 + 2 * 32 * theorem1_blocks(3));
}

INSTANTIATE_TEST_SUITE_P(Sync, TsengT4On16x16, ::testing::Values("none", "barrier", "signals"));

TEST(TsengT4, BarriersMakeThe32x32ContentionFreeAndExactlyTheZeroLoadModel) {
  const ExchangeRun run = run_torus("tseng-t4", 32, "barrier");
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_EQ(run.stats["schedule"]["step_max_blocks"].get<std::vector<std::uint64_t>>(), t4_phase_blocks(5));
  EXPECT_EQ(run.stats["schedule"]["sum_of_step_max_blocks"], 2 * 512 + 2 * 64 * theorem1_blocks(4));
  EXPECT_EQ(run.stats["network"]["header_blocking_cycles"], 0);
  EXPECT_EQ(run.result.completion_cycles, run.zero_load_cycles);
}

// §5's logical rings under sync=barrier: a barrier before every phase and between the stages (on rings
// that are not 2^d >= 16, 001 §7.1's self-synchronised phases are not), so contention-free and exactly the
// zero-load model. With §7.1's 2d - 5 per stage, T1 on 9x9 measured 3,526 cycles against 3,618, and T4 on
// 18x18 (logical rings of 9) met 11,676 cycles of header blocking in 2 steps.
void expect_contention_free_and_exactly_the_zero_load_model(const char* algorithm, int side) {
  const ExchangeRun run = run_torus(algorithm, side, "barrier");
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_EQ(run.stats["network"]["header_blocking_cycles"], 0);
  EXPECT_EQ(run.stats["schedule"]["steps_with_blocking"], 0);
  EXPECT_EQ(run.result.completion_cycles, run.zero_load_cycles);
}

TEST(TsengT1, BarriersMakeThe9x9ContentionFreeAndExactlyTheZeroLoadModel) {
  expect_contention_free_and_exactly_the_zero_load_model("tseng-t1", 9);
}

TEST(TsengT4, BarriersMakeThe18x18ContentionFreeAndExactlyTheZeroLoadModel) {
  expect_contention_free_and_exactly_the_zero_load_model("tseng-t4", 18);
}

// The ring stages take each received message's bytes from the node's scratch and give them back once
// every unit it brought has been sent on (RingScratch), so no node writes to the end of the scratch
// declared for receiving every message into bytes of its own (the bound, which the node receiving the
// most reached when each message had fresh bytes). Declared / most written by a node (8-byte blocks):
// T1 on 16x16 12,288 / 10,240, T4 on 16x16 9,984 / 9,728, C1 on 8x8x8 22,528 / 22,016, ring:64 5,368 /
// 4,800. Little: a message's bytes stay taken while any unit it brought is still held, and a node's
// units for itself stay to the end.
class TsengRingStages : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(TsengRingStages, ReuseTheScratchOfTheMessagesTheySentOn) {
  const auto [algorithm, topology] = GetParam();
  const ExchangeRun run = run_torus_spec(algorithm, topology);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  const std::uint64_t written = *std::max_element(run.scratch_written.begin(), run.scratch_written.end());
  EXPECT_LT(written, run.scratch_declared) << algorithm << " on " << topology;
}

INSTANTIATE_TEST_SUITE_P(Tori, TsengRingStages,
                         ::testing::Values(std::pair{"tseng-t1", "torus:16x16"}, std::pair{"tseng-t4", "torus:16x16"},
                                           std::pair{"tseng-c1", "torus:8x8x8"}, std::pair{"tseng-ring", "ring:64"}),
                         [](const auto& info) {  // "t1_torus_16x16": the algorithm without "tseng-"
                           return std::string(info.param.first).substr(6) + "_" + spec_test_name(info.param.second);
                         });

TEST(TsengT1, EveryByteInPlaceOnA12x12Torus) {
  const ExchangeRun run = run_torus("tseng-t1", 12, "none");
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
}

TEST(TsengT4, RefusesToriItCannotScheduleNamingTheRule) {
  const Algorithm& t4 = find_algorithm("tseng-t4");
  const auto small = t4.why_unsupported(Topology::parse("torus:8x8"), {});
  ASSERT_TRUE(small.has_value());
  EXPECT_NE(small->find("tseng-t4 needs both sides even and >= 16"), std::string::npos) << *small;
  EXPECT_TRUE(t4.why_unsupported(Topology::parse("torus:17x17"), {}).has_value());
  EXPECT_FALSE(t4.why_unsupported(Topology::parse("torus:24x24"), {}).has_value());
  const auto narrow = t4.why_unsupported(Topology::parse("torus:32x14"), {});
  ASSERT_TRUE(narrow.has_value());
  EXPECT_NE(narrow->find("tseng-t4 needs both sides even and >= 16"), std::string::npos) << *narrow;
  EXPECT_FALSE(t4.why_unsupported(Topology::parse("torus:16x32"), {}).has_value());
}

// Non-square tori (001 §5: "straightforward ... since we take a dimension-by-dimension approach"): the
// four logical (nx/2) x (ny/2) tori run an X-stage (rings of nx/2, items of 2 ny blocks) beside a Y-stage
// (rings of ny/2, items of 2 nx blocks) in each of two slots. A step of the schedule is what runs at once:
// step k of a slot is phase k of both rings (the shorter ring's torus idles through the rest), and under
// sync=barrier a barrier precedes every step, so the critical path passes through every step's largest
// message: the two preparation steps (N/2 blocks each), then per slot and step k the larger of (largest
// message of the nx/2-ring's phase k) x 2 ny and (of the ny/2-ring's phase k) x 2 nx blocks, steps in which
// neither ring sends not counted. Numbering each node's phases by its own stage (as before) put phases of
// different stages under one step: on 48x16 14 steps / 7,520 blocks against the critical path's 18 /
// 9,280, step 7 begun from cycle 8,610 to 16,790, and 32,520 cycles against a zero-load model of 26,436.
struct CriticalPath {
  std::uint64_t steps = 2, blocks = 0;
  std::vector<std::uint64_t> step_max_blocks;
};

// The largest message of each phase of a ring of n nodes, in items. For n = 2^d the paper's count
// (Lemmas 2-5 with §2.4's overlap, tseng_counts.h), not the firmware's plan. For other lengths 001 §5
// gives no count: the ring plan's own phases are taken, a regression pin on the plan (whose every length
// TsengRingPlan.AnyLengthIsOnePortInEveryPhase checks one-port and complete, and whose 2^d lengths
// TsengRingPlan.PhasesMatchLemmasTwoToFiveAndTheoremOne holds to the same lemmas).
std::vector<std::uint64_t> ring_phase_largest_items(int n) {
  if ((n & (n - 1)) == 0) return expected_phase_blocks(__builtin_ctz(static_cast<unsigned>(n)));
  std::vector<std::uint64_t> largest;
  for (const RingPhase& phase : ring_exchange_plan(n).phases) {
    std::uint64_t items = 0;
    for (const RingMessage& m : phase.messages) items = std::max<std::uint64_t>(items, m.blocks.size());
    largest.push_back(items);
  }
  return largest;
}

CriticalPath t4_non_square_critical_path(int nx, int ny) {
  CriticalPath path;
  const std::uint64_t half = static_cast<std::uint64_t>(nx) * ny / 2;
  path.step_max_blocks = {half, half};
  const std::vector<std::uint64_t> x = ring_phase_largest_items(nx / 2), y = ring_phase_largest_items(ny / 2);
  auto largest = [](const std::vector<std::uint64_t>& phases, std::size_t k, std::uint64_t item_blocks) {
    return k < phases.size() ? phases[k] * item_blocks : 0;
  };
  for (int slot = 0; slot < 2; ++slot)
    for (std::size_t k = 0; k < std::max(x.size(), y.size()); ++k) {
      const std::uint64_t blocks = std::max(largest(x, k, 2ull * ny), largest(y, k, 2ull * nx));
      if (blocks == 0) continue;
      ++path.steps;
      path.step_max_blocks.push_back(blocks);
    }
  for (std::uint64_t b : path.step_max_blocks) path.blocks += b;
  return path;
}

class TsengT4NonSquare : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(TsengT4NonSquare, EveryByteInPlaceWithTheCriticalPathsCounts) {
  const auto& [spec, sync] = GetParam();
  const ExchangeRun run = run_torus_spec("tseng-t4", spec, sync.c_str());
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  const Topology topology = Topology::parse(spec);
  const CriticalPath path = t4_non_square_critical_path(topology.dimension(0).size, topology.dimension(1).size);
  const nlohmann::json& schedule = run.stats["schedule"];
  EXPECT_EQ(schedule["synchronized_steps"], path.steps);
  EXPECT_EQ(schedule["step_max_blocks"].get<std::vector<std::uint64_t>>(), path.step_max_blocks);
  EXPECT_EQ(schedule["sum_of_step_max_blocks"], path.blocks);
  if (sync == "barrier") {
    // Every step begins (its nodes finish the previous one) before any node begins the next.
    const nlohmann::json& steps = run.stats["steps"];
    for (std::size_t k = 1; k + 1 < steps.size(); ++k)
      EXPECT_LE(steps[k]["last_begin_cycle"], steps[k + 1]["first_begin_cycle"]) << "step " << k;
    EXPECT_EQ(schedule["steps_with_blocking"], 0);
    EXPECT_EQ(run.result.completion_cycles, run.zero_load_cycles);
  }
}

// 16x32 by hand from the paper's counts alone. Rings of 8 (d = 3), largest messages per phase in items:
// GP_0 3 + 1 (Corollary 1, §2.4's overlap), GP_1 4 + 1 (Lemma 3, the d = 3 overlap), SP_1 1 (Lemma 4),
// SP_0 3 + 1: 4, 5, 1, 4. Rings of 16 (d = 4): GP_0 7 + 1, GP_1 max(2^4 - 10 + 3, 7) = 9, GP_2 4 + 6 = 10,
// SP_2 1, SP_1 9, SP_0 7 + 1: 8, 9, 10, 1, 9, 8. An item is 2 ny = 64 blocks on the 8-ring and 2 nx = 32 on
// the 16-ring; per slot the steps are max(4x64, 8x32) = 256, max(320, 288) = 320, max(64, 320) = 320,
// max(256, 32) = 256, 288 and 256 (the 8-ring idle): 14 steps, 2 x 256 + 2 x 1,696 = 3,904 blocks.
TEST(TsengT4, NonSquareCriticalPathOn16x32FromThePapersCounts) {
  EXPECT_EQ(expected_phase_blocks(3), (std::vector<std::uint64_t>{4, 5, 1, 4}));
  EXPECT_EQ(expected_phase_blocks(4), (std::vector<std::uint64_t>{8, 9, 10, 1, 9, 8}));
  const CriticalPath path = t4_non_square_critical_path(16, 32);
  const std::vector<std::uint64_t> steps = {256, 256, 256, 320, 320, 256, 288, 256, 256, 320, 320, 256, 288, 256};
  EXPECT_EQ(path.step_max_blocks, steps);
  EXPECT_EQ(path.steps, 14u);
  EXPECT_EQ(path.blocks, 3904u);
}

// 48x16: rings of 24 (8 phases, GP_3 empty) beside rings of 8 (4 phases): 18 steps, 9,280 blocks (a
// regression pin: the 24-ring's phases are the plan's, see ring_phase_largest_items).
TEST(TsengT4, NonSquareCriticalPathOn48x16) {
  const CriticalPath path = t4_non_square_critical_path(48, 16);
  EXPECT_EQ(path.steps, 18u);
  EXPECT_EQ(path.blocks, 9280u);
}

INSTANTIATE_TEST_SUITE_P(Tori, TsengT4NonSquare,
                         ::testing::Values(std::tuple<std::string, std::string>{"torus:16x32", "none"},
                                           std::tuple<std::string, std::string>{"torus:16x32", "barrier"},
                                           std::tuple<std::string, std::string>{"torus:24x16", "barrier"},
                                           std::tuple<std::string, std::string>{"torus:20x16", "signals"},
                                           std::tuple<std::string, std::string>{"torus:48x16", "barrier"}),
                         [](const auto& info) {
                           return spec_test_name(std::get<0>(info.param)) + "_" + std::get<1>(info.param);
                         });

TEST(TsengC1, EveryByteInPlaceWithThreeStagesOfTheorem1On8x8x8) {
  const ExchangeRun run = run_torus_spec("tseng-c1", "torus:8x8x8");
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  std::vector<std::uint64_t> expected;
  for (int stage = 0; stage < 3; ++stage)
    for (std::uint64_t items : expected_phase_blocks(3)) expected.push_back(items * 64);
  const nlohmann::json& schedule = run.stats["schedule"];
  EXPECT_EQ(schedule["synchronized_steps"], 12);
  EXPECT_EQ(schedule["step_max_blocks"].get<std::vector<std::uint64_t>>(), expected);
  EXPECT_EQ(schedule["sum_of_step_max_blocks"], 3 * 64 * theorem1_blocks(3));
}

TEST(TsengT1, RefusesToriItCannotScheduleNamingTheRule) {
  const Algorithm& t1 = find_algorithm("tseng-t1");
  EXPECT_FALSE(t1.why_unsupported(Topology::parse("torus:8x16"), {}).has_value()) << "non-square sides: 001 §5";
  const auto six = t1.why_unsupported(Topology::parse("torus:6x6"), {});
  ASSERT_TRUE(six.has_value());
  EXPECT_NE(six->find("needs rings of at least 8 nodes"), std::string::npos) << *six;
  const auto mesh = t1.why_unsupported(Topology::parse("mesh:8x8"), {});
  ASSERT_TRUE(mesh.has_value());
  EXPECT_NE(mesh->find("topology = 'mesh:8x8': tseng-t1 runs on a 2-D torus"), std::string::npos) << *mesh;
  const auto cube = find_algorithm("tseng-c1").why_unsupported(Topology::parse("torus:8x8"), {});
  ASSERT_TRUE(cube.has_value());
  EXPECT_NE(cube->find("tseng-c1 runs on a 3-D torus"), std::string::npos) << *cube;
}

// 001 §5's dimension-by-dimension construction on a non-square torus: the X-stage on rings of 8 carries
// items of 16 blocks, the Y-stage on rings of 16 items of 8, each stage with its ring's Theorem 1 counts.
TEST(TsengT1, NonSquareTorusByStagesOfEachRingsLength) {
  const ExchangeRun run = run_torus_spec("tseng-t1", "torus:8x16");
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  std::vector<std::uint64_t> expected;
  for (std::uint64_t items : expected_phase_blocks(3)) expected.push_back(items * 16);
  for (std::uint64_t items : expected_phase_blocks(4)) expected.push_back(items * 8);
  EXPECT_EQ(run.stats["schedule"]["step_max_blocks"].get<std::vector<std::uint64_t>>(), expected);
  EXPECT_EQ(run.stats["schedule"]["sum_of_step_max_blocks"], 16 * theorem1_blocks(3) + 8 * theorem1_blocks(4));
}

}  // namespace
}  // namespace meshmp
