// Every file meshmp writes appears whole or not at all, a failed write is an error, and output paths are
// checked before any work: the statistics JSON, the CSVs, the VCD (through its checked relay), the traffic
// and sweep outputs, the plots and the standard output.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "meshmp_process.h"
#include "sims/fst_output.h"

namespace {

using meshmp_test::meshmp;
using meshmp_test::Outcome;
using meshmp_test::run_command;

// A fresh directory of its own for each test.
std::string fresh_directory(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "meshmp_outputs_" + name + "_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The files a writer left beside its targets: none may remain.
std::vector<std::string> leftovers(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".meshmp-") != std::string::npos) names.push_back(name);
  }
  return names;
}

TEST(OutputFiles, ARefusedRunLeavesThePreviousStatisticsAsTheyWere) {
  const std::string dir = fresh_directory("refused");
  const std::string old_json = dir + "/old.json";
  std::ofstream(old_json) << "{\"previous\": true}\n";
  const Outcome o = meshmp("run --topology mesh:2 -o " + old_json + " --vcd /nonexistent/w.vcd");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("output.vcd = '/nonexistent/w.vcd': the file cannot be written: No such file or directory"),
            std::string::npos)
      << o.output;
  EXPECT_EQ(read_file(old_json), "{\"previous\": true}\n");
  EXPECT_TRUE(leftovers(dir).empty());
}

// A meshmp killed while writing (SIGKILL: no handler runs) leaves its temporary beside the target; the
// next meshmp to write that target removes it. A living writer's temporary, and a file only resembling
// one, stay.
TEST(OutputFiles, AKilledWritersTemporaryIsRemovedByTheNextWriter) {
  const std::string dir = fresh_directory("stale");
  const Outcome exited = meshmp_test::run_command("sh -c 'echo $$'");  // a process id that has ended
  const std::string dead = std::to_string(std::stol(exited.output));
  const std::string stale = dir + "/.out.json.meshmp-" + dead + "-Ab12Cd.json";
  const std::string living = dir + "/.out.json.meshmp-" + std::to_string(getpid()) + "-Ab12Cd.json";
  const std::string lookalike = dir + "/.out.json.meshmp-" + dead + "-Ab12Cd.json.keep";
  for (const std::string& path : {stale, living, lookalike}) std::ofstream(path) << "cut";
  const Outcome o = meshmp("run --topology mesh:2 -o " + dir + "/out.json");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_TRUE(std::filesystem::exists(living));
  EXPECT_TRUE(std::filesystem::exists(lookalike));
  EXPECT_TRUE(std::filesystem::is_regular_file(dir + "/out.json"));
  std::filesystem::remove_all(dir);
}

// A temporary file meshmp writes for itself (--fidelity both's config for its transaction-level child)
// that cannot be written (a full $TMPDIR; here a file size limit) is said as such, not found later as a
// broken config file the user never gave.
TEST(OutputFiles, ATemporaryThatCannotBeWrittenIsBlamedOnTmpdir) {
  const Outcome o = run_command("(ulimit -f 0; " + std::string(MESHMP_BINARY) + " run -t torus:4x4 --fidelity both -o '')");
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("network.fidelity both: the temporary config file of the transaction-level run could not be "
                          "written in "),
            std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("($TMPDIR): File too large"), std::string::npos) << o.output;
  EXPECT_EQ(o.output.find("--config"), std::string::npos) << o.output;
}

