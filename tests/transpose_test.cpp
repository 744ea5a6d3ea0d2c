// The transpose algorithms on whole machines, verified element by element (every element of A^T in its
// node and slot), with the counts 003 gives asserted exactly:
//  - jh-exchange (§3.2, §5): n synchronized steps of PQ/(2N) elements each, contention-free on the
//    n-cube, start-ups n ceil(PQ/(2NB)) per node with the shuffle; the §8.1 start-up counts of the
//    unbuffered and buffered variants; the measured time equals this machine's zero-load model of the
//    schedule, and the paper's T is reported beside it;
//  - transpose-direct (§8.2.1, Figure 14(b)) on every placement, before and after, binary and Gray.
#include <gtest/gtest.h>

#include <cmath>

#include "exchange_run.h"
#include "firmware/paper003/transpose_moves.h"
#include "firmware/paper003/transpose_workload.h"

namespace meshmp {
namespace {

MachineConfig transpose_config(int n, const char* algorithm, std::map<std::string, std::string> workload,
                               std::uint32_t element_bytes = 8) {
  MachineConfig config;
  config.topology = "hypercube:" + std::to_string(n);
  config.algorithm = algorithm;
  config.block_bytes = element_bytes;
  config.workload_options = std::move(workload);
  config.stats_json.clear();
  return config;
}

std::uint64_t log2_of(std::uint64_t x) {
  std::uint64_t bits = 0;
  while ((1ull << bits) < x) ++bits;
  return bits;
}

struct ExchangeCase {
  int n;
  int p, q;  // log2 of rows and columns
  const char* before;
  const char* after;
  const char* row_encoding;
  const char* column_encoding;
  const char* buffering;
  std::uint64_t packet_elements;  // B, 0 = whole messages
  std::uint64_t copy_threshold;   // B_copy (buffered)
};

void PrintTo(const ExchangeCase& c, std::ostream* os) { *os << "n=" << c.n << " p=" << c.p << " q=" << c.q; }

std::string name_of(const ::testing::TestParamInfo<ExchangeCase>& info) {
  const ExchangeCase& c = info.param;
  std::string name = "n" + std::to_string(c.n) + "_" + std::to_string(1 << c.p) + "x" + std::to_string(1 << c.q) + "_" +
                     c.before + "_to_" + c.after + "_" + c.row_encoding + "_" + c.column_encoding + "_" + c.buffering +
                     "_B" + std::to_string(c.packet_elements) + "_Bcopy" + std::to_string(c.copy_threshold);
  for (char& ch : name)
    if (ch == '-') ch = '_';
  return name;
}

class JhExchange : public ::testing::TestWithParam<ExchangeCase> {};

TEST_P(JhExchange, EveryElementInPlaceWithThePapersCounts) {
  const ExchangeCase c = GetParam();
  MachineConfig config = transpose_config(c.n, "jh-exchange",
                                          {{"rows", std::to_string(1 << c.p)},
                                           {"columns", std::to_string(1 << c.q)},
                                           {"partitioning", c.before},
                                           {"result_partitioning", c.after},
                                           {"row_encoding", c.row_encoding},
                                           {"column_encoding", c.column_encoding}});
  config.algorithm_options = {{"buffering", c.buffering},
                              {"packet_elements", std::to_string(c.packet_elements)},
                              {"copy_threshold_elements", std::to_string(c.copy_threshold)}};
  ASSERT_FALSE(config.validate().has_value());
  ASSERT_FALSE(find_algorithm("jh-exchange").why_unsupported(Topology::parse(config.topology), exchange_parameters(config)));
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();
  EXPECT_EQ(run.report.units_checked, 1ull << (c.p + c.q));

  const std::uint64_t nodes = 1ull << c.n;
  const std::uint64_t per_node = 1ull << (c.p + c.q - c.n);  // PQ/N
  const std::uint64_t half = per_node / 2;                   // PQ/(2N)
  const auto& schedule = run.stats["schedule"];
  EXPECT_EQ(schedule["synchronized_steps"], c.n);
  EXPECT_EQ(schedule["contention_free_steps"], c.n);
  std::uint64_t sent_per_step = 0;
  for (const auto& step : run.stats["steps"]) {
    sent_per_step = step["bytes_max_per_node"].get<std::uint64_t>() / config.block_bytes;
    EXPECT_EQ(sent_per_step, half) << "every step moves PQ/(2N) elements per node (003 §3.2)";
  }

  // Start-ups of every node (all equal).
  const std::uint64_t B = c.packet_elements;
  std::uint64_t expected = 0;
  const std::string buffering = c.buffering;
  if (buffering == "shuffle") {
    expected = c.n * packet_count(half, B);  // 003 §3.2: n ceil(PQ/(2 B N))
  } else {
    // 003 §8.1, unbuffered: N + ceil(PQ/(2BN)) min(n, log2 ceil(PQ/(BN))) - PQ/(BN), for B <= PQ/N
    // (L = PQ/(BN) packets per node's data); for larger B (or none) one message per run: N - 1. The
    // paper's "- PQ/(BN)" holds for L <= N; beyond (a block larger than B) every step sends
    // ceil(PQ/(2BN)) packets, and min(N, L), as the buffered formula writes it, is exact.
    const std::uint64_t L = B == 0 || B >= per_node ? 1 : per_node / B;
    const std::uint64_t direct =
        nodes + packet_count(half, B) * std::min<std::uint64_t>(c.n, log2_of(L)) - std::min(nodes, L);
    if (buffering == "unbuffered") {
      expected = direct;
    } else {
      // Buffered: min(N, PQ/(B_copy N)) - min(N, PQ/(B N)) + ceil(PQ/(2BN)) (min(n, log ceil(PQ/(BN)))
      //   + max(0, n - log ceil(PQ/(B_copy N)))), for B_copy <= B.
      const std::uint64_t Lc = std::max<std::uint64_t>(1, per_node / c.copy_threshold);
      expected = std::min(nodes, Lc) - std::min(nodes, L) +
                 packet_count(half, B) * (std::min<std::uint64_t>(c.n, log2_of(L)) +
                                          (c.n > static_cast<int>(log2_of(Lc)) ? c.n - log2_of(Lc) : 0));
    }
  }
  for (std::uint64_t s : run.startups) EXPECT_EQ(s, expected);
  EXPECT_EQ(schedule["max_messages_per_node"], expected);

  // Contention-free and synchronized: the machine's time is its zero-load model of the schedule.
  EXPECT_EQ(run.result.completion_cycles, run.zero_load_cycles);
  const double paper = find_algorithm("jh-exchange").estimate_cycles(Topology::parse(config.topology), exchange_parameters(config));
  RecordProperty("measured_over_paper_T", std::to_string(run.result.completion_cycles / paper));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, JhExchange,
    ::testing::Values(
        ExchangeCase{2, 2, 2, "row-consecutive", "row-consecutive", "binary", "binary", "shuffle", 0, 64},
        ExchangeCase{3, 3, 4, "row-cyclic", "row-cyclic", "binary", "binary", "shuffle", 0, 64},
        ExchangeCase{4, 5, 6, "row-consecutive", "row-consecutive", "gray", "gray", "shuffle", 8, 64},
        ExchangeCase{4, 4, 4, "column-cyclic", "column-consecutive", "gray", "binary", "shuffle", 0, 64},
        ExchangeCase{5, 5, 5, "row-consecutive", "row-cyclic", "binary", "binary", "shuffle", 0, 64},
        ExchangeCase{6, 7, 6, "column-consecutive", "column-consecutive", "binary", "gray", "shuffle", 16, 64},
        ExchangeCase{7, 7, 8, "row-cyclic", "row-consecutive", "gray", "binary", "shuffle", 0, 64},
        ExchangeCase{8, 8, 8, "row-consecutive", "row-consecutive", "binary", "binary", "shuffle", 0, 64},
        ExchangeCase{10, 10, 10, "row-cyclic", "row-cyclic", "gray", "gray", "shuffle", 0, 64},
        // 003 §6: consecutive rows and cyclic columns, with q - n_c >= n_r and p - n_r >= n_c: all-to-all.
        ExchangeCase{4, 4, 4, "2d-consecutive-rows-cyclic-columns", "2d-consecutive-rows-cyclic-columns", "binary",
                     "binary", "shuffle", 0, 64},
        ExchangeCase{6, 6, 7, "2d-cyclic-rows-consecutive-columns", "2d-cyclic-rows-consecutive-columns", "gray", "binary",
                     "unbuffered", 4, 64},
        ExchangeCase{4, 4, 6, "row-consecutive", "row-consecutive", "binary", "binary", "unbuffered", 0, 64},
        ExchangeCase{4, 4, 6, "row-consecutive", "row-consecutive", "binary", "binary", "unbuffered", 4, 64},
        ExchangeCase{5, 6, 6, "row-cyclic", "row-cyclic", "gray", "gray", "unbuffered", 16, 64},
        ExchangeCase{6, 6, 6, "row-consecutive", "row-consecutive", "binary", "binary", "unbuffered", 1, 64},
        ExchangeCase{6, 6, 8, "row-consecutive", "row-consecutive", "binary", "binary", "unbuffered", 1, 64},
        ExchangeCase{4, 4, 6, "row-consecutive", "row-consecutive", "binary", "binary", "buffered", 16, 8},
        ExchangeCase{5, 6, 6, "column-consecutive", "column-cyclic", "binary", "binary", "buffered", 32, 4},
        ExchangeCase{6, 7, 7, "row-consecutive", "row-consecutive", "gray", "binary", "buffered", 64, 16}),
    name_of);

struct DirectCase {
  int n;
  int p, q;
  const char* before;
  const char* after;
  const char* row_encoding;
  const char* column_encoding;
  const char* result_row_encoding;
};

void PrintTo(const DirectCase& c, std::ostream* os) { *os << "n=" << c.n << " p=" << c.p << " q=" << c.q; }

class TransposeDirect : public ::testing::TestWithParam<DirectCase> {};

TEST_P(TransposeDirect, EveryElementInPlace) {
  const DirectCase c = GetParam();
  const MachineConfig config = transpose_config(c.n, "transpose-direct",
                                                {{"rows", std::to_string(1 << c.p)},
                                                 {"columns", std::to_string(1 << c.q)},
                                                 {"partitioning", c.before},
                                                 {"result_partitioning", c.after},
                                                 {"row_encoding", c.row_encoding},
                                                 {"column_encoding", c.column_encoding},
                                                 {"result_row_encoding", c.result_row_encoding}});
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();
  EXPECT_EQ(run.report.units_checked, 1ull << (c.p + c.q));
}

INSTANTIATE_TEST_SUITE_P(
    Placements, TransposeDirect,
    ::testing::Values(DirectCase{2, 2, 3, "row-consecutive", "row-consecutive", "binary", "binary", "same"},
                      DirectCase{3, 4, 3, "row-cyclic", "column-cyclic", "gray", "binary", "same"},
                      DirectCase{4, 4, 4, "2d-consecutive", "2d-consecutive", "binary", "binary", "same"},
                      DirectCase{4, 5, 3, "2d-cyclic", "2d-cyclic", "gray", "gray", "same"},
                      DirectCase{4, 4, 4, "2d-consecutive", "2d-cyclic", "binary", "gray", "binary"},
                      DirectCase{5, 5, 6, "column-consecutive", "row-cyclic", "binary", "gray", "gray"},
                      DirectCase{6, 6, 6, "2d-cyclic", "row-consecutive", "gray", "binary", "binary"},
                      DirectCase{4, 4, 4, "row-consecutive", "column-consecutive", "binary", "binary", "same"},
                      DirectCase{4, 3, 4, "2d-consecutive-rows-cyclic-columns", "2d-cyclic", "gray", "binary", "same"}),
    [](const ::testing::TestParamInfo<DirectCase>& info) {
      std::string name = "case" + std::to_string(info.index) + "_n" + std::to_string(info.param.n) + "_" + info.param.before +
                         "_to_" + info.param.after;
      for (char& ch : name)
        if (ch == '-') ch = '_';
      return name;
    });

TEST(JhExchange, CombinedAssignmentOfTable2) {
  // 003 §2 Table 2: the node field anywhere in the row index (bits 1..4 of 6 here); A^T alike. The node
  // bits before (of u) and after (of v) are disjoint: all-to-all, every element in place in n steps.
  MachineConfig config = transpose_config(4, "jh-exchange",
                                          {{"rows", "64"}, {"columns", "32"}, {"row_node_field", "1"}, {"row_encoding", "gray"}});
  ASSERT_FALSE(find_algorithm("jh-exchange").why_unsupported(Topology::parse(config.topology), exchange_parameters(config)));
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();
  EXPECT_EQ(run.report.units_checked, 64u * 32u);
  EXPECT_EQ(run.stats["schedule"]["synchronized_steps"], 4);
}

TEST(JhExchange, RefusesPairwiseTrafficAndOtherMachines) {
  MachineConfig config = transpose_config(4, "jh-exchange", {{"partitioning", "2d-cyclic"}});
  auto error = find_algorithm("jh-exchange").why_unsupported(Topology::parse(config.topology), exchange_parameters(config));
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("must be disjoint"), std::string::npos) << *error;
  config.topology = "mesh:4x4";
  error = find_algorithm("jh-exchange").why_unsupported(Topology::parse(config.topology), exchange_parameters(config));
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("Boolean n-cube"), std::string::npos) << *error;
}

}  // namespace
}  // namespace meshmp
