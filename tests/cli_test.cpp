// The command line end to end (the meshmp binary in a child process): the default run verifies and
// writes JSON statistics and a VCD; every kind of bad input gives a clear error naming the field, the
// value and the rule, and exit status 2; a deadlocking machine ends with the watchdog's report, status 1.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "hw/machine/machine_settings.h"
#include "meshmp_process.h"

namespace {

using meshmp_test::meshmp;
using meshmp_test::Outcome;

// As a user runs it: without the test environment's SYSTEMC_DISABLE_COPYRIGHT_MESSAGE.
Outcome meshmp_without_environment(const std::string& args) {
  return meshmp_test::run_command("env -u SYSTEMC_DISABLE_COPYRIGHT_MESSAGE " + std::string(MESHMP_BINARY) + " " + args);
}

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "meshmp_" + std::to_string(getpid()) + "_" + name;
}

TEST(CommandLine, RunTorusDirectVerifiesAndWritesStatsAndWaveform) {
  const std::string json = temp_path("stats.json"), vcd = temp_path("wave.vcd");
  const Outcome o = meshmp("run --topology torus:8x8 --algorithm direct -o " + json + " --vcd " + vcd +
                           " --trace-nodes 0,9");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("verified: all 4096 blocks"), std::string::npos) << o.output;
  std::ifstream in(json);
  const nlohmann::json doc = nlohmann::json::parse(in);
  EXPECT_TRUE(doc["verification"]["ok"].get<bool>());
  EXPECT_EQ(doc["statistics"]["startups"]["max_per_node"].get<int>(), 63);
  EXPECT_EQ(doc["statistics"]["network"]["links"].size(), 256u);
  EXPECT_EQ(doc["statistics"]["topology"]["diameter"].get<int>(), 8);
  EXPECT_DOUBLE_EQ(doc["statistics"]["topology"]["average_status"].get<double>(), 256.0);
  // 002 §3's bounds on torus:8x8: AS(G) = 256; the bisection of a dimension, 32 x 32 blocks over 16 edges.
  const nlohmann::json& bounds = doc["statistics"]["bounds"];
  EXPECT_EQ(bounds["status_bound_steps"].get<int>(), 256);
  EXPECT_EQ(bounds["cut_bound_steps"].get<int>(), 64);
  EXPECT_EQ(bounds["cut"]["edges"].get<int>(), 16);
  EXPECT_DOUBLE_EQ(bounds["measured_steps_over_cut_bound"].get<double>(), 63.0 / 64);
  EXPECT_GT(doc["statistics"]["completion_cycles"].get<int>(), 63 * 100);
  // Traced routers keep the clock ticking, but the run still ends when the work is done.
  EXPECT_LT(doc["statistics"]["simulation"]["cycles_stepped"].get<std::uint64_t>(),
            doc["statistics"]["completion_cycles"].get<std::uint64_t>() + 100);
  std::ifstream wave(vcd);
  std::stringstream text;
  text << wave.rdbuf();
  // Hierarchical names become VCD scopes: router9 / out0 / flit_valid.
  EXPECT_NE(text.str().find("$scope module router9 $end"), std::string::npos);
  EXPECT_NE(text.str().find("flit_valid"), std::string::npos);
  EXPECT_NE(text.str().find("credits_vc3"), std::string::npos);
  EXPECT_NE(text.str().find("$scope module dma0 $end"), std::string::npos);
  EXPECT_NE(text.str().find("bytes_left"), std::string::npos);
  EXPECT_NE(text.str().find("#100"), std::string::npos) << "the waveform has no value changes";
}

