// Oblivious two-phase routing (hw/router/two_phase_routing.h) against oracles written here: ROMM's
// intermediate nodes are the minimal quadrant's (every coordinate between the source's and the
// destination's on a path, on the shorter arc of a ring), Valiant's every node, each drawn; a head routed
// router by router through the route computation reaches its intermediate node on the lower half of the
// VCs and its destination on the upper, in dist(src, m) + dist(m, dst) hops; on the machine, exchanges
// byte-exact under both, the same result on 1 and 2 host threads, and each misuse refused naming its rule.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "exchange_run.h"
#include "hw/router/routing_unit.h"
#include "hw/router/two_phase_routing.h"
#include "meshmp_process.h"

namespace meshmp {
namespace {

TEST(TwoPhaseRouting, RommDrawsFromTheMinimalQuadrantAndValiantFromEveryNode) {
  const Topology mesh = Topology::parse("mesh:6x6");
  auto at = [](int x, int y) { return y * 6 + x; };
  // From (1,4) to (4,2): x in 1..4, y in 2..4: 12 nodes.
  std::set<int> quadrant;
  for (int x = 1; x <= 4; ++x)
    for (int y = 2; y <= 4; ++y) quadrant.insert(at(x, y));
  std::mt19937_64 random(3);
  std::set<int> romm, valiant;
  for (int i = 0; i < 2000; ++i) {
    romm.insert(draw_intermediate(mesh, &romm_intermediates, at(1, 4), at(4, 2), random));
    valiant.insert(draw_intermediate(mesh, &valiant_intermediates, at(1, 4), at(4, 2), random));
  }
  EXPECT_EQ(romm, quadrant);
  EXPECT_EQ(valiant.size(), 36u);
  for (int node = 0; node < 36; ++node)
    EXPECT_EQ(is_intermediate(mesh, &romm_intermediates, at(1, 4), at(4, 2), node), quadrant.count(node) == 1) << node;
  // On ring:8 from 6 to 1 the shorter arc goes + across the wrap: 6, 7, 0, 1.
  const Topology ring = Topology::parse("ring:8");
  std::set<int> arc;
  for (int i = 0; i < 500; ++i) arc.insert(draw_intermediate(ring, &romm_intermediates, 6, 1, random));
  EXPECT_EQ(arc, (std::set<int>{6, 7, 0, 1}));
}

// Follows a head from src through every router's route computation, with intermediate node m.
struct Walk {
  int hops = 0;
  bool visited_intermediate = false;
  bool reached = false;
};

Walk walk(const Topology& topology, const RouterParams& params, int src, int m, int dst) {
  Walk w;
  Flit head;
  head.head = true;
  head.dst = dst;
  int in_port = topology.num_ports();
  for (int node = src; w.hops <= 4 * topology.diameter();) {
    RoutingUnit unit(node, topology, params, PortModel::OnePort, &dimension_order_port);
    const RouteDecision d = unit.compute_two_phase(head, in_port, m);
    if (node == m) w.visited_intermediate = true;
    if (d.out_port >= topology.num_ports()) {
      w.reached = node == dst;
      return w;
    }
    // Phase 0 on the lower half of the VCs (of the dateline class's half on a ring), phase 1 the upper.
    const int phase = two_phase_phase(head);
    EXPECT_EQ(phase, w.visited_intermediate ? 1 : 0) << src << " -> " << m << " -> " << dst << " at " << node;
    const bool ring = topology.dimension(topology.port(d.out_port).dimension).kind == DimensionKind::Ring;
    const int span = ring ? params.vcs / 2 : params.vcs;
    EXPECT_EQ(d.vc_end - d.vc_begin, span / 2);
    EXPECT_EQ(d.vc_begin % span, phase * span / 2);
    head.vc_class = d.vc_class;
    head.ring_dimension = d.ring_dimension;
    head.vc = static_cast<std::uint8_t>(d.vc_begin);
    in_port = 0;
    node = topology.neighbor(node, d.out_port);
    ++w.hops;
  }
  return w;
}

TEST(TwoPhaseRouting, AHeadGoesThroughItsIntermediateNodeOnItsPhasesVcs) {
  for (const char* spec : {"mesh:4x3", "torus:4x3", "hypercube:3"}) {
    const Topology topology = Topology::parse(spec);
    RouterParams params;
    params.vcs = 4;
    params = with_routing(params, "valiant");
    for (int src = 0; src < topology.num_nodes(); ++src)
      for (int m = 0; m < topology.num_nodes(); ++m)
        for (int dst = 0; dst < topology.num_nodes(); ++dst) {
          if (src == dst) continue;
          const Walk w = walk(topology, params, src, m, dst);
          EXPECT_TRUE(w.reached) << spec << " " << src << " -> " << m << " -> " << dst;
          EXPECT_TRUE(w.visited_intermediate) << spec << " " << src << " -> " << m << " -> " << dst;
          EXPECT_EQ(w.hops, topology.distance(src, m) + topology.distance(m, dst)) << spec << " " << src << " -> " << m;
        }
  }
}

class TwoPhaseMachine : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(TwoPhaseMachine, EveryByteInPlace) {
  const auto& [routing, topology] = GetParam();
  MachineConfig config;
  config.topology = topology;
  config.algorithm = "direct";
  config.block_bytes = 40;
  config.routing = routing;
  config.router.vcs = 4;
  ASSERT_FALSE(config.validate().has_value()) << *config.validate();
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();
  const std::uint64_t nodes = static_cast<std::uint64_t>(Topology::parse(topology).num_nodes());
  EXPECT_EQ(run.report.units_checked, nodes * nodes);
}

INSTANTIATE_TEST_SUITE_P(Functions, TwoPhaseMachine,
                         ::testing::Combine(::testing::Values(std::string("valiant"), std::string("romm")),
                                            ::testing::Values(std::string("mesh:5x4"), std::string("torus:4x4"),
                                                              std::string("hypercube:4"))),
                         [](const auto& info) {
                           std::string name = std::get<0>(info.param) + "_" + std::get<1>(info.param);
                           for (char& ch : name)
                             if (ch == '-' || ch == ':') ch = '_';
                           return name;
                         });

// The intermediate nodes come from each router's generator, seeded from the traffic's seed: the same
// result on 1 and 2 host threads.
TEST(TwoPhaseRouting, TheSameResultOnTwoHostThreads) {
  for (const char* routing : {"valiant", "romm"}) {
    const std::string args = std::string("traffic -t torus:6x6 --vcs 4 --rate 0.3 --warmup-cycles 2000 "
                                         "--measure-cycles 8000 --seed 5 -o - --routing ") + routing;
    const auto one = meshmp_test::meshmp(args);
    ASSERT_EQ(one.status, 0) << one.output;
    const auto two = meshmp_test::meshmp(args + " --host-threads 2");
    ASSERT_EQ(two.status, 0) << two.output;
    const nlohmann::json a = meshmp_test::json_in_output(one.output), b = meshmp_test::json_in_output(two.output);
    EXPECT_EQ(a.value("average_packet_latency_cycles", 0.0), b.value("average_packet_latency_cycles", -1.0)) << routing;
    EXPECT_EQ(a.value("measured_packets", 0), b.value("measured_packets", -1)) << routing;
  }
}

TEST(TwoPhaseRouting, MisusesAreRefusedNamingTheRule) {
  const auto refused = &meshmp_test::expect_run_refused;
  refused("-t mesh:4x4 --routing valiant --vcs 1", "router.vcs = '1': valiant needs a VC class per phase: at least 2");
  refused("-t torus:4x4 --routing romm --vcs 3",
          "router.vcs = '3': romm needs a VC class per phase and dateline class: at least 4");
  refused("-t mesh:4x4 --routing valiant --router rtl", "router.routing = 'valiant': is oblivious");
  refused("-t mesh:4x4 --routing romm --fidelity tlm", "the transaction-level network reserves one fixed path");
  refused("-t mesh:4x4 --routing romm --port-model all-port", "an all-port node injects on the channel");
  refused("-t mesh:4x4 --routing valiant --selection random", "router.selection = 'random': picks among the outputs");
  refused("-t mesh:4x4 --routing min-adaptive --no-phase-classes", "router.phase_classes = 'false': puts both phases");
}

}  // namespace
}  // namespace meshmp
