// dima-1d (002 §4's per-dimension total exchange) in 002's model: store-and-forward, a barrier before
// every step, one block per message. Byte-exact on rings 3..9 and 12, paths 3..9, complete graphs and
// the 2-node graph, under one-port (002's single-port) and all-port (multiport) nodes, with the steps
// the machine counts equal to the bounds of 002 §3 where the schedule meets them: single-port on rings
// and complete graphs the status bound AS(G) (3); multiport on rings, paths and complete graphs the cut
// bound (4). Single-port on a path cannot meet AS (an end node only ever sends its own k - 1 blocks): its
// steps are at least the middle node's receive load, path_receive_bound. On every step the port rule
// holds (one-port: one message out and one in per node) and every message crosses one link (flit-hops =
// 2 per message: a head and one payload flit).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "exchange_run.h"
#include "firmware/dimension_exchange_schedule.h"
#include "topology/exchange_bounds.h"

namespace meshmp {
namespace {

struct Case {
  const char* topology;
  bool all_port;
};

class Dima1d : public ::testing::TestWithParam<Case> {};

TEST_P(Dima1d, EveryByteInPlaceInTheBoundsSteps) {
  const Case c = GetParam();
  MachineConfig config;
  config.topology = c.topology;
  config.algorithm = "dima-1d";
  config.block_bytes = 8;
  config.port_model = c.all_port ? PortModel::AllPort : PortModel::OnePort;
  config.router.switching = SwitchingMode::StoreAndForward;
  config.router.buffer_flits = 17;
  config.algorithm_options = {{"sync", "barrier"}};
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
    EXPECT_GE(steps, path_receive_bound(dim.size));
    EXPECT_GT(static_cast<double>(steps), bounds.average_status);
    EXPECT_EQ(steps, dimension_exchange_schedule(dim.kind, dim.size, false).size());
  }
  EXPECT_EQ(run.stats["schedule"]["steps_with_blocking"], 0);
  if (!c.all_port) {
    for (const auto& step : run.stats["steps"]) EXPECT_LE(step["messages_max_per_node"].get<int>(), 1);
  }
  EXPECT_EQ(run.stats["network"]["flit_hops"].get<std::uint64_t>(),
            2 * run.stats["messages"]["received"].get<std::uint64_t>());
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
  std::string name = std::string(info.param.topology) + (info.param.all_port ? "_multiport" : "_single_port");
  for (char& ch : name)
    if (ch == ':') ch = '_';
  return name;
});

// Single-port on a path, measured against the two bounds (docs/architecture.md): 37 steps on 8 nodes
// against AS(P_8) = 21 and the middle node's 31 receives.
TEST(Dima1d, PathSinglePortAgainstItsBounds) {
  EXPECT_EQ(path_receive_bound(8), 31u);
  EXPECT_EQ(dimension_exchange_schedule(DimensionKind::Path, 8, false).size(), 37u);
  EXPECT_DOUBLE_EQ(exchange_bounds(Topology::parse("mesh:8")).average_status, 21.0);
}

TEST(Dima1d, RefusesProductsNamingTheRule) {
  const Algorithm& one = find_algorithm("dima-1d");
  const auto torus = one.supports(Topology::parse("torus:4x4"), {});
  ASSERT_TRUE(torus.has_value());
  EXPECT_NE(torus->find("dima-1d runs on one dimension"), std::string::npos) << *torus;
}

}  // namespace
}  // namespace meshmp