// `meshmp --version` and every JSON file name the version and the source commit of the build
// (sims/build_identity.h): a result can be traced to the code that made it.
TEST(CommandLine, VersionAndSourceCommitInEveryJsonFile) {
  const Outcome version = meshmp("--version");
  EXPECT_EQ(version.status, 0) << version.output;
  EXPECT_EQ(version.output.rfind("meshmp 0.1.0 (commit ", 0), 0u) << version.output;
  const std::string commit = version.output.substr(21, version.output.find(')') - 21);
  EXPECT_FALSE(commit.empty());
  const std::string run = temp_path("v_run.json"), traffic = temp_path("v_traffic.json"),
                    curve = temp_path("v_curve.json"), csv = temp_path("v_curve.csv"), png = temp_path("v_curve.png");
  ASSERT_EQ(meshmp("run --topology torus:4x4 --algorithm direct -o " + run).status, 0);
  ASSERT_EQ(meshmp("traffic --topology mesh:4x4 --rate 0.1 --warmup-cycles 100 --measure-cycles 500 -o " + traffic).status, 0);
  ASSERT_EQ(meshmp("traffic --topology mesh:4x4 --rates 0.1,0.2 --warmup-cycles 100 --measure-cycles 500 -o " + curve +
                   " --csv " + csv + " --png " + png).status, 0);
  for (const std::string& file : {run, traffic, curve}) {
    std::ifstream in(file);
    const nlohmann::json doc = nlohmann::json::parse(in);
    EXPECT_EQ(doc["meshmp"]["version"], "0.1.0") << file;
    EXPECT_EQ(doc["meshmp"]["commit"], commit) << file;
    std::remove(file.c_str());
  }
  std::remove(csv.c_str());
  std::remove(png.c_str());
}

// Machine-readable output clean on standard output: `-o -` puts the statistics there (and the summary on
// standard error); --quiet prints no summary; a failure report goes to standard error.
TEST(CommandLine, StatisticsOnStandardOutputSummaryAndErrorsOnStandardError) {
  const std::string bin = MESHMP_BINARY;
  const Outcome stdout_only = meshmp_test::run_command("(" + bin + " run --topology torus:4x4 -o - 2>/dev/null)");
  ASSERT_EQ(stdout_only.status, 0) << stdout_only.output;
  const nlohmann::json doc = nlohmann::json::parse(stdout_only.output);  // nothing but the JSON
  EXPECT_TRUE(doc["verification"]["ok"].get<bool>());
  const Outcome stderr_only = meshmp_test::run_command("(" + bin + " run --topology torus:4x4 -o - 2>&1 >/dev/null)");
  EXPECT_NE(stderr_only.output.find("verified: all 256 blocks"), std::string::npos) << stderr_only.output;
  const std::string json = temp_path("quiet.json");
  const Outcome quiet = meshmp("run --topology torus:4x4 --quiet -o " + json);
  EXPECT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.output, "");
  EXPECT_TRUE(nlohmann::json::parse(std::ifstream(json))["verification"]["ok"].get<bool>());
  const Outcome deadlock = meshmp_test::run_command(
      "(" + bin + " run --topology torus:4x4 --no-dateline --vcs 1 --buffer-flits 2 --block-bytes 256 --startup-cycles 1 "
            "--watchdog-cycles 200 --quiet -o " + json + " 2>&1 >/dev/null)");
  EXPECT_EQ(deadlock.status, 1);
  EXPECT_NE(deadlock.output.find("FAILED (network failure): deadlock"), std::string::npos) << deadlock.output;
  EXPECT_NE(deadlock.output.find("waits for"), std::string::npos) << deadlock.output;
  std::remove(json.c_str());
}

// --print-config writes the configuration a run would use as a config file; running that file is the
// same run.
TEST(CommandLine, PrintConfigReproducesTheRun) {
  const std::string config = temp_path("printed.json");
  const std::string options = "--topology mesh:4x6 --algorithm direct -m 24 --vcs 2 --startup-cycles 7 "
                              "--pipeline-depth 3 --algorithm-option order=ascending";
  const Outcome printed = meshmp_test::run_command(std::string(MESHMP_BINARY) + " run " + options +
                                                   " --print-config > " + config);
  ASSERT_EQ(printed.status, 0) << printed.output;
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(config))["router"]["vcs"], 2);
  meshmp_test::expect_same_statistics("", options, "--config " + config);
  const Outcome bad = meshmp("run --topology torus:4x4 --vcs 0 --print-config");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("router.vcs = '0'"), std::string::npos) << bad.output;
  std::remove(config.c_str());
}

TEST(CommandLine, ConfigFileGivesTheSameSettings) {
  const std::string config = temp_path("config.json");
  std::ofstream(config) << R"({"topology": "hypercube:3", "algorithm": "pairwise", "block_bytes": 16,
                               "router": {"vcs": 2, "switching": "cut-through", "buffer_flits": 17},
                               "node": {"port_model": "all-port", "startup_cycles": 30}})";
  const Outcome o = meshmp("run --config " + config);
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("hypercube:3 (8 nodes), algorithm pairwise"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("cut-through, 2 VCs x 17 flits"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("all-port, t_s = 30 cycles"), std::string::npos) << o.output;

  const std::string rtl = temp_path("rtl.json");
  std::ofstream(rtl) << R"({"topology": "torus:4x4", "router": {"model": "rtl", "rtl_power_on_seed": 7}})";
  const Outcome r = meshmp("run -o \"\" --config " + rtl);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("router: verilated RTL routers, powered up at random (seed 7)"), std::string::npos)
      << r.output;
}

