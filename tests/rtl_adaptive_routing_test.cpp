// Adaptive routing on the RTL router (rtl/meshmp_route_compute.sv, rtl/meshmp_route_select.sv): the table
// the adapter loads at reset (hw/router/rtl_route_table.h) against the outputs written out here from Chiu's
// odd-even rules and Duato's escape channels; the RTL router in lockstep with the SystemC router
// (`--router dual`, from random power-on states) under the turn models and minimal adaptive routing, each
// selection policy, every switching mode; whole machines the same under both models; the chosen output in
// the waveform; and what the RTL router does not route refused naming the rule.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gtkwave/fstapi.h"
#include "hw/router/flit_wire.h"
#include "hw/router/rtl_route_table.h"
#include "meshmp_process.h"

namespace meshmp {
namespace {

int node_at(const Topology& topology, int x, int y) { return x + topology.dimension(0).size * y; }

// Odd-even at (4,6), an even column, toward (7,4), eastbound and south: the south turn only while the
// packet is in its source's column, then east (the destination's column is odd); from (5,6), an odd
// column, both always.
TEST(RtlAdaptiveRouting, TableHoldsOddEvenTurnsWithTheSourceColumnRule) {
  const Topology topology = Topology::parse("mesh:8x8");
  RouterParams params;
  params.vcs = 4;
  params = with_routing(params, "odd-even");
  const int south = topology.port_of(1, -1), east = topology.port_of(0, +1);
  const int even = node_at(topology, 4, 6), odd = node_at(topology, 5, 6), dst = node_at(topology, 7, 4);
  const RtlModelPort::TableChoices at_even =
      rtl_table_choices(RoutingUnit(even, topology, params, PortModel::OnePort, &dimension_order_port), params, topology,
                        even, dst);
  ASSERT_EQ(at_even.count, 2);
  EXPECT_EQ(at_even.entries[0].port, south);
  EXPECT_TRUE(at_even.entries[0].source_column_only);
  EXPECT_EQ(at_even.entries[1].port, east);
  EXPECT_FALSE(at_even.entries[1].source_column_only);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(at_even.entries[k].vc_begin, 0);
    EXPECT_EQ(at_even.entries[k].vc_end, 4);
    EXPECT_FALSE(at_even.entries[k].escape);
  }
  const RtlModelPort::TableChoices at_odd =
      rtl_table_choices(RoutingUnit(odd, topology, params, PortModel::OnePort, &dimension_order_port), params, topology,
                        odd, dst);
  ASSERT_EQ(at_odd.count, 2);
  EXPECT_FALSE(at_odd.entries[0].source_column_only);
  EXPECT_FALSE(at_odd.entries[1].source_column_only);
  // To itself: no choices (the table's one port ejects).
  EXPECT_EQ(rtl_table_choices(RoutingUnit(odd, topology, params, PortModel::OnePort, &dimension_order_port), params,
                              topology, odd, odd)
                .count,
            0);
}

// Minimal adaptive on a mesh with 4 VCs: the minimal outputs on VCs 1-3, then dimension order's on VC 0,
// the escape VC.
TEST(RtlAdaptiveRouting, TableHoldsMinimalOutputsThenTheEscapeOutput) {
  const Topology topology = Topology::parse("mesh:8x8");
  RouterParams params;
  params.vcs = 4;
  params = with_routing(params, "min-adaptive");
  EXPECT_EQ(rtl_escape_vcs(topology, params), 1);
  const int node = node_at(topology, 2, 2), dst = node_at(topology, 5, 0);
  const RtlModelPort::TableChoices table = rtl_table_choices(
      RoutingUnit(node, topology, params, PortModel::OnePort, &dimension_order_port), params, topology, node, dst);
  ASSERT_EQ(table.count, 3);
  std::vector<int> adaptive{table.entries[0].port, table.entries[1].port};
  std::sort(adaptive.begin(), adaptive.end());
  std::vector<int> minimal{topology.port_of(0, +1), topology.port_of(1, -1)};
  std::sort(minimal.begin(), minimal.end());
  EXPECT_EQ(adaptive, minimal);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(table.entries[k].vc_begin, 1);
    EXPECT_EQ(table.entries[k].vc_end, 4);
    EXPECT_FALSE(table.entries[k].escape);
  }
  EXPECT_EQ(table.entries[2].port, topology.port_of(0, +1)) << "dimension order: x first";
  EXPECT_EQ(table.entries[2].vc_begin, 0);
  EXPECT_EQ(table.entries[2].vc_end, 1);
  EXPECT_TRUE(table.entries[2].escape);
}

// The routers' own header field (route[0..2] of a head without a source route: the source's column, a
// two-phase header) crosses the wire; an RTL router reads the column from it.
TEST(RtlAdaptiveRouting, SourceColumnCrossesTheWire) {
  Flit head{};
  head.head = true;
  head.dst = 9;
  head.packet_flits = 2;
  set_source_column(head, 300);
  head.route[2] = 7;
  Flit back;
  ASSERT_TRUE(wire::unpack(wire::pack(head), back));
  EXPECT_EQ(source_column(back), 300);
  EXPECT_EQ(back.route[2], 7);
}

struct LockstepCase {
  const char* name;
  const char* args;
};

void PrintTo(const LockstepCase& c, std::ostream* os) { *os << c.args; }

class RtlAdaptiveLockstep : public ::testing::TestWithParam<LockstepCase> {};

