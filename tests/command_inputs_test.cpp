// The inputs of `meshmp traffic` and `meshmp sweep` are bounded and checked before any point runs: a bad
// one is exit 2 with the field, the value (as typed) and the rule; options that would be ignored are
// refused; sweep options never pass through a shell.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "meshmp_process.h"

namespace {

using meshmp_test::meshmp;
using meshmp_test::Outcome;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "meshmp_inputs_" + std::to_string(getpid()) + "_" + name;
}

void expect_refused(const std::string& args, const std::string& message) {
  const Outcome o = meshmp(args);
  EXPECT_EQ(o.status, 2) << args << "\n" << o.output;
  EXPECT_NE(o.output.find(message), std::string::npos) << args << "\n" << o.output;
  EXPECT_EQ(o.output.find("[1/"), std::string::npos) << "no point may run: " << o.output;
}

TEST(CommandInputs, TrafficSweepChecksItsInputsBeforeAnyPoint) {
  expect_refused("traffic --rates 0.1:0.2:0.1 --vcs 0 --csv /dev/null --png /dev/null", "router.vcs = '0': must be 1..16");
  expect_refused("traffic --rates 0.1:0.2:0.1 --pattern transpose -t torus:4x8 --csv /dev/null --png /dev/null",
                 "traffic.pattern = 'transpose'");
  expect_refused("traffic --rates 0.01:0.99:0.0000001", "traffic.rates = '0.01:0.99:0.0000001': at most 1000 loads");
  expect_refused("traffic --rates 0.1:0.2:0.1 --rate 0.3", "--rate = '0.3': a sweep of loads (--rates) sets the rate");
  for (const char* list : {"0.2,0.1", "0.1,,0.2", "0.1,", "0,0.1", "0.1,1.5", "0.1,x", "0.1,0.1"})
    expect_refused(std::string("traffic --rates ") + list,
                   "traffic.rates = '" + std::string(list) + "': expected FROM:TO:STEP with 0 < FROM <= TO <= 1 and "
                   "STEP > 0, or a comma-separated list of increasing loads in (0, 1]");
}

TEST(CommandInputs, TrafficRatesAsAListRunThoseLoads) {
  const std::string csv = temp_path("list.csv"), png = temp_path("list.png");
  const Outcome o = meshmp("traffic --topology mesh:4x4 --rates 0.05,0.1,0.3 --warmup-cycles 500 --measure-cycles 1000 "
                           "--csv " + csv + " --png " + png);
  ASSERT_EQ(o.status, 0) << o.output;
  for (const char* point : {"[1/3] offered 0.050", "[2/3] offered 0.100", "[3/3] offered 0.300"})
    EXPECT_NE(o.output.find(point), std::string::npos) << o.output;
  std::remove(csv.c_str());
  std::remove(png.c_str());
}

TEST(CommandInputs, TrafficWindowsSeedAndPacketsAreBounded) {
  expect_refused("traffic --warmup-cycles -1", "traffic.warmup_cycles = '-1'");
  expect_refused("traffic --warmup-cycles 9223372036854775807", "traffic.warmup_cycles = '9223372036854775807': must be 0..1000000000");
  expect_refused("traffic --measure-cycles 18446744073709551615", "traffic.measure_cycles = '18446744073709551615': must be 1..1000000000");
  expect_refused("traffic --drain-cycles 1000000001", "traffic.drain_cycles = '1000000001'");
  expect_refused("traffic --seed -1", "traffic.seed = '-1'");
  expect_refused("traffic --packet-flits 4098", "traffic.packet_flits = '4098': must be 1..4097");
}

TEST(CommandInputs, TrafficRefusesOptionsItWouldIgnore) {
  expect_refused("traffic --hotspot-node 3", "--hotspot-node = '3': applies to --pattern hotspot only");
  expect_refused("traffic --pattern neighbour --hotspot-fraction 0.5", "--hotspot-fraction = '0.5': applies to --pattern hotspot only");
  expect_refused("traffic --pattern transpose --exclude-self", "--exclude-self = 'true': applies to --pattern uniform only");
  expect_refused("traffic --compare-reference sims/reference/x.csv",
                 "--compare-reference = 'sims/reference/x.csv': belongs to a sweep of loads");
  expect_refused("traffic --csv c.csv", "--csv = 'c.csv': belongs to a sweep of loads");
  const std::string garbage = temp_path("garbage.csv");
  std::ofstream(garbage) << "load,accepted,latency\n0.1,0.1,abc\n";
  expect_refused("traffic --rates 0.1:0.2:0.1 --compare-reference " + garbage + " --csv /dev/null --png /dev/null",
                 "line 2: 'abc' is not a number");
  std::ofstream(garbage) << "";
  expect_refused("traffic --rates 0.1:0.2:0.1 --compare-reference " + garbage, "the file is empty");
}