struct BadInput {
  const char* args;
  const char* message;
};

std::ostream& operator<<(std::ostream& os, const BadInput& b) { return os << "meshmp " << b.args; }

class CommandLineBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CommandLineBadInput, ClearErrorAndExitStatus2) {
  const Outcome o = meshmp(GetParam().args);
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find(GetParam().message), std::string::npos) << o.output;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CommandLineBadInput,
    ::testing::Values(
        BadInput{"run --algorithm bogus", "algorithm = 'bogus': unknown algorithm; known: direct, pairwise"},
        BadInput{"run --topology hypercube:17", "topology = 'hypercube:17': the hypercube dimension must be 1..16"},
        BadInput{"run --topology mesh:4xq", "topology = 'mesh:4xq': 'q' is not a dimension size"},
        BadInput{"run --block-bytes 0", "block_bytes = '0': must be 1..4294967295"},
        BadInput{"run --block-bytes -3", "block_bytes = '-3': must be 1..4294967295"},
        BadInput{"run --vcs -1", "router.vcs = '-1': must be 1..16"},
        BadInput{"run --router-model verilog", "router.model = 'verilog': unknown router model; known: cpp"},
        BadInput{"run --router verilog", "router.model = 'verilog': unknown router model; known: cpp"},
        BadInput{"run --rtl-power-on-seed 5",
                 "router.rtl_power_on_seed = '5': sets the power-on state of RTL routers: needs router.model rtl or dual, not cpp"},
        BadInput{"run --router rtl --rtl-power-on-seed 2147483648",
                 "router.rtl_power_on_seed = '2147483648': must be 0..2147483647"},
        BadInput{"run --pipeline-depth 6", "router.pipeline_depth = '6': must be 1..5"},
        BadInput{"run --max-cycles 99999999999999999999",
                 "run.max_cycles = '99999999999999999999': must be 1..4611686018427387904"},
        BadInput{"run --watchdog-cycles 5", "run.watchdog_cycles = '5': must be 10..4611686018427387904"},
        BadInput{"run --copy-cycles-per-byte nan", "node.copy_cycles_per_byte = 'nan': must be a number 0..1e6"},
        BadInput{"run --copy-cycles-per-byte inf", "node.copy_cycles_per_byte = 'inf': must be a number 0..1e6"},
        BadInput{"run --copy-cycles-per-byte -0.5", "node.copy_cycles_per_byte = '-0.5': must be a number 0..1e6"},
        BadInput{"run --startup-cycles 1e3", "node.startup_cycles = '1e3': is not a whole number; must be 0..100000000"},
        BadInput{"run --vcs 0", "router.vcs = '0': must be 1..16"},
        BadInput{"run --topology torus:4x4 --vcs 1", "router.vcs = '1': a topology with rings needs at least 2"},
        BadInput{"run --switching cut-through", "router.buffer_flits = '8': cut-through switching needs a buffer"},
        BadInput{"run --switching teleport", "router.switching = 'teleport': expected wormhole"},
        BadInput{"run --port-model two-port", "node.port_model = 'two-port': expected one-port or all-port"},
        BadInput{"run --flit-bytes 64", "router.flit_bytes = '64': must be 1..32"},
        BadInput{"run --trace-nodes 64", "output.trace_nodes = '64': not a node of torus:8x8"},
        BadInput{"run --routing zigzag", "router.routing = 'zigzag': unknown routing function"},
        BadInput{"run --config /nonexistent.json", "--config = '/nonexistent.json': the file cannot be opened"},
        BadInput{"run --vcs many", "router.vcs = 'many': is not a whole number; must be 1..16"},
        BadInput{"run --frobnicate", "The following argument was not expected: --frobnicate"},
        BadInput{"run --topology hypercube:4 --algorithm jh-exchange --workload-option rows=48",
                 "workload_options.rows = '48': must be a power of two"},
        BadInput{"run --topology hypercube:4 --algorithm jh-exchange --workload-option partitioning=2d-cyclic",
                 "jh-exchange performs the all-to-all personalized communication of 003 §5"},
        BadInput{"run --topology hypercube:3 --algorithm jh-spt --workload-option partitioning=2d-cyclic",
                 "a 2-D partitioning gives n/2 node dimensions to rows and n/2 to columns (003 §6)"},
        BadInput{"run --topology mesh:4x4 --algorithm jh-sbnt", "runs on a Boolean n-cube"},
        BadInput{"run --workload-option rows=64", "workload_options.rows = '64': workload complete-exchange has no such option; its options: words"},
        BadInput{"run --topology ring:8 --algorithm bruck --workload-option words=64",
                 "workload_options.words = '64': sizes 004's data in words for the saad-* algorithms"},
        BadInput{"run --topology ring:8 --algorithm saad-one-to-one --algorithm-option method=four-paths",
                 "algorithm_options.method = 'four-paths': is not a method of saad-one-to-one on the ring"},
        BadInput{"run --topology ring:8 --algorithm saad-all-to-all-broadcast --workload-option words=12",
                 "workload_options.words = '12': must be a multiple of the 8 nodes"},
        BadInput{"run --topology ring:8 --algorithm saad-one-to-one --workload-option words=10 --algorithm-option packets=11",
                 "algorithm_options.packets = '11': at most the 10 words each path carries"},
        BadInput{"run --topology hypercube:4 --algorithm jh-permute --workload-option permutation=0,1,1,2",
                 "workload_options.permutation = '0,1,1,2': must list each of the 4 dimensions"},
        BadInput{"run --topology hypercube:4 --algorithm jh-sbt --workload-option root=16",
                 "workload_options.root = '16': must be a node of the machine, 0..15"},
        BadInput{"run --topology hypercube:4 --algorithm jh-exchange --algorithm-option packet_elements=-2",
                 "algorithm_options.packet_elements = '-2': is out of range: must be a whole number 0..4294967295"},
        BadInput{"run --workload-option rows", "--workload-option = 'rows': expected KEY=VALUE"},
        BadInput{"run --startup-on dma", "node.startup_on = 'dma': must be processor"}));

