// The two-dimensional transposes along paths (003 §6.1). Without a simulation: the paths of §6.1.3's
// example; SPT's paths edge-disjoint over all nodes, DPT's two per node too (§6.1.1-2); every packet of
// MPT's schedule alone on its directed link in its routing cycle (Lemmas 9-14). On the machine: every
// element in place, SPT in exactly ceil(PQ/(BN)) + n - 1 routing cycles and DPT in ceil(PQ/(2BN)) + n - 1,
// MPT in the cycles of its schedule, with no header blocking in any cycle on n-port nodes (no link
// collision; one-port relays do block, §6.1.2's n-port requirement); wormhole mode too; and no run beats Theorem 3's bound max(n tau, PQ/(2N) t_c) over a scan of B.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <tuple>

#include "exchange_run.h"
#include "firmware/paper003/transpose_moves.h"
#include "firmware/paper003/transpose_paths.h"

namespace meshmp {
namespace {

TEST(TransposePaths, ThePapersExampleOfSixPaths) {
  // 003 §6.1.3: x = (1001 || 0100), n = 8: H = 3, paths 0..5.
  const int x = 0b10010100;
  EXPECT_EQ(transpose_distance(x, 8), 3);
  EXPECT_EQ(transposed_node(x, 8), 0b01001001);
  const auto paths = transpose_paths(TransposePaths::Multiple, x, 8);
  const std::vector<std::vector<int>> expected = {{7, 3, 6, 2, 4, 0}, {4, 0, 7, 3, 6, 2}, {6, 2, 4, 0, 7, 3},
                                                  {3, 7, 2, 6, 0, 4}, {0, 4, 3, 7, 2, 6}, {2, 6, 0, 4, 3, 7}};
  EXPECT_EQ(paths, expected);
  // SPT routes g(i) (column) before f(i) (row): MPT's path H(x); DPT adds MPT's path 0.
  EXPECT_EQ(transpose_paths(TransposePaths::Single, x, 8).front(), expected[3]);
  EXPECT_EQ(transpose_paths(TransposePaths::Dual, x, 8), (std::vector<std::vector<int>>{expected[3], expected[0]}));
}

// Directed edges (node, dimension) of a path from x.
std::vector<std::pair<int, int>> edges_of(int x, const std::vector<int>& path) {
  std::vector<std::pair<int, int>> edges;
  for (int dim : path) {
    edges.emplace_back(x, dim);
    x ^= 1 << dim;
  }
  return edges;
}

TEST(TransposePaths, SptAndDptPathsAreEdgeDisjointAndReachTr) {
  for (int n : {2, 4, 6, 8, 10})
    for (TransposePaths kind : {TransposePaths::Single, TransposePaths::Dual}) {
      std::set<std::pair<int, int>> used;
      for (int x = 0; x < (1 << n); ++x)
        for (const auto& path : transpose_paths(kind, x, n)) {
          EXPECT_EQ(static_cast<int>(path.size()), 2 * transpose_distance(x, n));
          int at = x;
          for (const auto& edge : edges_of(x, path)) {
            EXPECT_TRUE(used.insert(edge).second) << "n=" << n << " x=" << x << " edge " << edge.first << "/" << edge.second;
            at ^= 1 << edge.second;
          }
          EXPECT_EQ(at, transposed_node(x, n));
        }
    }
}

TEST(TransposePaths, MptScheduleUsesEveryLinkOncePerCycle) {
  for (int n : {2, 4, 6, 8})
    for (std::uint64_t b : {0, 1, 3, 16}) {
      std::set<std::tuple<int, int, std::uint64_t>> used;  // (node, dimension, cycle)
      for (int x = 0; x < (1 << n); ++x) {
        const auto paths = transpose_paths(TransposePaths::Multiple, x, n);
        for (const PathPacket& p : transpose_packets(TransposePaths::Multiple, x, n, 96, b)) {
          std::uint64_t cycle = p.departure;
          for (const auto& [node, dim] : edges_of(x, paths[p.path]))
            EXPECT_TRUE(used.insert({node, dim, cycle++}).second) << "n=" << n << " B=" << b << " x=" << x;
        }
      }
    }
}

struct PathCase {
  const char* algorithm;
  int n;
  int log_side;  // P = Q = 2^log_side
  const char* partitioning;
  const char* encoding;
  std::uint64_t packet_elements;
  const char* mode;
  bool all_port;
  int extra_column_bits = 0;  // Q = 2^(log_side + this): P != Q
  const char* packet_size = "uniform";
};

void PrintTo(const PathCase& c, std::ostream* os) { *os << c.algorithm << " n=" << c.n; }

MachineConfig path_config(const PathCase& c) {
  MachineConfig config;
  config.topology = "hypercube:" + std::to_string(c.n);
  config.algorithm = c.algorithm;
  config.block_bytes = 8;
  config.port_model = c.all_port ? PortModel::AllPort : PortModel::OnePort;
  config.workload_options = {{"rows", std::to_string(1 << c.log_side)},
                             {"columns", std::to_string(1 << (c.log_side + c.extra_column_bits))},
                             {"partitioning", c.partitioning},
                             {"row_encoding", c.encoding},
                             {"column_encoding", c.encoding}};
  config.algorithm_options = {{"packet_elements", std::to_string(c.packet_elements)}, {"mode", c.mode}};
  if (std::string(c.algorithm) == "jh-mpt") config.algorithm_options["packet_size"] = c.packet_size;
  config.stats_json.clear();
  return config;
}

class PathTranspose : public ::testing::TestWithParam<PathCase> {};

TEST_P(PathTranspose, EveryElementInPlaceInThePapersRoutingCycles) {
  const PathCase c = GetParam();
  const MachineConfig config = path_config(c);
  ASSERT_FALSE(find_algorithm(c.algorithm).why_unsupported(Topology::parse(config.topology), exchange_parameters(config)));
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();
  EXPECT_EQ(run.report.units_checked, 1ull << (2 * c.log_side + c.extra_column_bits));
  const auto& schedule = run.stats["schedule"];
  if (c.all_port) {
    EXPECT_EQ(schedule["steps_with_blocking"], 0) << "no two packets on one link in one cycle";
  } else {
    // §6.1.2: DPT needs n sends and n receives at once; a one-port relay sends its packets one by one.
    EXPECT_GT(schedule["steps_with_blocking"].get<int>(), 0);
  }
  if (std::string(c.mode) == "wormhole") return;
  const std::uint64_t data = 1ull << (2 * c.log_side + c.extra_column_bits - c.n);  // PQ/N
  const std::uint64_t B = c.packet_elements ? c.packet_elements : data;
  const std::string algorithm = c.algorithm;
  std::uint64_t cycles = 0;
  if (algorithm == "jh-spt") cycles = (data + B - 1) / B + c.n - 1;  // 003 §6.1.1
  if (algorithm == "jh-dpt") cycles = (data / 2 + B - 1) / B + c.n - 1;  // §6.1.2
  if (algorithm == "jh-mpt") {
    // Two packets per path every 2H cycles: a class-H node with k packets per path ends at cycle
    // 2H floor((k-1)/2) + (k-1) mod 2 + 2H (§6.1.3: 2kH + 1 cycles for 2k packets per path).
    const ExchangeParameters cost = exchange_parameters(config);
    for (int x = 0; x < (1 << c.n); ++x) {
      const int h = transpose_distance(x, c.n);
      if (h == 0) continue;
      // Theorem 2's packet size per class: 4kH packets with the optimal k (at least 1), 2k per path.
      const std::uint64_t b = std::string(c.packet_size) == "per-class"
                                  ? mpt_class_packet_elements(data, h, 8.0 / cost.flit_bytes, static_cast<double>(cost.startup_cycles))
                                  : c.packet_elements;
      for (const PathPacket& p : transpose_packets(TransposePaths::Multiple, x, c.n, data, b))
        cycles = std::max<std::uint64_t>(cycles, p.departure + 2 * h);
    }
  }
  EXPECT_EQ(schedule["synchronized_steps"], cycles);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, PathTranspose,
    ::testing::Values(PathCase{"jh-spt", 2, 2, "2d-consecutive", "binary", 0, "store-and-forward", true},
                      PathCase{"jh-spt", 4, 4, "2d-cyclic", "gray", 4, "store-and-forward", true},
                      PathCase{"jh-spt", 6, 5, "2d-consecutive", "binary", 3, "store-and-forward", true},
                      PathCase{"jh-spt", 8, 5, "2d-cyclic", "binary", 2, "store-and-forward", true},
                      PathCase{"jh-spt", 6, 5, "2d-consecutive", "gray", 4, "wormhole", true},
                      PathCase{"jh-dpt", 2, 3, "2d-cyclic", "binary", 0, "store-and-forward", true},
                      PathCase{"jh-dpt", 4, 4, "2d-consecutive", "binary", 2, "store-and-forward", true},
                      PathCase{"jh-dpt", 6, 6, "2d-cyclic", "gray", 8, "store-and-forward", true},
                      PathCase{"jh-dpt", 8, 6, "2d-consecutive", "binary", 4, "store-and-forward", false},
                      PathCase{"jh-dpt", 6, 5, "2d-cyclic", "binary", 2, "wormhole", true},
                      PathCase{"jh-mpt", 2, 2, "2d-consecutive", "binary", 0, "store-and-forward", true},
                      PathCase{"jh-mpt", 4, 4, "2d-cyclic", "binary", 1, "store-and-forward", true},
                      PathCase{"jh-mpt", 6, 6, "2d-consecutive", "gray", 5, "store-and-forward", true},
                      PathCase{"jh-mpt", 8, 6, "2d-cyclic", "binary", 0, "store-and-forward", true},
                      PathCase{"jh-mpt", 6, 5, "2d-consecutive", "binary", 3, "wormhole", true},
                      PathCase{"jh-spt", 4, 4, "2d-cyclic", "binary", 4, "store-and-forward", true, 2},
                      PathCase{"jh-dpt", 6, 4, "2d-consecutive", "gray", 4, "store-and-forward", true, 3},
                      PathCase{"jh-mpt", 4, 4, "2d-consecutive", "binary", 8, "store-and-forward", true, 1},
                      PathCase{"jh-mpt", 6, 7, "2d-cyclic", "binary", 0, "store-and-forward", true, 0, "per-class"},
                      PathCase{"jh-mpt", 4, 8, "2d-consecutive", "gray", 0, "store-and-forward", true, 0, "per-class"}),
    [](const ::testing::TestParamInfo<PathCase>& info) {
      std::string name = std::string(info.param.algorithm) + "_n" + std::to_string(info.param.n) + "_" +
                         std::to_string(1 << info.param.log_side) + "x" +
                         std::to_string(1 << (info.param.log_side + info.param.extra_column_bits)) + "_B" +
                         std::to_string(info.param.packet_elements) + "_" + info.param.mode + "_" + info.param.encoding + "_" +
                         info.param.packet_size;
      for (char& ch : name)
        if (ch == '-') ch = '_';
      return name;
    });

// Theorem 3: no transpose beats max(n tau, PQ/(2N) t_c); a scan of B for each path algorithm.
struct BoundCase {
  const char* algorithm;
  std::uint64_t packet_elements;
};

void PrintTo(const BoundCase& c, std::ostream* os) { *os << c.algorithm << " B=" << c.packet_elements; }

class Theorem3 : public ::testing::TestWithParam<BoundCase> {};

TEST_P(Theorem3, NoRunBeatsTheLowerBound) {
  const BoundCase c = GetParam();
  const PathCase shape{c.algorithm, 6, 6, "2d-consecutive", "binary", c.packet_elements, "store-and-forward", true};
  const MachineConfig config = path_config(shape);
  const ExchangeRun run = run_exchange(config);
  ASSERT_TRUE(run.report.ok());
  const double n = 6, tau = static_cast<double>(config.processor.startup_cycles);
  const double half_transfer = (1 << (12 - 6)) / 2.0 * 8 / config.router.flit_bytes;  // PQ/(2N) t_c
  EXPECT_GE(static_cast<double>(run.result.completion_cycles), std::max(n * tau, half_transfer));
}

INSTANTIATE_TEST_SUITE_P(ScanOfB, Theorem3,
                         ::testing::Values(BoundCase{"jh-spt", 1}, BoundCase{"jh-spt", 8}, BoundCase{"jh-spt", 0},
                                           BoundCase{"jh-dpt", 2}, BoundCase{"jh-dpt", 16}, BoundCase{"jh-mpt", 1},
                                           BoundCase{"jh-mpt", 4}, BoundCase{"jh-mpt", 0}),
                         [](const ::testing::TestParamInfo<BoundCase>& info) {
                           std::string name = std::string(info.param.algorithm) + "_B" + std::to_string(info.param.packet_elements);
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

}  // namespace
}  // namespace meshmp