// A reference curve names the network it was measured on ("# key: value" before its header): a run on
// another is refused before any point runs; both curves unsaturated is said in words, not "differs by 100%".
TEST(CommandInputs, TrafficComparesOnlyLikeWithLike) {
  const std::string reference = temp_path("reference.csv");
  const std::string rows = "load,accepted,latency\n0.05,0.05,20\n0.1,0.1,21\n";
  std::ofstream(reference) << "# topology: mesh:4x4\n# vcs: 4\n" << rows;
  const std::string sweep = "traffic --rates 0.05,0.1 --warmup-cycles 100 --measure-cycles 300 --csv " + temp_path("c.csv") +
                            " --png " + temp_path("c.png") + " --compare-reference " + reference;
  expect_refused(sweep + " -t torus:4x4", "was measured with topology mesh:4x4; this run has topology torus:4x4: the curves "
                                          "would not compare like with like");
  expect_refused(sweep + " -t mesh:4x4 --vcs 2", "was measured with vcs 4; this run has vcs 2");
  const Outcome like = meshmp(sweep + " -t mesh:4x4");
  ASSERT_EQ(like.status, 0) << like.output;
  EXPECT_NE(like.output.find("neither curve saturates at the loads run"), std::string::npos) << like.output;
  EXPECT_EQ(like.output.find("differs by"), std::string::npos) << like.output;
  // The routing function and the injection process are part of the network a curve names.
  std::ofstream(reference) << "# topology: mesh:4x4\n# routing: min-adaptive\n# injection: on-off\n# burst_cycles: 20\n"
                           << rows;
  expect_refused(sweep + " -t mesh:4x4 --injection on-off --burst-cycles 20",
                 "was measured with routing min-adaptive; this run has routing dimension-order");
  expect_refused(sweep + " -t mesh:4x4 --routing min-adaptive", "was measured with injection on-off; this run has injection bernoulli");
  expect_refused(sweep + " -t mesh:4x4 --routing min-adaptive --injection on-off --burst-cycles 30",
                 "was measured with burst_cycles 20; this run has burst_cycles 30");
  const Outcome same_routing = meshmp(sweep + " -t mesh:4x4 --routing min-adaptive --injection on-off --burst-cycles 20.0");
  EXPECT_EQ(same_routing.status, 0) << same_routing.output;
  std::ofstream(reference) << "# vc: 4\n" << rows;
  expect_refused(sweep + " -t mesh:4x4", "line 1: '# vc: 4': expected '# KEY: VALUE' with KEY one of topology");
}

TEST(CommandInputs, TrafficOnAMachineOfMoreThan8192NodesIsNotRefusedForBlockBytes) {
  const Outcome o = meshmp("traffic --topology torus:100x100 --rate 0.001 --warmup-cycles 10 --measure-cycles 20");
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(o.output.find("block_bytes"), std::string::npos) << o.output;
}

TEST(CommandInputs, SweepChecksEveryPointBeforeTheFirstRuns) {
  const std::string grid = "sweep --topologies torus:4x4 --algorithms direct --csv /dev/null ";
  expect_refused(grid + "--run-options '--vcs 99'",
                 "point = 'torus:4x4 direct m=8 t_s=100 flit=8': router.vcs = '99': must be 1..16");
  expect_refused(grid + "--run-options --bogus", "The following argument was not expected: --bogus");
  expect_refused(grid + "--run-options '--algorithm-option order=bad'", "order");
  expect_refused(grid + "--run-options \"--algorithm-option 'order=ascending\"", "is never closed");
  expect_refused(grid + "--run-options '--vcd w.vcd'", "every point would write that one file");
  expect_refused(grid + "--run-options '-o s.json'", "a sweep writes each run's statistics itself");
  expect_refused(grid + "--startup-cycles 100000001", "node.startup_cycles = '100000001'");
  expect_refused(grid + "-m 4294967296", "block_bytes = '4294967296'");
  expect_refused(grid + "-j -3", "--jobs");
  expect_refused(grid + "-j 100000", "--jobs");
  expect_refused("sweep --topologies torus:4x4,, --algorithms direct", "--topologies = 'torus:4x4,,': an empty item");
  expect_refused("sweep --topologies torus:4x4 --algorithms ,direct", "--algorithms = ',direct': an empty item");
}

TEST(CommandInputs, SweepOptionsNeverReachAShell) {
  const std::string marker = temp_path("injected");
  std::filesystem::remove(marker);
  const Outcome o = meshmp("sweep --topologies torus:4x4 --algorithms direct --csv /dev/null --run-options "
                           "'--algorithm-option \"order=ascending; touch " + marker + "\"'");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_FALSE(std::filesystem::exists(marker));
  const std::string csv = temp_path("quoted.csv");
  const Outcome quoted = meshmp("sweep --topologies torus:4x4 --algorithms direct --csv " + csv +
                                " --run-options \"--algorithm-option 'order=ascending'\"");
  EXPECT_EQ(quoted.status, 0) << quoted.output;
}

TEST(CommandInputs, SweepRowsKeepTheReasonOfAnUnsupportedOrFailedPoint) {
  const std::string csv = temp_path("reasons.csv");
  const Outcome o = meshmp("sweep --topologies torus:4x4 --algorithms direct,tseng-t4 -j 1 --csv " + csv +
                           " --run-options '--max-cycles 200'");
  EXPECT_EQ(o.status, 1) << o.output;
  std::ifstream in(csv);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("header_blocking_cycles,steps_with_blocking,host_seconds,status_bound_steps,cut_bound_unrounded_steps,"
                            "port_model,energy.joules.total,energy.energy_per_delivered_bit_joules,energy.energy_delay_product_joule_seconds,"
                            "run_options,error\n"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("torus:4x4,direct,8,100,8,1,"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("the run reached run.max_cycles = 200"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("torus:4x4,tseng-t4,8,100,8,2,unsupported,"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("tseng-t4 needs rings of at least 8 nodes"), std::string::npos) << text.str();
  EXPECT_NE(o.output.find("failed (the run reached run.max_cycles = 200)"), std::string::npos) << o.output;
}

}  // namespace