TEST(CommandLine, MalformedAndMistypedConfigFiles) {
  const std::string broken = temp_path("broken.json");
  std::ofstream(broken) << "{\"topology\": \"mesh:4x4\",";
  Outcome o = meshmp("run --config " + broken);
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.output.find("is not valid JSON"), std::string::npos) << o.output;

  const std::string unknown = temp_path("unknown.json");
  std::ofstream(unknown) << R"({"router": {"vc": 4}})";
  o = meshmp("run --config " + unknown);
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.output.find("router.vc = '4': unknown key"), std::string::npos) << o.output;

  const std::string mistyped = temp_path("mistyped.json");
  std::ofstream(mistyped) << R"({"block_bytes": "large"})";
  o = meshmp("run --config " + mistyped);
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.output.find("block_bytes = '\"large\"': is not a whole number; must be 1..4294967295"), std::string::npos)
      << o.output;

  const std::string duplicated = temp_path("duplicated.json");
  std::ofstream(duplicated) << R"({"router": {"vcs": 2, "vcs": 4}})";
  o = meshmp("run --config " + duplicated);
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.output.find("the key \"vcs\" appears twice in one object"), std::string::npos) << o.output;

  o = meshmp("run --config " + ::testing::TempDir());
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.output.find("is a directory, not a JSON file"), std::string::npos) << o.output;

  const std::string too_big = temp_path("too_big.json");
  std::ofstream(too_big) << R"({"router": {"vcs": 40}, "run": {"max_cycles": 1e30}})";
  o = meshmp("run --config " + too_big);
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.output.find("router.vcs = '40': must be 1..16"), std::string::npos) << o.output;

  const std::string negative_seed = temp_path("negative_seed.json");
  std::ofstream(negative_seed) << R"({"router": {"model": "rtl", "rtl_power_on_seed": -1}})";
  o = meshmp("run --config " + negative_seed);
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.output.find("router.rtl_power_on_seed = '-1': "), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("must be 0..2147483647"), std::string::npos) << o.output;
}

