// dima-a1 (002 §4, Algorithm A1), dima-a2 (§5, A2) and dima-1d (their per-dimension total exchange) in
// 002's model: store-and-forward, a barrier before
// every step, one block per message. Byte-exact on rings 3..9 and 12, paths 3..9, complete graphs and
// the 2-node graph, under one-port (002's single-port) and all-port (multiport) nodes, with the steps
// the machine counts equal to the bounds of 002 §3 where the schedule meets them: single-port on rings
// and complete graphs the status bound AS(G) (3); multiport on rings, paths and complete graphs the cut
// bound (4). Single-port on a path cannot meet AS (an end node only ever sends its own k - 1 blocks): it
// meets the tighter bound of the middle node's receive load, path_receive_bound, exactly. On every step the port rule
// holds (one-port: one message out and one in per node) and every message crosses one link (flit-hops =
// 2 per message: a head and one payload flit).
// A1 on products: exactly Theorem 2 / Corollary 3's n sum_i T_i / |V_i| steps with dima-1d's T_i, which
// is AS(G) on products of rings, complete graphs and 2-node graphs (Theorem 3). A2 on H^d (all-port):
// exactly Corollary 4's n^(d-1) T_H steps, the cut bound where T_H is H's (Theorem 5), and no step
// meets header blocking (so no directed link carries two messages in a step).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "exchange_run.h"
#include "test_names.h"
#include "firmware/paper002/dimension_exchange_schedule.h"
#include "topology/exchange_bounds.h"