TEST(OutputFiles, TwoOutputsNamingOneFileAreRefusedHoweverSpelt) {
  const std::string dir = fresh_directory("same");
  std::filesystem::create_directories(dir + "/sub");
  std::filesystem::create_symlink(dir + "/x.json", dir + "/link.csv");
  for (const std::string& other : {dir + "/./x.json", dir + "/sub/../x.json", dir + "/link.csv"}) {
    const Outcome o = meshmp("run --topology mesh:2 -o " + dir + "/x.json --detail-csv " + other);
    EXPECT_EQ(o.status, 2) << other << ": " << o.output;
    EXPECT_NE(o.output.find("output.detail_csv = '" + other + "': is the file output.stats_json"), std::string::npos)
        << o.output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.json"));
}

TEST(OutputFiles, ASymbolicLinkIsFollowedAndStays) {
  const std::string dir = fresh_directory("link");
  std::ofstream(dir + "/target.json") << "old\n";
  std::filesystem::create_symlink(dir + "/target.json", dir + "/link.json");
  const Outcome o = meshmp("run --topology mesh:2 -o " + dir + "/link.json");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(std::filesystem::is_symlink(dir + "/link.json"));
  EXPECT_TRUE(nlohmann::json::parse(read_file(dir + "/target.json")).contains("statistics"));
}

TEST(OutputFiles, AFailedWriteIsAnErrorWithTheSystemsReason) {
  for (const char* option : {"-o /dev/full", "-o '' --detail-csv /dev/full", "-o '' --messages-csv /dev/full"}) {
    const Outcome o = meshmp(std::string("run --topology mesh:2 ") + option);
    EXPECT_EQ(o.status, 1) << option << ": " << o.output;
    EXPECT_NE(o.output.find("'/dev/full': writing the file failed: No space left on device"), std::string::npos)
        << o.output;
  }
  Outcome o = meshmp("traffic --topology mesh:2x2 --warmup-cycles 10 --measure-cycles 100 -o /dev/full");
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("No space left on device"), std::string::npos) << o.output;
  o = meshmp("sweep --topologies ring:4 --algorithms direct --csv /dev/full");
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("--csv = '/dev/full': writing the file failed: No space left on device"), std::string::npos)
      << o.output;
  // The standard output: its failure is reported on the standard error.
  o = run_command("(" + std::string(MESHMP_BINARY) + " run --topology mesh:2 -o '' > /dev/full)");
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("writing the standard output failed: No space left on device"), std::string::npos) << o.output;
}

TEST(OutputFiles, AWaveformCutByAFileSizeLimitIsAnErrorAndNotLeftBehind) {
  const std::string dir = fresh_directory("vcd");
  // At most 16 blocks per file (8 or 16 KiB, as the shell counts them): the waveform of two traced nodes
  // over the exchange is larger (the next test).
  const Outcome o = run_command("(ulimit -f 16; " + std::string(MESHMP_BINARY) + " run --topology torus:4x4 -o '' " +
                                "--detail-csv " + dir + "/d.csv --vcd " + dir + "/w.vcd --trace-nodes 0,5)");
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("output.vcd = '" + dir + "/w.vcd': writing the file failed: File too large"), std::string::npos)
      << o.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/w.vcd"));
  EXPECT_EQ(read_file(dir + "/d.csv").rfind("node,step,", 0), 0u) << "the other outputs are kept";
  EXPECT_TRUE(leftovers(dir).empty());
}

// The RTL waveform's writer maps its buffers: past a file-size limit (or on a full disk) a store into a
// page that cannot grow raises SIGBUS. It was a crash (status 135) that left the FST's temporary file and
// its .hier side file behind; now it is an error naming the output, with every temporary file removed.
TEST(OutputFiles, AnRtlWaveformCutByAFileSizeLimitIsAnErrorAndNotLeftBehind) {
  const std::string dir = fresh_directory("fst");
  const Outcome o = run_command("(ulimit -f 16; " + std::string(MESHMP_BINARY) + " run --topology torus:4x4 " +
                                "--router rtl -o " + dir + "/s.json --detail-csv " + dir + "/d.csv --trace-rtl " + dir +
                                "/w.fst --trace-nodes 0,5)");
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("output.trace_rtl = '" + dir + "/w.fst': writing the file failed"), std::string::npos)
      << o.output;
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << "no output and no temporary file: " << o.output;
}

// The FST file is read back block by block before it is put in place: a file cut anywhere is found.
TEST(OutputFiles, TheFstCheckFindsAFileCutAnywhere) {
  const std::string dir = fresh_directory("fst_cut");
  const Outcome o = meshmp("run --topology torus:4x4 --router rtl -o '' --trace-rtl " + dir + "/w.fst --trace-nodes 0");
  ASSERT_EQ(o.status, 0) << o.output;
  const std::string whole = read_file(dir + "/w.fst");
  ASSERT_GT(whole.size(), 1000u);
  EXPECT_EQ(meshmp::fst_file_problem(dir + "/w.fst"), std::nullopt);
  for (const std::size_t cut : {std::size_t{0}, std::size_t{5}, std::size_t{330}, std::size_t{400}, whole.size() / 2,
                                whole.size() - 1}) {
    std::ofstream(dir + "/cut.fst", std::ios::binary | std::ios::trunc) << whole.substr(0, cut);
    EXPECT_NE(meshmp::fst_file_problem(dir + "/cut.fst"), std::nullopt) << "cut at byte " << cut;
  }
  EXPECT_EQ(meshmp::fst_file_problem(dir + "/none.fst").value_or(""), "the FST file cannot be read back");
}