TEST(CommandLine, DeadlockIsReportedWithBlockedChannels) {
  const std::string json = temp_path("deadlock.json");
  const Outcome o = meshmp("run --topology torus:4x4 --no-dateline --vcs 1 --buffer-flits 2 --block-bytes 256 "
                           "--startup-cycles 1 --watchdog-cycles 200 -o " + json);
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("FAILED (network failure): deadlock"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("waits for"), std::string::npos) << o.output;
  // The statistics say when the run stopped: after the watchdog's 200 idle cycles.
  const nlohmann::json doc = nlohmann::json::parse(std::ifstream(json));
  EXPECT_GT(doc["statistics"]["completion_cycles"].get<std::uint64_t>(), 200u);
}

// A flit on a long link is moving: a watchdog shorter than the link latency is no deadlock.
TEST(CommandLine, FlitsOnALinkAreMovement) {
  const Outcome o = meshmp("run --topology mesh:2x2 --link-latency 64 --watchdog-cycles 10 -o \"\"");
  EXPECT_EQ(o.status, 0) << o.output;
}

TEST(CommandLine, RunsAreReproducible) {
  const std::string a = temp_path("a.json"), b = temp_path("b.json");
  const std::string args = "run --topology torus:5x3 --algorithm pairwise --port-model all-port --startup-cycles 3 -o ";
  ASSERT_EQ(meshmp(args + a).status, 0);
  ASSERT_EQ(meshmp(args + b).status, 0);
  nlohmann::json first = nlohmann::json::parse(std::ifstream(a)), second = nlohmann::json::parse(std::ifstream(b));
  for (auto* doc : {&first, &second}) {
    for (const char* host_dependent : {"host_seconds", "simulated_cycles_per_second", "stepped_cycles_per_second"})
      (*doc)["statistics"]["simulation"].erase(host_dependent);
  }
  EXPECT_EQ(first, second) << "two runs of one configuration differ";
}

// The help lists every setting of the table (hw/machine/machine_settings.h) by its option, and every config
// file key, and the sections a man page has.
TEST(CommandLine, HelpReadsLikeAManPage) {
  const Outcome o = meshmp("run --help");
  EXPECT_EQ(o.status, 0);
  for (const meshmp::MachineSetting& setting : meshmp::machine_settings()) {
    const std::string flag = setting.flags.substr(setting.flags.rfind(',') + 1);
    EXPECT_NE(o.output.find(flag + " "), std::string::npos) << flag;
    EXPECT_NE(o.output.find(setting.name()), std::string::npos) << setting.key << " in CONFIG FILE";
  }
  for (const char* section : {"DESCRIPTION", "EXAMPLES", "CONFIG FILE", "EXIT STATUS", "--config"})
    EXPECT_NE(o.output.find(section), std::string::npos) << section;
}

// The summary says which speed is which: the clock skips idle cycles, so simulated cycles/s overstates
// the work; the stepped cycles are reported beside it.
TEST(CommandLine, SpeedFigureSaysWhatItCounts) {
  const std::string json = temp_path("speed.json");
  const Outcome o = meshmp("run --topology mesh:2 --startup-cycles 100000 -o " + json);
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("stepped cycles/s"), std::string::npos) << o.output;
  const nlohmann::json doc = nlohmann::json::parse(std::ifstream(json));
  const auto& sim = doc["statistics"]["simulation"];
  EXPECT_GT(sim["simulated_cycles"].get<std::uint64_t>(), 100000u);
  EXPECT_LT(sim["cycles_stepped"].get<std::uint64_t>(), 100u) << "the clock stops during t_s";
}

// A channel's own start-up (node.startup_on = channel, 004's model) is skipped as the processor's is:
// the clock stepped every one of its cycles while the endpoint waited (a ring:256 all-to-all at t_s =
// 100,000 took 283 s, 12 s at t_s = 10).
TEST(CommandLine, TheClockSkipsAChannelsStartup) {
  const std::string json = temp_path("channel_startup.json");
  const Outcome o = meshmp("run --topology ring:8 -a saad-all-to-all-broadcast --cost-model 004 --startup-cycles 100000 -o " + json);
  ASSERT_EQ(o.status, 0) << o.output;
  const nlohmann::json doc = nlohmann::json::parse(std::ifstream(json));
  const auto& sim = doc["statistics"]["simulation"];
  EXPECT_GT(sim["simulated_cycles"].get<std::uint64_t>(), 7 * 100000u);  // 7 steps of one start-up each
  EXPECT_LT(sim["cycles_stepped"].get<std::uint64_t>(), 1000u) << "the clock stops during every channel's t_s";
}

