// The whole machine with every router from the RTL (`--router rtl`) against the SystemC routers
// (`cpp`): the baseline exchanges on mesh, torus and hypercube, one-port and all-port, wormhole and
// store-and-forward, and the papers' algorithms, must give the same verified memories and the same
// completion cycle, per-link flit counts, contention statistics and message statistics. Each machine runs
// in its own process (the meshmp binary); only the host's timing may differ.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "meshmp_process.h"

namespace {

int run(const std::string& args, std::string& output) {
  const meshmp_test::Outcome outcome = meshmp_test::meshmp("run " + args);
  output = outcome.output;
  return outcome.status;
}

void expect_same_machine(const std::string& args) {
  meshmp_test::expect_same_statistics(args, "--router-model cpp", "--router-model rtl");
}

TEST(RtlMachine, TorusDirect) { expect_same_machine("--topology torus:8x8 --algorithm direct"); }
TEST(RtlMachine, MeshPairwiseStoreAndForward) {
  expect_same_machine("--topology mesh:4x4 --algorithm pairwise --switching store-and-forward --packet-flits 7 -m 40");
}
TEST(RtlMachine, TorusDirectTwoVcsFourStages) {
  expect_same_machine("--topology torus:5x3 --algorithm direct --vcs 2 --pipeline-depth 4 -m 24");
}
TEST(RtlMachine, HypercubeAllPort) {
  expect_same_machine("--topology hypercube:4 --algorithm pairwise --port-model all-port -m 64");
}
TEST(RtlMachine, ThreeDimensionalTorusCutThrough) {
  expect_same_machine("--topology torus:3x3x3 --algorithm direct --switching cut-through --packet-flits 7 -m 80 --startup-cycles 0");
}

TEST(RtlMachine, RingOddLengthDepthFiveLongLinks) {
  expect_same_machine("--topology ring:7 --algorithm direct --pipeline-depth 5 --link-latency 3 -m 100");
}
TEST(RtlMachine, MeshThreeByFiveAscendingHotSpot) {
  expect_same_machine("--topology mesh:3x5 --algorithm direct --algorithm-option order=ascending --startup-cycles 0");
}
TEST(RtlMachine, HypercubeSixPairwise) { expect_same_machine("--topology hypercube:6 --algorithm pairwise -m 8"); }
TEST(RtlMachine, TorusSplitTiesSmallBuffers) {
  expect_same_machine("--topology torus:4x4 --algorithm direct --routing dimension-order-split-ties --buffer-flits 2 "
                      "--startup-cycles 0 -m 32");
}

// The papers' algorithms, one machine each, under both router models: the same verified memories,
// completion cycle, per-link counts, contention and schedule statistics.
struct PaperRun {
  const char* name;
  const char* args;
};
void PrintTo(const PaperRun& run, std::ostream* out) { *out << run.args; }
class RtlMachinePapers : public ::testing::TestWithParam<PaperRun> {};
TEST_P(RtlMachinePapers, SameMachineUnderBothRouterModels) { expect_same_machine(GetParam().args); }
INSTANTIATE_TEST_SUITE_P(
    Algorithms, RtlMachinePapers,
    ::testing::Values(
        PaperRun{"tseng_t4", "--topology torus:16x16 --algorithm tseng-t4 -m 8"},
        PaperRun{"tseng_t4_signals", "--topology torus:16x16 --algorithm tseng-t4 -m 8 --algorithm-option sync=signals"},
        PaperRun{"tseng_t1", "--topology torus:8x8 --algorithm tseng-t1 -m 8"},
        PaperRun{"tseng_ring", "--topology ring:16 --algorithm tseng-ring -m 8"},
        PaperRun{"tseng_c1", "--topology torus:8x8x8 --algorithm tseng-c1 -m 1"},
        PaperRun{"suh_mesh", "--topology mesh:8x6 --algorithm suh-mesh -m 16"},
        PaperRun{"dima_a1", "--topology hypercube:4 --algorithm dima-a1 -m 8"},
        PaperRun{"dima_a2_all_port", "--topology torus:4x4 --algorithm dima-a2 --port-model all-port -m 8"},
        PaperRun{"bruck", "--topology hypercube:6 --algorithm bruck -m 8"},
        PaperRun{"jh_exchange", "--topology hypercube:6 --algorithm jh-exchange -m 8 --workload-option rows=128"},
        PaperRun{"jh_sbnt_all_port", "--topology hypercube:4 --algorithm jh-sbnt --port-model all-port -m 8"},
        PaperRun{"jh_mpt_all_port",
                 "--topology hypercube:4 --algorithm jh-mpt --port-model all-port --startup-on channel "
                 "--workload-option partitioning=2d-consecutive --workload-option rows=64 --workload-option columns=64"},
        PaperRun{"jh_gray_transpose", "--topology hypercube:6 --algorithm jh-gray-transpose "
                                      "--workload-option partitioning=2d-cyclic --workload-option column_encoding=gray"}),
    [](const ::testing::TestParamInfo<PaperRun>& info) { return std::string(info.param.name); });

// Every router powering up at random values: the reset leaves nothing of them (the same machine).
TEST(RtlMachine, RandomPowerOnState) {
  meshmp_test::expect_same_statistics("--topology torus:8x8 --algorithm direct -m 16", "--router cpp",
                                      "--router rtl --rtl-power-on-seed 2026");
  meshmp_test::expect_same_statistics("--topology mesh:4x4 --algorithm pairwise --port-model all-port -m 24",
                                      "--router cpp", "--router rtl --rtl-power-on-seed 9");
}

// Both models in lockstep inside the machine (`--router dual`): the baselines run clean, with the same
// result as the SystemC machine, on mesh, torus and hypercube.
TEST(RtlMachine, DualRunsCleanOnTheBaselines) {
  for (const std::string args : {"--topology torus:4x4 --algorithm direct",
                                 "--topology mesh:4x4 --algorithm pairwise -m 40",
                                 "--topology hypercube:4 --algorithm bruck --startup-cycles 0",
                                 "--topology torus:3x3x3 --algorithm direct --switching store-and-forward --packet-flits 7"})
    meshmp_test::expect_same_statistics(args, "--router cpp", "--router dual");
  meshmp_test::expect_same_statistics("--topology mesh:4x4 --algorithm direct --port-model all-port", "--router cpp",
                                      "--router dual --rtl-power-on-seed 5");
}

// A deadlock under RTL routers is reported with the blocked channels as under the SystemC ones: per
// occupied input VC the front packet, the output VC it holds and its credits, or the port a waiting head
// wants and who holds that port's VCs (ring:8 without dateline classes: the channel cycle closes).
TEST(RtlMachine, DeadlockReportNamesPacketsAndWhatTheyWaitFor) {
  const std::string args = "--topology ring:8 --no-dateline --vcs 2 --buffer-flits 1 -m 2048 --startup-cycles 0 "
                           "--watchdog-cycles 200 -o \"\" --router ";
  std::string cpp, rtl;
  ASSERT_EQ(run(args + "cpp", cpp), 1) << cpp;
  ASSERT_EQ(run(args + "rtl", rtl), 1) << rtl;
  EXPECT_NE(rtl.find("FAILED (network failure): deadlock: 24 flits in the network and none moved for 200 cycles"),
            std::string::npos)
      << rtl;
  const std::string holds = "router 0 (0) in d0- vc 0: 1 flit(s) of packet tag 7 from node 7 waits for a credit on "
                            "out d0+ vc 1 (credits 0)";
  EXPECT_NE(cpp.find("    " + holds), std::string::npos) << cpp;
  EXPECT_NE(rtl.find("    RTL " + holds), std::string::npos) << rtl;
  EXPECT_NE(rtl.find("RTL router 0 (0) in d0- vc 1: 1 flit(s) of packet tag 6 from node 6 to node 1, head for out "
                     "d0+ (its VCs: held by packet tag 0 from node 0, held by packet tag 7 from node 7)"),
            std::string::npos)
      << rtl;
}

// The summary says which routers ran.
TEST(RtlMachine, SummaryNamesTheRouterModel) {
  std::string output;
  ASSERT_EQ(run("--topology torus:4x4 --router rtl --rtl-power-on-seed 3 -o \"\"", output), 0) << output;
  EXPECT_NE(output.find("router: verilated RTL routers, powered up at random (seed 3), wormhole"), std::string::npos)
      << output;
  ASSERT_EQ(run("--topology torus:4x4 --router dual -o \"\"", output), 0) << output;
  EXPECT_NE(output.find("router: SystemC and RTL routers in lockstep, wormhole"), std::string::npos) << output;
}

// The RTL waveform: an FST file whose blocks tile it (header, hierarchy, value changes), with time in
// cycles of 1 ns up to the end of the run, and the traced routers' internals (over 500 variables each).
TEST(RtlMachine, FstWaveformOfTheRouterInternals) {
  const std::string base = ::testing::TempDir() + "meshmp_rtl_fst_" + std::to_string(getpid());
  std::string output;
  ASSERT_EQ(run("--topology torus:4x4 --router-model rtl --trace-rtl " + base + ".fst --trace-nodes 0,5 -o " +
                    base + ".json",
                output),
            0)
      << output;
  std::ifstream in(base + ".fst", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto u64 = [&](std::size_t at) {
    std::uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v = v << 8 | static_cast<unsigned char>(bytes.at(at + k));
    return v;
  };
  ASSERT_GT(bytes.size(), 1000u);
  ASSERT_EQ(bytes[0], 0) << "an FST file starts with its header block";
  bool hierarchy = false, changes = false;
  std::size_t at = 0;
  for (; at < bytes.size(); at += 1 + u64(at + 1)) {
    const int type = bytes[at];
    hierarchy |= type == 4 || type == 6 || type == 7;
    changes |= type == 1 || type == 5 || type == 8;
  }
  EXPECT_EQ(at, bytes.size()) << "the blocks tile the file";
  EXPECT_TRUE(hierarchy);
  EXPECT_TRUE(changes);
  const nlohmann::json doc = nlohmann::json::parse(std::ifstream(base + ".json"));
  EXPECT_GE(u64(17), doc["statistics"]["completion_cycles"].get<std::uint64_t>()) << "end time, in cycles";
  EXPECT_EQ(static_cast<signed char>(bytes.at(73)), -9) << "time unit 1 ns = one cycle";
  EXPECT_GT(u64(49), 2u * 500u) << "variables: ports and internals of two routers";
}

// A machine the RTL matrix does not cover is refused with the rule and the built configurations.
TEST(RtlMachine, ConfigurationOutsideTheMatrixIsRefused) {
  std::string output;
  EXPECT_EQ(run("--topology torus:4x4 --router-model rtl --vcs 8 -o \"\"", output), 2) << output;
  EXPECT_NE(output.find("router.model = 'rtl': no RTL router with 8 VCs"), std::string::npos) << output;
  EXPECT_NE(output.find("p5v4: 4 network + 1 local ports, 4 VCs"), std::string::npos) << output;
}

}  // namespace