// Both router models in lockstep inside the network (`--router dual` stops at the first flit or credit
// that differs), beyond saturation, from a random power-on state; and the same results as the SystemC
// routers alone.
TEST_P(RtlAdaptiveLockstep, SameFlitsAsTheSystemCRouterEveryCycle) {
  const std::string args = std::string("traffic ") + GetParam().args +
                           " --warmup-cycles 200 --measure-cycles 600 --json-line";
  const meshmp_test::Outcome cpp = meshmp_test::meshmp(args + " --router cpp");
  const meshmp_test::Outcome dual = meshmp_test::meshmp(args + " --router dual --rtl-power-on-seed 41");
  ASSERT_EQ(cpp.status, 0) << cpp.output;
  ASSERT_EQ(dual.status, 0) << dual.output;
  const auto result = [](const std::string& output) {
    const std::string line = output.substr(output.find('{'));
    nlohmann::json j = nlohmann::json::parse(line.substr(0, line.find('\n')));
    return std::vector<double>{j["accepted_flits_per_node_per_cycle"].get<double>(),
                               j["average_packet_latency_cycles"].get<double>(),
                               j["measured_packets"].get<double>()};
  };
  EXPECT_EQ(result(dual.output), result(cpp.output));
  EXPECT_GT(result(cpp.output)[2], 100.0);
}

INSTANTIATE_TEST_SUITE_P(
    Functions, RtlAdaptiveLockstep,
    ::testing::Values(
        LockstepCase{"odd_even_first", "-t mesh:8x8 --routing odd-even --pattern transpose --rate 0.4"},
        LockstepCase{"odd_even_most_credits",
                     "-t mesh:8x8 --routing odd-even --selection most-credits --pattern uniform --rate 0.5"},
        LockstepCase{"west_first_cut_through",
                     "-t mesh:6x6 --routing west-first --switching cut-through --packet-flits 4 --rate 0.4"},
        LockstepCase{"north_last_store_and_forward",
                     "-t mesh:6x6 --routing north-last --switching store-and-forward --packet-flits 4 "
                     "--selection most-credits --rate 0.3"},
        LockstepCase{"negative_first_deep_pipeline",
                     "-t mesh:8x8 --routing negative-first --pipeline-depth 3 --pattern bit-reverse --rate 0.4"},
        LockstepCase{"min_adaptive_first", "-t mesh:8x8 --routing min-adaptive --pattern transpose --rate 0.5"},
        LockstepCase{"min_adaptive_most_credits_two_vcs",
                     "-t mesh:8x8 --routing min-adaptive --vcs 2 --selection most-credits --pattern transpose --rate 0.5"},
        LockstepCase{"min_adaptive_three_dimensions", "-t mesh:4x4x4 --routing min-adaptive --rate 0.4"},
        LockstepCase{"min_adaptive_hypercube", "-t hypercube:3 --routing min-adaptive --rate 0.5"},
        LockstepCase{"min_adaptive_without_escape", "-t mesh:6x6 --routing min-adaptive --no-escape-channels --rate 0.2"}),
    [](const ::testing::TestParamInfo<LockstepCase>& info) { return std::string(info.param.name); });

// A whole machine's exchange: the same verified memories, cycles and statistics under the RTL routers.
TEST(RtlAdaptiveRouting, MachineRunsTheSameUnderBothRouterModels) {
  meshmp_test::expect_same_statistics("--topology mesh:8x8 --algorithm direct -m 16 --routing odd-even", "--router cpp",
                                      "--router rtl --rtl-power-on-seed 3");
  meshmp_test::expect_same_statistics("--topology mesh:4x4 --algorithm pairwise -m 40 --routing min-adaptive "
                                      "--selection most-credits",
                                      "--router cpp", "--router dual");
}

// The waveform names each VC's chosen output (route_select.chosen_port) in every traced router.
TEST(RtlAdaptiveRouting, WaveformShowsTheChosenOutput) {
  const std::string path = ::testing::TempDir() + "meshmp_rtl_adaptive_" + std::to_string(getpid()) + ".fst";
  const meshmp_test::Outcome run = meshmp_test::meshmp("run --topology mesh:4x4 --routing odd-even --router rtl "
                                                       "--trace-rtl " + path + " --trace-nodes 5 -o \"\"");
  ASSERT_EQ(run.status, 0) << run.output;
  void* reader = fstReaderOpen(path.c_str());
  ASSERT_NE(reader, nullptr);
  std::vector<std::string> scopes;
  int chosen_ports = 0;
  while (fstHier* h = fstReaderIterateHier(reader)) {
    if (h->htyp == FST_HT_SCOPE) scopes.emplace_back(h->u.scope.name);
    if (h->htyp == FST_HT_UPSCOPE && !scopes.empty()) scopes.pop_back();
    if (h->htyp == FST_HT_VAR && std::string(h->u.var.name).rfind("chosen_port", 0) == 0 && !scopes.empty() &&
        scopes.back() == "route_select")
      ++chosen_ports;
  }
  fstReaderClose(reader);
  EXPECT_EQ(chosen_ports, 5) << "one per port of router 5";
}

// What the RTL router's table does not hold is refused naming the rule.
TEST(RtlAdaptiveRouting, WhatTheTableCannotHoldIsRefused) {
  const auto refused = &meshmp_test::expect_run_refused;
  refused("-t torus:4x4 --routing min-adaptive --router rtl",
          "router.routing = 'min-adaptive': on the RTL router needs a topology without rings");
  refused("-t hypercube:4 --routing min-adaptive --router dual",
          "router.routing = 'min-adaptive': offers up to 5 outputs per destination on hypercube:4: the RTL router's "
          "table holds 4");
  refused("-t mesh:4x4 --routing odd-even --selection random --router rtl",
          "router.selection = 'random': the RTL router selects first or most-credits");
  refused("-t mesh:4x4 --routing valiant --router rtl", "router.routing = 'valiant': is oblivious");
}

}  // namespace
}  // namespace meshmp