// The default statistics stay compact (no N x N tables); the per-node, per-step detail is a CSV on request.
TEST(CommandLine, CompactStatisticsAndDetailOnRequest) {
  const std::string json = temp_path("compact.json"), csv = temp_path("detail.csv");
  const Outcome o = meshmp("run --topology torus:16x16 --block-bytes 8 -o " + json + " --detail-csv " + csv);
  ASSERT_EQ(o.status, 0) << o.output;
  std::ifstream in(json, std::ios::ate);
  const auto bytes = static_cast<std::uint64_t>(in.tellg());
  // 256 nodes: links and steps grow with N, nothing with N^2. (4096 nodes stay under 5 MB at this rate.)
  EXPECT_LT(bytes, 5000000u / 16) << "statistics of 256 nodes take " << bytes << " bytes";
  std::ifstream rows(csv);
  std::string line;
  std::getline(rows, line);
  EXPECT_EQ(line, "node,step,messages,bytes,begin_cycle,zero_load_estimate_cycles");
  std::uint64_t count = 0, messages = 0;
  while (std::getline(rows, line)) {
    ++count;
    std::stringstream fields(line);
    std::string node, step, sent;
    std::getline(fields, node, ',');
    std::getline(fields, step, ',');
    std::getline(fields, sent, ',');
    messages += std::stoull(sent);
  }
  EXPECT_EQ(count, 256u * 256u) << "one row per node per step (steps 0..255)";
  EXPECT_EQ(messages, 256u * 255u) << "every node sent N-1 messages";
}

// Per-message records on request: one CSV row per received message; their latencies are the ones the
// statistics summarise.
TEST(CommandLine, PerMessageRecordsOnRequest) {
  const std::string json = temp_path("messages.json"), csv = temp_path("messages.csv");
  const Outcome o = meshmp("run --topology torus:4x4 --block-bytes 16 -o " + json + " --messages-csv " + csv);
  ASSERT_EQ(o.status, 0) << o.output;
  std::ifstream rows(csv);
  std::string line;
  std::getline(rows, line);
  EXPECT_EQ(line, "src,dst,bytes,latency_cycles,header_blocking_cycles");
  std::uint64_t count = 0, max_latency = 0;
  std::set<std::pair<int, int>> pairs;
  while (std::getline(rows, line)) {
    ++count;
    int src, dst;
    unsigned bytes;
    std::uint64_t latency, blocking;
    char comma;
    std::stringstream(line) >> src >> comma >> dst >> comma >> bytes >> comma >> latency >> comma >> blocking;
    EXPECT_EQ(bytes, 16u);
    pairs.insert({src, dst});
    max_latency = std::max(max_latency, latency);
  }
  EXPECT_EQ(count, 16u * 15u);
  EXPECT_EQ(pairs.size(), 16u * 15u) << "every (source, destination) pair once";
  const nlohmann::json doc = nlohmann::json::parse(std::ifstream(json));
  EXPECT_EQ(doc["statistics"]["messages"]["latency_cycles"]["max"].get<std::uint64_t>(), max_latency);
}

// A machine whose model would not fit in this host's memory is refused before it is built, with the numbers.
TEST(CommandLine, MachineTooLargeForMemoryIsRefused) {
  const Outcome o = meshmp("run --topology ghc:128x128 --block-bytes 1 --buffer-flits 256 -o \"\"");
  EXPECT_EQ(o.status, 2) << o.output.substr(0, 400);
  EXPECT_NE(o.output.find("topology = 'ghc:128x128': the model would need about"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("16384 routers of 254 network ports x 4 VCs x 256 flits"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("of this machine's"), std::string::npos) << o.output;
}

TEST(CommandLine, NoBannerWhenRunDirectly) {
  const Outcome o = meshmp_without_environment("run --help");
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(o.output.find("Copyright"), std::string::npos) << o.output.substr(0, 300);
  const Outcome run = meshmp_without_environment("run --topology mesh:2 -o \"\" --vcd " + temp_path("quiet.vcd"));
  EXPECT_EQ(run.output.find("Copyright"), std::string::npos) << run.output.substr(0, 300);
  EXPECT_EQ(run.output.find("Info:"), std::string::npos) << run.output.substr(0, 300);
}

TEST(CommandLine, OutputFilesAreWrittenAsNamedAndNeverShared) {
  const std::string same = temp_path("same.json");
  Outcome o = meshmp("run --topology mesh:2 -o " + same + " --vcd " + same);
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("output.vcd = '" + same + "': a VCD waveform file name must end in .vcd"), std::string::npos)
      << o.output;
  const std::string vcd = temp_path("same.vcd");
  o = meshmp("run --topology mesh:2 -o " + vcd + " --vcd " + vcd);
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("output.vcd = '" + vcd + "': is the file output.stats_json = '" + vcd + "' names"),
            std::string::npos)
      << o.output;
  const std::string txt = temp_path("wave.txt");
  o = meshmp("run --topology mesh:2 -o \"\" --vcd " + txt);
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("a VCD waveform file name must end in .vcd"), std::string::npos) << o.output;
  EXPECT_FALSE(std::ifstream(txt).good()) << "nothing may be written for a refused name";
  EXPECT_FALSE(std::ifstream(txt + ".vcd").good());
}

}  // namespace