TEST(OutputFiles, AWaveformWrittenWholeEndsAtTheRunsLastCycle) {
  const std::string dir = fresh_directory("vcd_whole");
  const Outcome o = meshmp("run --topology torus:4x4 -o '' --vcd " + dir + "/w.vcd --trace-nodes 0,5");
  ASSERT_EQ(o.status, 0) << o.output;
  std::string vcd = read_file(dir + "/w.vcd");
  EXPECT_NE(vcd.find("$enddefinitions"), std::string::npos);
  while (!vcd.empty() && vcd.back() == '\n') vcd.pop_back();
  EXPECT_EQ(vcd[vcd.rfind('\n') + 1], '#') << "the last line is the closing time stamp";
  EXPECT_GT(vcd.size(), 16u * 1024) << "the size the file-size test relies on";
  EXPECT_TRUE(leftovers(dir).empty());
}

TEST(OutputFiles, OutputPathsAreCheckedBeforeAnyWork) {
  Outcome o = meshmp("traffic --rate 0.1 -o /nonexistent/t.json");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("--stats-json = '/nonexistent/t.json': the file cannot be written"), std::string::npos)
      << o.output;
  o = meshmp("bench -o /nonexistent/b.json");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_EQ(o.output.find("kernel floor"), std::string::npos) << "no benchmark may run: " << o.output;
  o = meshmp("paper 003-paths --plot /nonexistent/p.png");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_EQ(o.output.find("jh-spt"), std::string::npos) << "no row may run: " << o.output;
  o = meshmp("sweep --topologies ring:4 --algorithms direct --csv /nonexistent/s.csv");
  EXPECT_EQ(o.status, 2) << o.output;
  o = meshmp("sweep --topologies ring:4 --algorithms direct --plot /nonexistent/p.png --csv /dev/null");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_EQ(o.output.find("[1/1,"), std::string::npos) << "no point may run: " << o.output;
  o = meshmp("paper 001-theorem1 --plot p.png");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("only the tables 003-paths and 004-* draw a plot"), std::string::npos) << o.output;
}

TEST(OutputFiles, RunsWritingOneFileAtOnceLeaveOneWholeFile) {
  const std::string dir = fresh_directory("concurrent");
  const std::string json = dir + "/meshmp-stats.json";
  const std::string run = std::string(MESHMP_BINARY) + " run --topology torus:4x4 -o " + json;
  for (int trial = 0; trial < 3; ++trial) {
    const Outcome o = run_command("(" + run + " -m 8 > /dev/null & " + run + " -m 64 > /dev/null & wait)");
    ASSERT_EQ(o.status, 0) << o.output;
    const nlohmann::json doc = nlohmann::json::parse(read_file(json));  // throws on a mix of the two
    const auto block = doc["config"]["block_bytes"].get<int>();
    EXPECT_TRUE(block == 8 || block == 64) << block;
  }
  EXPECT_TRUE(leftovers(dir).empty());
}

TEST(OutputFiles, ANewFileGetsTheUsualPermissionsAndAnOldOneKeepsItsOwn) {
  const std::string dir = fresh_directory("modes");
  Outcome o = run_command("(umask 022; " + std::string(MESHMP_BINARY) + " run --topology mesh:2 -o " + dir + "/new.json)");
  ASSERT_EQ(o.status, 0) << o.output;
  struct stat status {};
  ASSERT_EQ(stat((dir + "/new.json").c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0644u);
  std::ofstream(dir + "/old.json") << "{}";
  chmod((dir + "/old.json").c_str(), 0600);
  o = meshmp("run --topology mesh:2 -o " + dir + "/old.json");
  ASSERT_EQ(o.status, 0) << o.output;
  ASSERT_EQ(stat((dir + "/old.json").c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0600u);
}

}  // namespace