namespace meshmp {
namespace {

struct Case {
  const char* topology;
  bool all_port;
};

MachineConfig model_002(const char* topology, const char* algorithm, bool all_port) {
  MachineConfig config;
  config.topology = topology;
  config.algorithm = algorithm;
  config.block_bytes = 8;
  config.port_model = all_port ? PortModel::AllPort : PortModel::OnePort;
  config.router.switching = SwitchingMode::StoreAndForward;
  config.router.buffer_flits = 17;
  config.algorithm_options = {{"sync", "barrier"}};
  return config;
}

// The port rule on every step and one link per message (8-byte blocks: a head and one payload flit).
void expect_one_block_one_link_per_message(const ExchangeRun& run, bool all_port) {
  EXPECT_EQ(run.stats["schedule"]["steps_with_blocking"], 0);
  if (!all_port) {
    for (const auto& step : run.stats["steps"]) EXPECT_LE(step["messages_max_per_node"].get<int>(), 1);
  }
  EXPECT_EQ(run.stats["network"]["flit_hops"].get<std::uint64_t>(),
            2 * run.stats["messages"]["received"].get<std::uint64_t>());
}

class Dima1d : public ::testing::TestWithParam<Case> {};

TEST_P(Dima1d, EveryByteInPlaceInTheBoundsSteps) {
  const Case c = GetParam();
  const MachineConfig config = model_002(c.topology, "dima-1d", c.all_port);
  ASSERT_FALSE(config.validate().has_value());
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();

  const Topology topology = Topology::parse(c.topology);
  const Dimension dim = topology.dimension(0);
  const ExchangeBounds bounds = exchange_bounds(topology);
  const std::uint64_t steps = run.stats["schedule"]["synchronized_steps"];
  if (c.all_port || dim.size == 2) {
    EXPECT_EQ(steps, bounds.cut_bound_steps) << "002 (4)";
  } else if (dim.kind != DimensionKind::Path) {
    EXPECT_EQ(steps, bounds.status_bound_steps) << "002 (3)";
  } else {
    EXPECT_EQ(steps, path_receive_bound(dim.size));
    EXPECT_GT(static_cast<double>(steps), bounds.average_status);
  }
  expect_one_block_one_link_per_message(run, c.all_port);
}

std::vector<Case> cases() {
  std::vector<Case> all;
  static const char* shapes[] = {"ring:3", "ring:4", "ring:5", "ring:6", "ring:7", "ring:8", "ring:9", "ring:12",
                                 "mesh:3", "mesh:4", "mesh:5", "mesh:6", "mesh:7", "mesh:8", "mesh:9",
                                 "ghc:3", "ghc:4", "ghc:6", "hypercube:1", "ring:2"};
  for (const char* s : shapes)
    for (bool all_port : {false, true}) all.push_back({s, all_port});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Dimensions, Dima1d, ::testing::ValuesIn(cases()), [](const auto& info) {
  return spec_test_name(info.param.topology) + (info.param.all_port ? "_multiport" : "_single_port");
});

class DimaA1 : public ::testing::TestWithParam<const char*> {};

TEST_P(DimaA1, EveryByteInPlaceInCorollary3Steps) {
  const MachineConfig config = model_002(GetParam(), "dima-a1", false);
  ASSERT_FALSE(config.validate().has_value());
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();

  const Topology topology = Topology::parse(GetParam());
  const auto n = static_cast<std::uint64_t>(topology.num_nodes());
  std::uint64_t corollary3 = 0;
  bool cayley = true;  // every dimension a ring, a complete graph or a 2-node graph
  for (int d = 0; d < topology.num_dimensions(); ++d) {
    const Dimension dim = topology.dimension(d);
    const std::uint64_t t_i = dimension_exchange_schedule(dim.kind, dim.size, false).size();
    corollary3 += n / static_cast<std::uint64_t>(dim.size) * t_i;
    cayley = cayley && (dim.kind != DimensionKind::Path || dim.size == 2);
  }
  const std::uint64_t steps = run.stats["schedule"]["synchronized_steps"];
  EXPECT_EQ(steps, corollary3) << "002 Corollary 3";
  if (cayley) {
    EXPECT_EQ(steps, exchange_bounds(topology).status_bound_steps) << "002 Theorem 3: AS(G)";
  }
  expect_one_block_one_link_per_message(run, false);
}

INSTANTIATE_TEST_SUITE_P(Products, DimaA1,
                         ::testing::Values("hypercube:1", "hypercube:2", "hypercube:3", "hypercube:4", "hypercube:5",
                                           "hypercube:6", "hypercube:7", "hypercube:8", "torus:4x4", "torus:5x3",
                                           "torus:8x8", "torus:4x4x4", "ring:3", "ring:5", "ring:9", "ring:12",
                                           "mesh:3", "mesh:9", "mesh:4x4", "mesh:3x5", "ghc:3x4", "ghc:3x3x3",
                                           "product:ring4xpath3", "product:ring3xpath3xpath2"),
                         topology_test_name);

class DimaA2 : public ::testing::TestWithParam<const char*> {};

TEST_P(DimaA2, EveryByteInPlaceInCorollary4Steps) {
  const MachineConfig config = model_002(GetParam(), "dima-a2", true);
  ASSERT_FALSE(config.validate().has_value());
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();

  const Topology topology = Topology::parse(GetParam());
  const Dimension h = topology.dimension(0);
  const std::uint64_t t_h = dimension_exchange_schedule(h.kind, h.size, true).size();
  std::uint64_t corollary4 = t_h;
  for (int d = 1; d < topology.num_dimensions(); ++d) corollary4 *= static_cast<std::uint64_t>(h.size);
  const std::uint64_t steps = run.stats["schedule"]["synchronized_steps"];
  EXPECT_EQ(steps, corollary4) << "002 Corollary 4";
  const char* kind = h.kind == DimensionKind::Ring ? "ring:" : h.kind == DimensionKind::Path ? "mesh:" : "ghc:";
  const Topology line = Topology::parse(kind + std::to_string(h.size));
  if (static_cast<double>(t_h) == exchange_bounds(line).cut.steps) {
    EXPECT_EQ(steps, exchange_bounds(topology).cut_bound_steps) << "002 Theorem 5: the cut bound";
  }
  expect_one_block_one_link_per_message(run, true);
}

INSTANTIATE_TEST_SUITE_P(Homogeneous, DimaA2,
                         ::testing::Values("torus:3x3", "torus:4x4", "torus:5x5", "torus:8x8", "torus:6x6", "mesh:4x4",
                                           "mesh:3x3", "hypercube:2", "hypercube:4", "torus:3x3x3x3"),
                         topology_test_name);

TEST(DimaA2, RefusesWhatSection5DoesNotCoverNamingTheRule) {
  const Algorithm& a2 = find_algorithm("dima-a2");
  ExchangeParameters all_port;
  all_port.all_port = true;
  const auto mixed = a2.why_unsupported(Topology::parse("torus:4x8"), all_port);
  ASSERT_TRUE(mixed.has_value());
  EXPECT_NE(mixed->find("homogeneous products H^d"), std::string::npos) << *mixed;
  const auto three = a2.why_unsupported(Topology::parse("torus:4x4x4"), all_port);
  ASSERT_TRUE(three.has_value());
  EXPECT_NE(three->find("a power of 2 dimensions"), std::string::npos) << *three;
  const auto one_port = a2.why_unsupported(Topology::parse("torus:4x4"), {});
  ASSERT_TRUE(one_port.has_value());
  EXPECT_NE(one_port->find("node.port_model = 'one-port': dima-a2 is multiport"), std::string::npos) << *one_port;
}

// Single-port on a path meets the middle node's receive bound on every length (31 steps on 8 nodes,
// against AS(P_8) = 21), which is therefore the optimum.
TEST(Dima1d, PathSinglePortMeetsTheReceiveBound) {
  EXPECT_EQ(path_receive_bound(8), 31u);
  EXPECT_DOUBLE_EQ(exchange_bounds(Topology::parse("mesh:8")).average_status, 21.0);
  for (int k = 2; k <= 40; ++k)
    EXPECT_EQ(dimension_exchange_schedule(DimensionKind::Path, k, false).size(), path_receive_bound(k)) << k;
}

// A node plans from its own position's transfers (shared_position_schedule): each position holds, step by
// step, exactly the transfers of the whole step that leave or reach it, in the step's order, and the
// schedule is built once and shared.
TEST(DimensionPositions, EachPositionHoldsItsOwnTransfersInTheirStepOrder) {
  for (DimensionKind kind : {DimensionKind::Ring, DimensionKind::Path, DimensionKind::Complete})
    for (bool multiport : {false, true})
      for (int size : {2, 5, 8}) {
        const std::vector<ExchangeStep> whole = dimension_exchange_schedule(kind, size, multiport);
        const PositionSchedule& shared = shared_position_schedule(kind, size, multiport);
        EXPECT_EQ(&shared, &shared_position_schedule(kind, size, multiport));
        ASSERT_EQ(shared.steps.size(), whole.size());
        ASSERT_EQ(shared.of_position.size(), static_cast<std::size_t>(size));
        for (int p = 0; p < size; ++p) {
          const auto& mine = shared.of_position[static_cast<std::size_t>(p)];
          ASSERT_EQ(mine.size(), whole.size()) << "position " << p;
          for (std::size_t s = 0; s < whole.size(); ++s) {
            ExchangeStep expected;
            for (const BlockTransfer& t : whole[s])
              if (t.from == p || t.to == p) expected.push_back(t);
            ASSERT_EQ(mine[s].size(), expected.size()) << "position " << p << ", step " << s;
            for (std::size_t i = 0; i < expected.size(); ++i) {
              EXPECT_EQ(mine[s][i].from, expected[i].from);
              EXPECT_EQ(mine[s][i].to, expected[i].to);
              EXPECT_EQ(mine[s][i].source, expected[i].source);
              EXPECT_EQ(mine[s][i].destination, expected[i].destination);
            }
          }
        }
      }
}

TEST(Dima1d, RefusesProductsNamingTheRule) {
  const Algorithm& one = find_algorithm("dima-1d");
  const auto torus = one.why_unsupported(Topology::parse("torus:4x4"), {});
  ASSERT_TRUE(torus.has_value());
  EXPECT_NE(torus->find("dima-1d runs on one dimension"), std::string::npos) << *torus;
}

}  // namespace
}  // namespace meshmp