namespace {

TEST(CommandLine, TransposeRunNamesItsWorkloadAndVerifiesEveryElement) {
  const Outcome o = meshmp("run -o '' --topology hypercube:4 --algorithm jh-exchange -m 8 --workload-option rows=32 "
                           "--workload-option columns=64 --workload-option row_encoding=gray");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("workload: transpose of a 32 x 64 matrix of 8-byte elements, 128 per node: A row-consecutive, "
                          "rows Gray, columns binary"),
            std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("verified: all 2048 elements (16384 bytes) in place on every node"), std::string::npos) << o.output;
}

TEST(CommandLine, PaperGrayTableCountsNAgainst2nMinus2Steps) {
  const Outcome o = meshmp("paper 003-gray");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("hypercube:6   combined         6        6"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("hypercube:6   naive           10       10"), std::string::npos) << o.output;
}

TEST(CommandLine, PaperTableRowsFromRunsOfTheMachine) {
  const Outcome table = meshmp("paper 000-table1");
  ASSERT_EQ(table.status, 0) << table.output;
  EXPECT_NE(table.output.find("mesh:6x6      suh-mesh            6        6   1.000       108     108.0   1.000"),
            std::string::npos)
      << table.output;
  // 002's tables: steps against Corollary 4 and the bounds of §3 (A2 meets the cut bound on torus:4x4).
  const Outcome a2 = meshmp("paper 002-a2");
  ASSERT_EQ(a2.status, 0) << a2.output;
  const std::size_t row = a2.output.find("\ntorus:4x4 ");
  ASSERT_NE(row, std::string::npos) << a2.output;
  const std::string line = a2.output.substr(row + 1, a2.output.find('\n', row + 1) - row - 1);
  EXPECT_NE(line.find("dima-a2             8        8   1.000      32.0   0.250       8.0   1.000"), std::string::npos)
      << line;
  const Outcome unknown = meshmp("paper 002-table9");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.output.find("table = '002-table9': unknown table; known: 000-table1 001-theorem1 001-table3 001-table4 "
                                "002-a1 002-a2 003-paths 003-exchange 003-ports 003-gray"),
            std::string::npos)
      << unknown.output;
}

}  // namespace

