// Minimal adaptive routing with escape channels (hw/router/minimal_adaptive.h) against oracles written
// here: the adaptive outputs are exactly the ports whose neighbour is one hop closer (the topology's
// distance, not the routing code), the escape output is dimension order's, and a head on an escape VC is
// offered only the escape route; on the machine, exchanges byte-exact on a mesh, a torus and a hypercube
// under every selection, transpose traffic sustained beyond dimension order's saturation, and each misuse
// refused naming its rule.
#include <gtest/gtest.h>

#include <set>

#include "exchange_run.h"
#include "hw/router/minimal_adaptive.h"
#include "hw/router/routing_unit.h"
#include "meshmp_process.h"

namespace meshmp {
namespace {

RouterParams min_adaptive_params(int vcs) {
  RouterParams params;
  params.vcs = vcs;
  return with_routing(params, "min-adaptive");
}

TEST(MinAdaptive, OffersEveryPortOneHopCloserAndDimensionOrderOnTheEscapeVcs) {
  for (const char* spec : {"mesh:4x5", "torus:4x5", "torus:3x3x2", "hypercube:4", "ghc:3x4", "product:path3xring4"}) {
    const Topology topology = Topology::parse(spec);
    const RouterParams params = min_adaptive_params(4);
    const int escape = escape_vcs(topology, true);
    for (int node = 0; node < topology.num_nodes(); ++node) {
      RoutingUnit unit(node, topology, params, PortModel::OnePort, &dimension_order_port);
      for (int dst = 0; dst < topology.num_nodes(); ++dst) {
        if (dst == node) continue;
        std::set<int> closer;
        for (int p = 0; p < topology.num_ports(); ++p) {
          const int next = topology.neighbor(node, p);
          if (next >= 0 && topology.distance(next, dst) == topology.distance(node, dst) - 1) closer.insert(p);
        }
        Flit head;
        head.head = true;
        head.dst = dst;
        RouteChoices choices;
        ASSERT_TRUE(unit.adaptive_choices(head, topology.num_ports(), node, choices));
        std::set<int> adaptive;
        for (int k = 0; k + 1 < choices.count; ++k) {
          EXPECT_EQ(choices.vc_sets[k], VcSet::Adaptive);
          adaptive.insert(choices.ports[k]);
          const RouteDecision d = unit.to_output(head, choices.ports[k], VcSet::Adaptive);
          EXPECT_EQ(d.vc_begin, escape);
          EXPECT_EQ(d.vc_end, 4);
        }
        EXPECT_EQ(adaptive, closer) << spec << " " << node << " -> " << dst;
        EXPECT_EQ(choices.vc_sets[choices.count - 1], VcSet::Escape);
        EXPECT_EQ(choices.ports[choices.count - 1], dimension_order_port(topology, node, dst));
        // A head that arrived on an escape VC keeps to the escape channels.
        head.vc = static_cast<std::uint8_t>(escape - 1);
        ASSERT_TRUE(unit.adaptive_choices(head, 0, node, choices));
        ASSERT_EQ(choices.count, 1);
        EXPECT_EQ(choices.vc_sets[0], VcSet::Escape);
        const RouteDecision d = unit.to_output(head, choices.ports[0], VcSet::Escape);
        EXPECT_EQ(d.vc_end - d.vc_begin, 1);
        EXPECT_LT(d.vc_begin, escape);
      }
    }
  }
}

class MinAdaptiveMachine : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(MinAdaptiveMachine, EveryByteInPlace) {
  const auto& [topology, selection] = GetParam();
  MachineConfig config;
  config.topology = topology;
  config.algorithm = "direct";
  config.block_bytes = 40;
  config.routing = "min-adaptive";
  config.router.selection = parse_route_selection(selection, "router.selection");
  config.router.vcs = 3;
  ASSERT_FALSE(config.validate().has_value()) << *config.validate();
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();
  const std::uint64_t nodes = static_cast<std::uint64_t>(Topology::parse(topology).num_nodes());
  EXPECT_EQ(run.report.units_checked, nodes * nodes);
}

INSTANTIATE_TEST_SUITE_P(Machines, MinAdaptiveMachine,
                         ::testing::Combine(::testing::Values(std::string("mesh:6x5"), std::string("torus:5x4"),
                                                              std::string("hypercube:5")),
                                            ::testing::Values(std::string("first"), std::string("random"),
                                                              std::string("most-credits"))),
                         [](const auto& info) {
                           std::string name = std::get<0>(info.param) + "_" + std::get<1>(info.param);
                           for (char& ch : name)
                             if (ch == '-' || ch == ':') ch = '_';
                           return name;
                         });

// hypercube:8 offers a head up to 8 adaptive outputs and the escape one: the selection weighs them all
// (it once kept room for 4, and overran it).
TEST(MinAdaptive, SelectsAmongNineOutputsOnHypercube8) {
  for (const char* selection : {"first", "random", "most-credits"}) {
    const auto outcome = meshmp_test::meshmp(std::string("traffic -t hypercube:8 --routing min-adaptive --rate 0.3 "
                                                         "--warmup-cycles 500 --measure-cycles 2000 -o - --selection ") +
                                             selection);
    ASSERT_EQ(outcome.status, 0) << outcome.output;
    EXPECT_TRUE(meshmp_test::json_in_output(outcome.output).value("all_measured_packets_delivered", false)) << selection;
  }
}

double accepted(const std::string& args) {
  const auto outcome = meshmp_test::meshmp("traffic -t mesh:8x8 --pattern transpose --rate 0.25 --warmup-cycles 3000 "
                                           "--measure-cycles 6000 -o - " + args);
  EXPECT_EQ(outcome.status, 0) << outcome.output;
  return meshmp_test::json_in_output(outcome.output).value("accepted_flits_per_node_per_cycle", 0.0);
}

// Transpose on mesh:8x8 at 0.25 offered, beyond dimension order's saturation: measured 0.204 accepted
// under dimension order, all 0.25 under min-adaptive.
TEST(MinAdaptive, SustainsTransposeTrafficBeyondDimensionOrdersSaturation) {
  const double dimension_order = accepted("");
  EXPECT_LT(dimension_order, 0.23);
  EXPECT_GT(accepted("--routing min-adaptive"), 0.24);
}

TEST(MinAdaptive, MisusesAreRefusedNamingTheRule) {
  const auto refused = &meshmp_test::expect_run_refused;
  refused("-t mesh:4x4 --routing min-adaptive --vcs 1",
          "router.vcs = '1': min-adaptive needs 1 escape VC and at least 1 adaptive VC: at least 2");
  refused("-t torus:4x4 --routing min-adaptive --vcs 2",
          "router.vcs = '2': min-adaptive needs 2 escape VCs (one per dateline class) and at least 1 adaptive VC");
  refused("-t mesh:4x4 --routing min-adaptive --fidelity tlm", "the transaction-level network reserves one fixed path");
  refused("-t mesh:4x4 --no-escape-channels", "router.escape_channels = 'false': turns off the escape channels");
}

}  // namespace
}  // namespace meshmp
