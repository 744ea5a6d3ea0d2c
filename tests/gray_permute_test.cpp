// 003 §6.3 and §7. Without a simulation: the combined transpose-conversion moves every block to its
// destination in n routing steps for all sixteen code changes (rows / columns, binary / Gray, before /
// after) on n = 2..10; the section's own flags are exact for its case (rows binary, columns Gray) and
// for its last paragraph's two variants only with their descriptions swapped (evidence kept here); the
// naive conversions + transpose take 2n - 2 steps; parallel swapping realizes every dimension permutation
// of n <= 5 (all of them) and random ones to n = 10 in at most ceil(log2 n) steps (Lemma 15 says
// floor(log2 n): a 3-cycle of 3 dimensions is no involution, so it needs 2 > floor(log2 3)).
// On the machine: every element / block in place, the routing steps exactly the schedule's.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "exchange_run.h"
#include "firmware/paper003/block_moves.h"
#include "firmware/paper003/cube_block_schedules.h"
#include "firmware/paper003/permutation_workload.h"

namespace meshmp {
namespace {

CodeChange codes_of(int mask) { return {(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0, (mask & 8) != 0}; }

bool reaches_destinations(const MoveSchedule& schedule, int n, const CodeChange& codes) {
  const std::vector<int> at = final_positions(schedule, 1 << n);
  for (int x = 0; x < (1 << n); ++x)
    if (at[x] != gray_transpose_destination(x, n, codes)) return false;
  return true;
}

std::size_t busy_steps(const MoveSchedule& schedule) {
  return static_cast<std::size_t>(std::count_if(schedule.begin(), schedule.end(), [](const auto& s) { return !s.empty(); }));
}

TEST(GrayTranspose, CombinedScheduleIsExactForEveryCodeChangeInNSteps) {
  for (int n = 2; n <= 10; n += 2)
    for (int mask = 0; mask < 16; ++mask) {
      const CodeChange codes = codes_of(mask);
      const MoveSchedule schedule = combined_gray_transpose_schedule(n, gray_transpose_flags(n, codes));
      EXPECT_EQ(schedule.size(), static_cast<std::size_t>(n));
      EXPECT_TRUE(reaches_destinations(schedule, n, codes)) << "n=" << n << " codes=" << mask;
      EXPECT_LE(most_blocks_held(schedule, 1 << n), 2);
    }
}

TEST(GrayTranspose, TheSectionsFlagsAndItsSwappedVariants) {
  const int n = 8, half = 4;
  auto block_bit = [half](int part, int j) { return j + 1 < half ? (part >> (j + 1)) & 1 : 0; };
  auto parity_above = [half](int part, int j) {
    int p = 0;
    for (int i = j + 1; i < half; ++i) p ^= (part >> i) & 1;
    return p;
  };
  // The pseudo-code: R = odd block row, C = odd-parity block column.
  const IterationFlags pseudo_code = [&](int position, int j) {
    return std::pair<int, int>{block_bit(position >> half, j), parity_above(position & 15, j)};
  };
  // "binary -> Gray: column operations controlled by even-block-columns": R block row, C block column.
  const IterationFlags block_both = [&](int position, int j) {
    return std::pair<int, int>{block_bit(position >> half, j), block_bit(position & 15, j)};
  };
  // "Gray -> binary: row operations controlled by even-parity-block-rows": R and C parities.
  const IterationFlags parity_both = [&](int position, int j) {
    return std::pair<int, int>{parity_above(position >> half, j), parity_above(position & 15, j)};
  };
  const CodeChange section{false, true, false, true};        // rows binary, columns Gray, A and A^T
  const CodeChange binary_to_gray{false, false, true, true};
  const CodeChange gray_to_binary{true, true, false, false};
  EXPECT_TRUE(reaches_destinations(combined_gray_transpose_schedule(n, pseudo_code), n, section));
  // As the last paragraph assigns them, both variants misplace blocks ...
  EXPECT_FALSE(reaches_destinations(combined_gray_transpose_schedule(n, block_both), n, binary_to_gray));
  EXPECT_FALSE(reaches_destinations(combined_gray_transpose_schedule(n, parity_both), n, gray_to_binary));
  // ... and swapped they are exact.
  EXPECT_TRUE(reaches_destinations(combined_gray_transpose_schedule(n, parity_both), n, binary_to_gray));
  EXPECT_TRUE(reaches_destinations(combined_gray_transpose_schedule(n, block_both), n, gray_to_binary));
}

TEST(GrayTranspose, NaiveConversionsAndTransposeTake2nMinus2Steps) {
  for (int n = 2; n <= 10; n += 2)
    for (int mask = 0; mask < 16; ++mask) {
      const CodeChange codes = codes_of(mask);
      const MoveSchedule schedule = naive_gray_transpose_schedule(n, codes);
      EXPECT_TRUE(reaches_destinations(schedule, n, codes)) << "n=" << n << " codes=" << mask;
      const int conversions = (codes.rows_gray_before != codes.columns_gray_after) + (codes.columns_gray_before != codes.rows_gray_after);
      EXPECT_EQ(schedule.size(), static_cast<std::size_t>(conversions * (n / 2 - 1) + n));
    }
}

int ceil_log2(int n) {
  int bits = 0;
  while ((1 << bits) < n) ++bits;
  return bits;
}

void expect_realizes(const std::vector<int>& delta) {
  const int n = static_cast<int>(delta.size());
  const auto swaps = parallel_swaps(delta);
  EXPECT_LE(static_cast<int>(swaps.size()), ceil_log2(n));
  const std::vector<int> at = final_positions(parallel_swap_schedule(n, swaps), 1 << n);
  for (int x = 0; x < (1 << n); ++x) ASSERT_EQ(at[x], permuted_node(x, delta));
}

TEST(ParallelSwapping, EveryPermutationInCeilLog2NSteps) {
  for (int n = 1; n <= 5; ++n) {
    std::vector<int> delta(n);
    std::iota(delta.begin(), delta.end(), 0);
    do expect_realizes(delta);
    while (std::next_permutation(delta.begin(), delta.end()));
  }
  std::mt19937 random(2026);
  for (int n = 6; n <= 10; ++n)
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<int> delta(n);
      std::iota(delta.begin(), delta.end(), 0);
      std::shuffle(delta.begin(), delta.end(), random);
      expect_realizes(delta);
    }
  // Lemma 15's floor(log2 n) is one step for n = 3, but a 3-cycle is no involution: two steps.
  const std::vector<int> cycle = {1, 2, 0};
  EXPECT_NE(cycle[cycle[0]], 0);
  EXPECT_EQ(parallel_swaps(cycle).size(), 2u);
}

struct GrayCase {
  int n;
  const char* partitioning;
  int codes;  // mask as codes_of
  const char* method;
};

void PrintTo(const GrayCase& c, std::ostream* os) { *os << "n=" << c.n << " codes=" << c.codes; }

class JhGrayTranspose : public ::testing::TestWithParam<GrayCase> {};

TEST_P(JhGrayTranspose, EveryElementInPlaceInTheSchedulesSteps) {
  const GrayCase c = GetParam();
  const CodeChange codes = codes_of(c.codes);
  auto code = [](bool gray) { return gray ? "gray" : "binary"; };
  MachineConfig config;
  config.topology = "hypercube:" + std::to_string(c.n);
  config.algorithm = "jh-gray-transpose";
  config.block_bytes = 8;
  config.workload_options = {{"rows", std::to_string(1 << (c.n / 2 + 1))},
                             {"columns", std::to_string(1 << (c.n / 2 + 2))},
                             {"partitioning", c.partitioning},
                             {"row_encoding", code(codes.rows_gray_before)},
                             {"column_encoding", code(codes.columns_gray_before)},
                             {"result_row_encoding", code(codes.rows_gray_after)},
                             {"result_column_encoding", code(codes.columns_gray_after)}};
  config.algorithm_options = {{"method", c.method}};
  config.stats_json.clear();
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();
  // The routing steps by 003's counts, not the firmware's schedule: n for the combined transpose-conversion
  // (§6.3), and for the naive one each code conversion's n/2 - 1 steps before the transpose's n.
  const int conversions = (codes.rows_gray_before != codes.columns_gray_after) + (codes.columns_gray_before != codes.rows_gray_after);
  const int routing_steps = std::string(c.method) == "naive" ? conversions * (c.n / 2 - 1) + c.n : c.n;
  EXPECT_EQ(run.stats["schedule"]["synchronized_steps"], routing_steps);
  const MoveSchedule schedule = std::string(c.method) == "naive" ? naive_gray_transpose_schedule(c.n, codes)
                                                                 : combined_gray_transpose_schedule(c.n, gray_transpose_flags(c.n, codes));
  EXPECT_EQ(busy_steps(schedule), static_cast<std::size_t>(routing_steps)) << "the firmware's schedule has no idle step";
  EXPECT_EQ(run.stats["schedule"]["steps_with_blocking"], 0);
  EXPECT_EQ(run.result.completion_cycles, run.zero_load_cycles);
}

INSTANTIATE_TEST_SUITE_P(Codes, JhGrayTranspose,
                         ::testing::Values(GrayCase{2, "2d-consecutive", 0b1010, "combined"},
                                           GrayCase{4, "2d-consecutive", 0b1010, "combined"},
                                           GrayCase{4, "2d-cyclic", 0b1010, "naive"},
                                           GrayCase{6, "2d-consecutive", 0b1100, "combined"},
                                           GrayCase{6, "2d-cyclic", 0b0011, "combined"},
                                           GrayCase{6, "2d-consecutive", 0b0011, "naive"},
                                           GrayCase{8, "2d-cyclic", 0b1010, "combined"},
                                           GrayCase{8, "2d-consecutive", 0b1010, "naive"},
                                           GrayCase{8, "2d-consecutive", 0b0110, "combined"},
                                           GrayCase{10, "2d-cyclic", 0b1010, "combined"}),
                         [](const ::testing::TestParamInfo<GrayCase>& info) {
                           std::string name = "n" + std::to_string(info.param.n) + "_" + info.param.partitioning + "_codes" +
                                              std::to_string(info.param.codes) + "_" + info.param.method;
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

struct PermuteCase {
  int n;
  const char* permutation;
};

void PrintTo(const PermuteCase& c, std::ostream* os) { *os << "n=" << c.n << " " << c.permutation; }

class JhPermute : public ::testing::TestWithParam<PermuteCase> {};

TEST_P(JhPermute, EveryBlockInPlaceInTwoRoutingStepsPerSwap) {
  const PermuteCase c = GetParam();
  MachineConfig config;
  config.topology = "hypercube:" + std::to_string(c.n);
  config.algorithm = "jh-permute";
  config.block_bytes = 32;
  config.workload_options = {{"permutation", c.permutation}};
  config.stats_json.clear();
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();
  const auto steps = swapping_steps(parse_dimension_permutation(c.permutation, c.n));
  EXPECT_LE(static_cast<int>(steps.size()), ceil_log2(c.n)) << "Lemma 15";
  std::size_t pairs = 0;
  for (const auto& step : steps) pairs += step.size();
  EXPECT_EQ(run.stats["schedule"]["synchronized_steps"], 2 * pairs) << "one exchange of distance 2 per swapped pair";
  if (std::string(c.permutation) == "bit-reversal") {
    EXPECT_EQ(steps.size(), 1u);
    EXPECT_EQ(pairs, static_cast<std::size_t>(c.n / 2)) << "003 §7: f(i) = i, g(i) = n-1-i";
  }
  EXPECT_EQ(run.stats["schedule"]["steps_with_blocking"], 0);
}

INSTANTIATE_TEST_SUITE_P(Permutations, JhPermute,
                         ::testing::Values(PermuteCase{2, "bit-reversal"}, PermuteCase{3, "bit-reversal"},
                                           PermuteCase{5, "bit-reversal"}, PermuteCase{8, "bit-reversal"},
                                           PermuteCase{10, "bit-reversal"}, PermuteCase{4, "shuffle"},
                                           PermuteCase{7, "unshuffle"}, PermuteCase{6, "3,0,5,1,2,4"},
                                           PermuteCase{3, "1,2,0"}),
                         [](const ::testing::TestParamInfo<PermuteCase>& info) {
                           std::string name = "n" + std::to_string(info.param.n) + "_" + info.param.permutation;
                           for (char& ch : name)
                             if (ch == '-' || ch == ',') ch = '_';
                           return name;
                         });

// Each node's moves (node_moves, what run_block_moves runs there) are what scanning the whole schedule
// for that node gives: per step the moves reaching it, then those leaving it, in the step's order.
TEST(NodeMoves, EachNodeTakesTheMovesReachingItThenThoseLeavingItStepByStep) {
  const int n = 6;
  for (const MoveSchedule& schedule :
       {combined_gray_transpose_schedule(n, gray_transpose_flags(n, codes_of(5))), naive_gray_transpose_schedule(n, codes_of(3)),
        parallel_swap_schedule(n, swapping_steps({1, 2, 3, 4, 5, 0}))}) {
    const std::vector<std::vector<NodeMove>> moves = node_moves(schedule, 1 << n);
    ASSERT_EQ(moves.size(), static_cast<std::size_t>(1 << n));
    std::size_t total = 0;
    for (int v = 0; v < (1 << n); ++v) {
      std::vector<std::string> scanned, found;
      for (std::size_t s = 0; s < schedule.size(); ++s) {
        for (std::size_t k = 0; k < schedule[s].size(); ++k)
          if (schedule[s][k].to == v) scanned.push_back(std::to_string(s) + " in " + std::to_string(k));
        for (std::size_t k = 0; k < schedule[s].size(); ++k)
          if (schedule[s][k].from == v) scanned.push_back(std::to_string(s) + " out " + std::to_string(k));
      }
      for (const NodeMove& m : moves[static_cast<std::size_t>(v)])
        found.push_back(std::to_string(m.step) + (m.leaving ? " out " : " in ") + std::to_string(m.index));
      EXPECT_EQ(found, scanned) << "node " << v;
      total += found.size();
    }
    EXPECT_GT(total, 0u);
  }
}

}  // namespace
}  // namespace meshmp