namespace {

// The speedup plot keeps every series: a line per algorithm and topology family, a panel per t_s, m and
// link width (m = 8 and 64 at t_s = 0 overwrote each other; mesh:4x4 and torus:4x4 were one dot), and it
// says when two topologies share a position.
TEST(CommandLine, SweepPlotKeepsEverySeriesAndSaysWhatSharesAPosition) {
  const std::string csv = temp_path("series.csv"), png = temp_path("series.png");
  const Outcome sweep = meshmp("sweep --topologies torus:4x4,mesh:4x4,torus:2x8 --algorithms direct,bruck -m 8,64 "
                               "--startup-cycles 0 --csv " + csv + " --plot " + png + " --speedup-of direct");
  ASSERT_EQ(sweep.status, 0) << sweep.output;
  EXPECT_NE(sweep.output.find("plot: torus:4x4 and torus:2x8 share a position (16 nodes)"), std::string::npos)
      << sweep.output;
  EXPECT_TRUE(std::ifstream(png).good());
  std::remove(png.c_str());
  std::remove(csv.c_str());
}

TEST(CommandLine, SweepWritesOneRowPerPoint) {
  const std::string csv = temp_path("sweep.csv");
  const std::string png = temp_path("sweep.png");
  const Outcome sweep = meshmp("sweep --topologies ring:8,mesh:4x4 --algorithms tseng-ring,bruck -m 8,16 --csv " + csv +
                               " --plot " + png + " --speedup-of bruck");
  ASSERT_EQ(sweep.status, 0) << sweep.output;
  EXPECT_NE(sweep.output.find("[8/8, 0 failed, about 0 s left]"), std::string::npos) << sweep.output;
  EXPECT_NE(sweep.output.find(" m=16 t_s=100 flit=8: verified\n"), std::string::npos) << sweep.output;  // the verdict in words
  EXPECT_NE(sweep.output.find("plot: " + png), std::string::npos) << sweep.output;
  EXPECT_TRUE(std::ifstream(png).good());
  std::remove(png.c_str());
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("point,topology,algorithm,block_bytes,startup_cycles,flit_bytes,exit_status,verified,", 0), 0u);
  int verified = 0, unsupported = 0, rows = 0;
  while (std::getline(in, line)) {
    ++rows;
    if (line.find(",0,yes,") != std::string::npos) ++verified;
    if (line.find(",mesh:4x4,tseng-ring,") != std::string::npos && line.find(",2,unsupported,") != std::string::npos) ++unsupported;
  }
  EXPECT_EQ(rows, 8);
  EXPECT_EQ(verified, 6) << "tseng-ring and bruck on ring:8, bruck on mesh:4x4, at two block sizes";
  EXPECT_EQ(unsupported, 2);
  std::remove(csv.c_str());
  const Outcome misspelt = meshmp("sweep --topologies ring:8 --algorithms brook");
  EXPECT_EQ(misspelt.status, 2);
  EXPECT_NE(misspelt.output.find("algorithm = 'brook': unknown algorithm"), std::string::npos) << misspelt.output;
  const Outcome bad = meshmp("sweep --topologies ring:8 --algorithms bruck --startup-cycles 10,-1");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("--startup-cycles = '-1': expected a comma-separated list of whole numbers >= 0"),
            std::string::npos)
      << bad.output;
}

// 001 Fig. 10's form: the speedup against the block size, a panel per topology.
TEST(CommandLine, SweepPlotsAgainstTheBlockSize) {
  const std::string csv = temp_path("sweep-blocks.csv");
  const std::string png = temp_path("sweep-blocks.png");
  const Outcome sweep = meshmp("sweep --topologies ring:8 --algorithms tseng-ring,bruck -m 8,16,32 --startup-cycles 10,50"
                               " --csv " + csv + " --plot " + png + " --speedup-of bruck --plot-against block-bytes");
  ASSERT_EQ(sweep.status, 0) << sweep.output;
  EXPECT_NE(sweep.output.find("plot: " + png), std::string::npos) << sweep.output;
  EXPECT_TRUE(std::ifstream(png).good());
  std::remove(png.c_str());
  std::remove(csv.c_str());
  const Outcome bad = meshmp("sweep --topologies ring:8 --algorithms bruck --plot x.png --plot-against time");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("--plot-against"), std::string::npos) << bad.output;
}

// Energy against time (docs/energy.md): each point's energy in the CSV, and the Pareto front printed; the
// fastest run is always on it, and at 64-byte blocks on mesh:4x4 the direct exchange is that run.
TEST(CommandLine, SweepPlotsEnergyAgainstTimeWithTheParetoFront) {
  const std::string csv = temp_path("sweep-energy.csv");
  const std::string png = temp_path("sweep-energy.png");
  const Outcome sweep = meshmp("sweep --topologies mesh:4x4 --algorithms direct,bruck -m 64 --csv " + csv + " --plot " + png +
                               " --plot-against energy");
  ASSERT_EQ(sweep.status, 0) << sweep.output;
  EXPECT_NE(sweep.output.find("Pareto front"), std::string::npos) << sweep.output;
  EXPECT_NE(sweep.output.find("mesh:4x4         direct m=64 t_s=100"), std::string::npos) << sweep.output;
  EXPECT_TRUE(std::ifstream(png).good());
  std::ifstream rows(csv);
  std::string header, row;
  std::getline(rows, header);
  std::getline(rows, row);
  const std::size_t column = static_cast<std::size_t>(
      std::count(header.begin(), header.begin() + static_cast<long>(header.find("energy.joules.total")), ','));
  std::stringstream cells(row);
  std::string cell;
  for (std::size_t c = 0; c <= column; ++c) std::getline(cells, cell, ',');
  EXPECT_GT(std::stod(cell), 0) << row;
  std::remove(png.c_str());
  std::remove(csv.c_str());
}

}  // namespace
