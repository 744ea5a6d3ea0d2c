// The turn models (hw/router/turn_models.h) against oracles written here, not computed by the routing
// code: every route any sequence of choices can take is minimal and takes none of the turns the model
// forbids (listed by hand from Glass & Ni 1992 and Chiu 2000), and the channel dependencies all those
// routes create are acyclic (Dally & Seitz), where a fully adaptive minimal function's are not. On the
// machine: exchanges byte-exact under every function and selection, transpose traffic saturating later
// under odd-even and west-first than under dimension order (as published), saturation without deadlock,
// the same result for a seed on 1 and 2 host threads, and each misuse refused naming its rule.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "exchange_run.h"
#include "hw/router/turn_models.h"
#include "meshmp_process.h"

namespace meshmp {
namespace {

enum Direction { East, West, North, South, Nowhere };

Direction direction_of(const Topology& topology, int port) {
  const Port& p = topology.port(port);
  if (p.dimension == 0) return p.offset > 0 ? East : West;
  return p.offset > 0 ? North : South;
}

// The turns each model forbids, from the direction a packet arrives travelling in to the one it leaves in,
// at a node of column `column` (written out from the papers).
bool forbidden_turn(const std::string& model, Direction from, Direction to, int column) {
  if (model == "west-first") return to == West && (from == North || from == South);
  if (model == "north-last") return from == North && (to == East || to == West);
  if (model == "negative-first") return (from == East && to == South) || (from == North && to == West);
  if (model == "odd-even")
    return (column % 2 == 0 && from == East && (to == North || to == South)) ||
           (column % 2 == 1 && (from == North || from == South) && to == West);
  ADD_FAILURE() << "no turn list for " << model;
  return true;
}

// Every minimal direction, the fully adaptive function that deadlocks without escape channels.
void fully_adaptive_choices(const Topology& topology, int node, int, int dst, RouteChoices& out) {
  out.count = 0;
  const int dx = topology.coordinate(dst, 0) - topology.coordinate(node, 0);
  const int dy = topology.coordinate(dst, 1) - topology.coordinate(node, 1);
  if (dx != 0) out.ports[out.count++] = static_cast<std::int8_t>(topology.port_of(0, dx > 0 ? +1 : -1));
  if (dy != 0) out.ports[out.count++] = static_cast<std::int8_t>(topology.port_of(1, dy > 0 ? +1 : -1));
}

int distance(const Topology& topology, int a, int b) {
  return std::abs(topology.coordinate(a, 0) - topology.coordinate(b, 0)) +
         std::abs(topology.coordinate(a, 1) - topology.coordinate(b, 1));
}

// A channel: (node, output port). The dependencies every route of `function` creates, with each route
// checked minimal and, for a named model, free of its forbidden turns.
using Channel = std::pair<int, int>;
std::map<Channel, std::set<Channel>> channel_dependencies(const Topology& topology, AdaptiveRoutingFunction function,
                                                          const std::string& model) {
  std::map<Channel, std::set<Channel>> dependencies;
  for (int src = 0; src < topology.num_nodes(); ++src)
    for (int dst = 0; dst < topology.num_nodes(); ++dst) {
      if (src == dst) continue;
      // Depth-first over (node, the channel it arrived on: previous node and its output port), every
      // choice taken.
      std::set<std::tuple<int, int, int>> seen;
      std::vector<std::tuple<int, int, int>> stack{{src, -1, -1}};
      while (!stack.empty()) {
        const auto [node, previous, travelled] = stack.back();
        stack.pop_back();
        if (node == dst || !seen.insert({node, previous, travelled}).second) continue;
        RouteChoices choices;
        function(topology, node, src, dst, choices);
        EXPECT_GT(choices.count, 0) << model << ": no output at node " << node << " from " << src << " to " << dst;
        for (int k = 0; k < choices.count; ++k) {
          const int out = choices.ports[k];
          const int next = topology.neighbor(node, out);
          EXPECT_EQ(distance(topology, next, dst), distance(topology, node, dst) - 1)
              << model << ": a non-minimal hop at node " << node << " from " << src << " to " << dst;
          if (previous >= 0) {
            if (!model.empty()) {
              EXPECT_FALSE(forbidden_turn(model, direction_of(topology, travelled), direction_of(topology, out),
                                          topology.coordinate(node, 0)))
                  << model << ": a forbidden turn at node " << node << " from " << src << " to " << dst;
            }
            dependencies[{previous, travelled}].insert({node, out});
          }
          stack.push_back({next, node, out});
        }
      }
    }
  return dependencies;
}

bool acyclic(const std::map<Channel, std::set<Channel>>& dependencies) {
  std::map<Channel, int> state;  // 0 unvisited, 1 on the stack, 2 done
  std::function<bool(const Channel&)> visit = [&](const Channel& c) {
    int& s = state[c];
    if (s == 1) return false;
    if (s == 2) return true;
    s = 1;
    const auto found = dependencies.find(c);
    if (found != dependencies.end())
      for (const Channel& next : found->second)
        if (!visit(next)) return false;
    state[c] = 2;
    return true;
  };
  for (const auto& [c, next] : dependencies)
    if (!visit(c)) return false;
  return true;
}

const std::vector<std::string> kTurnModels{"west-first", "north-last", "negative-first", "odd-even"};

TEST(TurnModels, EveryRouteIsMinimalWithoutAForbiddenTurnAndTheDependenciesAreAcyclic) {
  for (const char* spec : {"mesh:4x4", "mesh:5x3", "mesh:6x6", "mesh:3x7"}) {
    const Topology topology = Topology::parse(spec);
    for (const std::string& model : kTurnModels) {
      const auto dependencies = channel_dependencies(topology, find_routing(model).adaptive, model);
      EXPECT_TRUE(acyclic(dependencies)) << model << " on " << spec;
    }
  }
}

TEST(TurnModels, TheOracleFindsTheCycleOfFullyAdaptiveRouting) {
  const Topology topology = Topology::parse("mesh:4x4");
  EXPECT_FALSE(acyclic(channel_dependencies(topology, &fully_adaptive_choices, "")));
}

TEST(TurnModels, OddEvenOffersBothDirectionsWhereChiuAllows) {
  // mesh:6x6, from (1,0) to (4,3): at the source (odd column) north or east; at (2,0) (even column, not
  // the source's) east only; at (3,0) north only (east would reach the even destination column, where
  // the packet could not turn north).
  const Topology topology = Topology::parse("mesh:6x6");
  auto node = [](int x, int y) { return y * 6 + x; };
  ASSERT_EQ(topology.coordinate(node(4, 3), 0), 4);
  RouteChoices c;
  odd_even_choices(topology, node(1, 0), node(1, 0), node(4, 3), c);
  EXPECT_EQ(c.count, 2);
  odd_even_choices(topology, node(2, 0), node(1, 0), node(4, 3), c);
  ASSERT_EQ(c.count, 1);
  EXPECT_EQ(direction_of(topology, c.ports[0]), East);
  odd_even_choices(topology, node(3, 0), node(1, 0), node(4, 3), c);
  ASSERT_EQ(c.count, 1);
  EXPECT_EQ(direction_of(topology, c.ports[0]), North);
  // Westbound from (4,3) to (1,0): west, and south only in an even column.
  odd_even_choices(topology, node(4, 3), node(4, 3), node(1, 0), c);
  EXPECT_EQ(c.count, 2);
  odd_even_choices(topology, node(3, 3), node(4, 3), node(1, 0), c);
  ASSERT_EQ(c.count, 1);
  EXPECT_EQ(direction_of(topology, c.ports[0]), West);
}

class TurnModelMachine : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(TurnModelMachine, EveryByteInPlace) {
  const auto& [routing, selection] = GetParam();
  MachineConfig config;
  config.topology = "mesh:6x5";
  config.algorithm = "direct";
  config.block_bytes = 40;
  config.routing = routing;
  config.router.selection = parse_route_selection(selection, "router.selection");
  config.router.vcs = 2;
  ASSERT_FALSE(config.validate().has_value()) << *config.validate();
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  ASSERT_TRUE(run.report.ok()) << run.report.errors.front();
  EXPECT_EQ(run.report.units_checked, 30u * 30u);
}

INSTANTIATE_TEST_SUITE_P(Functions, TurnModelMachine,
                         ::testing::Combine(::testing::ValuesIn(kTurnModels),
                                            ::testing::Values(std::string("first"), std::string("random"), std::string("most-credits"))),
                         [](const auto& info) {
                           std::string name = std::get<0>(info.param) + "_" + std::get<1>(info.param);
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

double accepted(const std::string& args) {
  const auto outcome = meshmp_test::meshmp("traffic -t mesh:8x8 --pattern transpose --rate 0.30 --warmup-cycles 3000 "
                                           "--measure-cycles 6000 -o - " + args);
  EXPECT_EQ(outcome.status, 0) << outcome.output;
  return meshmp_test::json_in_output(outcome.output).value("accepted_flits_per_node_per_cycle", 0.0);
}

// Glass & Ni 1992 and Chiu 2000: under transpose traffic on a mesh, west-first and odd-even sustain more
// than dimension order (XY sends every packet of a row along one column). Measured at 0.30 flits/node/cycle
// offered, beyond XY's saturation: 0.219 accepted under XY, 0.260 west-first, 0.280 odd-even.
TEST(TurnModels, OddEvenAndWestFirstSaturateLaterThanDimensionOrderOnTranspose) {
  const double xy = accepted("");
  EXPECT_GT(accepted("--routing west-first"), 1.1 * xy);
  EXPECT_GT(accepted("--routing odd-even --selection most-credits"), 1.2 * xy);
}

// At twice the saturation load, for 50,000 cycles, no function and selection deadlocks (the watchdog
// would end the run with an error), and a seed gives the same result on 1 and 2 host threads.
TEST(TurnModels, SaturationWithoutDeadlockAndTheSameResultOnTwoHostThreads) {
  for (const std::string& routing : kTurnModels) {
    const std::string args = std::string("traffic -t mesh:6x6 --pattern uniform --rate 0.8 --warmup-cycles 10000 "
                                         "--measure-cycles 40000 --drain-cycles 0 --seed 7 -o - --routing ") +
                             routing + " --selection random";
    const auto one = meshmp_test::meshmp(args);
    ASSERT_EQ(one.status, 0) << one.output;
    EXPECT_FALSE(meshmp_test::contains(one.output, "deadlock")) << one.output;
    const auto two = meshmp_test::meshmp(args + " --host-threads 2");
    ASSERT_EQ(two.status, 0) << two.output;
    auto measured = [](const std::string& output) {
      const nlohmann::json j = meshmp_test::json_in_output(output);
      return std::make_pair(j.value("accepted_flits_per_node_per_cycle", 0.0), j.value("measured_packets", std::uint64_t{0}));
    };
    EXPECT_EQ(measured(one.output), measured(two.output)) << routing;
  }
}

TEST(TurnModels, MisusesAreRefusedNamingTheRule) {
  const auto refused = &meshmp_test::expect_run_refused;
  refused("-t torus:4x4 --routing west-first", "router.routing = 'west-first': the turn models are defined on 2-D meshes");
  refused("-t hypercube:3 --routing odd-even", "router.routing = 'odd-even': the turn models are defined on 2-D meshes");
  refused("-t mesh:4x4 --selection random", "router.selection = 'random': picks among the outputs of an adaptive");
  refused("-t mesh:4x4 --routing odd-even --selection sideways", "router.selection = 'sideways': expected first, random");
  refused("-t mesh:4x4 --routing north-last --port-model all-port", "an all-port node injects on the channel");
  refused("-t mesh:4x4 --routing negative-first --fidelity tlm", "the transaction-level network reserves one fixed path");
}

}  // namespace
}  // namespace meshmp
