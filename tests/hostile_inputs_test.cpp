// The classes of input a hostile tester found mishandled, one test per class, each run as a user would run
// meshmp and bounded by `timeout` so that a hang fails the test instead of stalling it:
//  - every input file is a regular file read within a bound (a directory crashed the reader; /dev/zero and
//    a FIFO read or blocked without end);
//  - a sweep's rows are checked against the grid (a negative or huge point number looped ~2^64 times in
//    merge; a CSV of another sweep was kept by --resume);
//  - an output is a file of its own: standard output only where offered (`traffic -o -` mixed the summary
//    into the JSON, `--detail-csv -` wrote a file named "-"), two outputs naming one file refused, and a
//    FIFO output waits for its reader without going deaf to Ctrl-C;
//  - one rule for every option: one that changes nothing in this run is refused, naming why;
//  - messages whole and clear: control bytes in a value written out (a NUL cut the message, an escape
//    sequence reached the terminal), `-c ''` refused (it ran the defaults), a 250-byte output name taken
//    (its temporary file's name was too long);
//  - exit codes: a refusal is 2 before any work (an algorithm the machine cannot run, a plot format
//    matplotlib cannot write), also when a table's child run refused; a failed write of a plot to a
//    special file is 1 (matplotlib reports none: /dev/full passed as written).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "meshmp_process.h"
#include "sims/child_run.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

using meshmp_test::contains;
using meshmp_test::meshmp_within;
using meshmp_test::Outcome;
using meshmp_test::run_command;

std::string scratch(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "meshmp_hostile_" + name + "_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// A two-point sweep's CSV (torus:4x4, direct, m = 8 and 16) in `dir`/s.csv.
std::string two_point_sweep(const std::string& dir) {
  const Outcome o = meshmp_within(120, "sweep -j 1 --topologies torus:4x4 --algorithms direct -m 8,16 --csv " + dir +
                                           "/s.csv");
  EXPECT_EQ(o.status, 0) << o.output;
  return dir + "/s.csv";
}

// `csv` with the point number of its row `row` (1 = the first after the header) replaced by `point`.
std::string with_point(const std::string& csv, int row, const std::string& point, const std::string& out) {
  std::ifstream in(csv);
  std::ofstream write(out);
  std::string line;
  for (int r = 0; std::getline(in, line); ++r) write << (r == row ? point + line.substr(line.find(',')) : line) << '\n';
  return out;
}

TEST(HostileInputs, EveryInputFileIsARegularFileReadWithinABound) {
  const std::string dir = scratch("inputs");
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string sweep = "sweep -j 1 --topologies torus:4x4 --algorithms direct -m 8 --resume --csv ";
  const std::string traffic = "traffic -t mesh:4x4 --rates 0.1 --csv " + dir + "/c.csv --compare-reference ";
  for (const std::string& args : {"merge --csv " + dir + "/m.csv " + dir, "merge --csv " + dir + "/m.csv /dev/zero",
                                  "merge --csv " + dir + "/m.csv " + fifo, sweep + "/dev/zero", sweep + fifo,
                                  traffic + "/dev/zero", traffic + fifo, traffic + dir, "run -o '' -c " + fifo}) {
    const Outcome o = meshmp_within(20, args);
    EXPECT_EQ(o.status, 2) << args << "\n" << o.output;
    EXPECT_TRUE(contains(o.output, "is a directory, not") || contains(o.output, "is not a regular file")) << o.output;
  }
  std::filesystem::remove_all(dir);
}

TEST(HostileInputs, MergeTakesWholePointNumbersAndCountsAHugeGapWithoutWalkingIt) {
  const std::string dir = scratch("points");
  const std::string csv = two_point_sweep(dir);
  for (const char* point : {"-1", "+1", " 1", "1e3", "0x1"}) {
    const Outcome o = meshmp_within(20, "merge --csv " + dir + "/m.csv " + with_point(csv, 2, point, dir + "/bad.csv"));
    EXPECT_EQ(o.status, 2) << point << ": " << o.output;
    EXPECT_TRUE(contains(o.output, "expected the whole number (0, 1, ...) of a point")) << o.output;
  }
  const Outcome huge =
      meshmp_within(20, "merge --csv " + dir + "/m.csv " + with_point(csv, 2, "18446744073709551615", dir + "/huge.csv"));
  EXPECT_EQ(huge.status, 2) << huge.output;
  EXPECT_TRUE(contains(huge.output, "18446744073709551614 point(s) below the last are in none of the files (1, 2, 3, 4, "
                                    "5, 6, 7, 8, 9, 10, ...)"))
      << huge.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/m.csv"));
  std::filesystem::remove_all(dir);
}

TEST(HostileInputs, RowsFromAnotherSweepAreRefusedByMergeAndResume) {
  const std::string dir = scratch("identity");
  const std::string csv = two_point_sweep(dir);
  // The same point (m = 16) numbered 1 in one shard and 5 in another: shards of different sweeps.
  std::ifstream rows(csv);
  std::string header, first, second;
  std::getline(rows, header), std::getline(rows, first), std::getline(rows, second);
  const std::string renumbered = dir + "/other.csv";
  std::ofstream(renumbered) << header << '\n' << "5" << second.substr(second.find(',')) << '\n';
  const Outcome merged = meshmp_within(20, "merge --csv " + dir + "/m.csv " + csv + " " + renumbered);
  EXPECT_EQ(merged.status, 2) << merged.output;
  EXPECT_TRUE(contains(merged.output, "point 1 is point 5 in") || contains(merged.output, "point 5 is point 1 in"))
      << merged.output;
  EXPECT_TRUE(contains(merged.output, "shards of different sweeps")) << merged.output;
  // A sweep of m = 32 resumed from the CSV of m = 8, 16: its rows are another sweep's.
  const Outcome resumed =
      meshmp_within(60, "sweep -j 1 --topologies torus:4x4 --algorithms direct -m 32 --resume --csv " + csv);
  EXPECT_EQ(resumed.status, 2) << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "row 2 (topology torus:4x4, algorithm direct, m 8,")) << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "is not a point of this sweep")) << resumed.output;
  std::filesystem::remove_all(dir);
}

TEST(HostileInputs, StandardOutputOnlyWhereOfferedAndEveryOutputAFileOfItsOwn) {
  const std::string dir = scratch("outputs");
  // traffic -o -: the JSON alone on standard output, the summary on standard error.
  const Outcome json = run_command("(cd " + dir + " && timeout -s KILL 60 " + MESHMP_BINARY +
                                   " traffic -t mesh:4x4 --measure-cycles 2000 -o - > stdout.json)");
  ASSERT_EQ(json.status, 0) << json.output;
  EXPECT_TRUE(contains(json.output, "meshmp traffic: mesh:4x4")) << "the summary on standard error: " << json.output;
  std::ifstream stdout_json(dir + "/stdout.json");
  EXPECT_NO_THROW(nlohmann::json::parse(stdout_json)) << "standard output holds the JSON alone";
  EXPECT_FALSE(std::filesystem::exists(dir + "/-")) << "no file named -";
  for (const std::string& args : {std::string("run -t mesh:4x4 -o '' --detail-csv -"), std::string(
                                  "traffic -t mesh:4x4 --rates 0.1 --csv -")}) {
    const Outcome o = meshmp_within(20, args);
    EXPECT_EQ(o.status, 2) << args << "\n" << o.output;
    EXPECT_TRUE(contains(o.output, "= '-': standard output is not offered for this output")) << o.output;
  }
  const Outcome one_file =
      meshmp_within(20, "fidelity -t mesh:4x4 -a direct --patterns none --json " + dir + "/f --markdown " + dir + "/f");
  EXPECT_EQ(one_file.status, 2) << one_file.output;
  EXPECT_TRUE(contains(one_file.output, "every output needs its own file")) << one_file.output;
  // The table beside a plot is the PNG itself through a link: refused before any run.
  std::filesystem::create_symlink(dir + "/p.png", dir + "/p.csv");
  const Outcome linked = meshmp_within(20, "paper 004-ring --plot " + dir + "/p.png");
  EXPECT_EQ(linked.status, 2) << linked.output;
  EXPECT_TRUE(contains(linked.output, "every output needs its own file")) << linked.output;
  std::filesystem::remove_all(dir);
}

TEST(HostileInputs, AFifoOutputWaitsForItsReaderAndStillStopsOnCtrlC) {
  const std::string dir = scratch("fifo");
  const std::string fifo = dir + "/stats.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // Nobody reads: SIGINT after a second ends it with 130.
  const Outcome unread = run_command("timeout --preserve-status -s INT 1 " + std::string(MESHMP_BINARY) +
                                     " run -t ring:4 -m 8 -o " + fifo + "; echo \"exit $?\"");
  EXPECT_TRUE(contains(unread.output, "exit 130")) << unread.output;
  // A reader: the statistics arrive whole.
  const Outcome read = run_command("cd " + dir + " && (cat stats.fifo > got.json &) && timeout -s KILL 60 " +
                                   MESHMP_BINARY + " run -t ring:4 -m 8 -q -o stats.fifo; sleep 0.2");
  EXPECT_EQ(read.status, 0) << read.output;
  std::ifstream got(dir + "/got.json");
  EXPECT_NO_THROW(nlohmann::json::parse(got)) << "the FIFO's reader got the statistics";
  std::filesystem::remove_all(dir);
}

// One rule for every option: a setting that changes nothing in this run is refused, naming why.
TEST(HostileInputs, AnOptionThatChangesNothingIsRefusedNamingWhy) {
  struct Case {
    std::string args, error;
  };
  for (const Case& c : std::vector<Case>{
           {"run -t bus:8 --vcs 2", "router.vcs = '2': bus:8 has no router network"},
           {"run -t omega:8 --switching store-and-forward", "router.switching = 'store-and-forward': omega:8 has no router"},
           {"run -t torus:4x4 --fabric-startup-cycles 5", "fabric.startup_cycles = '5': torus:4x4 is a router network"},
           {"run -t torus:4x4 --memory-banks 4", "fabric.memory_banks = '4': torus:4x4 is a router network"},
           {"run -t torus:4x4 --fidelity tlm --vc-allocator islip", "router.vc_allocator = 'islip': network.fidelity tlm"},
           {"run -t torus:4x4 --fidelity tlm --credit-latency 3", "router.credit_latency_cycles = '3': network.fidelity tlm"},
           {"run -t torus:4x4 --no-dateline --dateline-classes whole-segment",
            "router.dateline_classes = 'whole-segment': chooses the dateline class on a ring; with router.dateline off"},
           {"run -t mesh:4x4 --dateline-classes whole-segment",
            "router.dateline_classes = 'whole-segment': chooses the dateline class on a ring; mesh:4x4 has none"},
           {"traffic -t torus:4x4 --router-rules booksim2 --vc-allocator per-port",
            "--vc-allocator = 'per-port': is set by --router-rules booksim2; give one of the two"},
           {"run -t bus:8 --router-rules booksim2", "--router-rules = 'booksim2': bus:8 has no router network"},
           {"run -t mesh:4x4 --router-rules bookim2", "--router-rules = 'bookim2': must be meshmp"},
           {"run -t mesh:4x4 --trace-nodes 3,5", "output.trace_nodes = '3,5': names the nodes a waveform shows"},
           {"run -t mesh:4x4 --print-config --trace-nodes 3", "output.trace_nodes = '3'"},
           {"traffic -t bus:8", "topology = 'bus:8': is joined by a fabric, not a router network"},
           {"sweep --topologies torus:4x4 --algorithms direct --csv /nonexistent/s.csv --plot-against bound",
            "--plot-against = 'bound': chooses what --plot draws; no --plot is given"},
           {"sweep --topologies torus:4x4 --algorithms direct --csv /nonexistent/s.csv --plot /nonexistent/p.png",
            "--speedup-of = 'tseng-t4': the plot divides by it: it must be one of --algorithms (direct)"},
           {"sweep --topologies torus:4x4,torus:4x4 --algorithms direct --csv /nonexistent/s.csv",
            "lists torus:4x4 twice; give each once"},
           {"sweep --topologies torus:4x4 --algorithms direct -m 8,08 --csv /nonexistent/s.csv", "lists 8 twice"},
           {"fidelity -t mesh:4x4 -a nosuch --patterns none", "nosuch"},
           {"fidelity -t mesh:4x4 -a direct,direct --patterns none", "'direct': is listed twice"},
       }) {
    const Outcome o = meshmp_within(20, c.args);
    EXPECT_EQ(o.status, 2) << c.args << "\n" << o.output;
    EXPECT_TRUE(contains(o.output, c.error)) << c.args << "\n" << o.output;
  }
  // Under --cost-model 004 a fabric's b is the link width: --flit-bytes is not inert there.
  const Outcome b = meshmp_within(20, "run -t bus:4 --cost-model 004 --flit-bytes 4 --print-config");
  EXPECT_EQ(b.status, 0) << b.output;
}

TEST(HostileInputs, ARefusalIsExitTwoBeforeAnyWorkAndAFailedPlotWriteIsAnError) {
  const Outcome direct = meshmp_within(20, "run -t shared-memory:4 -a direct -o ''");
  EXPECT_EQ(direct.status, 2) << direct.output;
  EXPECT_TRUE(contains(direct.output, "algorithm = 'direct': it sends messages between nodes; the shared-memory machine, "
                                      "shared-memory:4, has none"))
      << direct.output;
  const std::string dir = scratch("plots");
  const std::string traffic = "traffic -t mesh:4x4 --rates 0.1 --measure-cycles 1000 --csv " + dir + "/c.csv --png ";
  for (const std::string& png : {dir + "/p.xyz", dir + "/p"}) {
    const Outcome o = meshmp_within(60, traffic + png);
    EXPECT_EQ(o.status, 2) << o.output;
    EXPECT_TRUE(contains(o.output, "the plot's format is chosen by its extension")) << o.output;
    EXPECT_FALSE(contains(o.output, "[1/1]")) << "refused before the first point: " << o.output;
  }
  const Outcome full = meshmp_within(60, traffic + "/dev/full");
  EXPECT_EQ(full.status, 1) << full.output;
  EXPECT_TRUE(contains(full.output, "--png = '/dev/full': writing the file failed: No space left on device")) << full.output;
  std::filesystem::remove_all(dir);
  // A table whose child run was refused ends as refused; any other failure is 1.
  EXPECT_EQ(status_after_failed_child(0, 2), 2);
  EXPECT_EQ(status_after_failed_child(0, 1), 1);
  EXPECT_EQ(status_after_failed_child(2, 1), 2);
  EXPECT_EQ(status_after_failed_child(1, 134), 1);
}

TEST(HostileInputs, MessagesAreWholeAndAnOutputNameMayBeAsLongAsTheFileSystemTakes) {
  EXPECT_EQ(echo(std::string("ring:4\0x\x1b[31m\n", 14)), "ring:4\\x00x\\x1b[31m\\n");
  EXPECT_EQ(std::string(ConfigError("topology", std::string("a\0b", 3), "rule").what()), "topology = 'a\\x00b': rule");
  const std::string dir = scratch("names");
  std::ofstream(dir + "/control.json") << "{\"topology\": \"ring:4\\u0000x\\u001b[31m\"}";
  const Outcome control = meshmp_within(20, "run -o '' -c " + dir + "/control.json");
  EXPECT_EQ(control.status, 2) << control.output;
  EXPECT_TRUE(contains(control.output, "topology = 'ring:4\\x00x\\x1b[31m': ")) << control.output;
  EXPECT_FALSE(contains(control.output, "\x1b")) << "no escape sequence reaches the terminal";
  for (const char* command : {"run -o '' -c ''", "traffic -c ''"}) {
    const Outcome o = meshmp_within(20, command);
    EXPECT_EQ(o.status, 2) << command << "\n" << o.output;
    EXPECT_TRUE(contains(o.output, "--config = '': names no file")) << o.output;
  }
  const std::string long_name = dir + "/" + std::string(245, 'a') + ".json";  // 250 bytes
  const Outcome written = meshmp_within(60, "run -q -t ring:4 -m 8 -o " + long_name);
  EXPECT_EQ(written.status, 0) << written.output;
  EXPECT_TRUE(std::filesystem::exists(long_name));
  std::filesystem::remove_all(dir);
}

// --print-config printed configurations the run then refused; a rate past 1 was shown rounded to 1.000000;
// SIGQUIT / SIGUSR1 / SIGUSR2 / SIGALRM ended the program at once, leaving its temporary files.
TEST(HostileInputs, WhatIsPrintedIsWhatRunsAndEverySignalThatWouldEndItStopsItCleanly) {
  for (const char* args : {"-t shared-memory:4 -a direct", "-t ring:5 -a tseng-t1"}) {
    const Outcome o = meshmp_within(20, std::string("run --print-config ") + args);
    EXPECT_EQ(o.status, 2) << args << "\n" << o.output;
    EXPECT_FALSE(contains(o.output, "\"topology\"")) << "no configuration printed: " << o.output;
  }
  const Outcome rate = meshmp_within(20, "traffic -t mesh:4x4 --rate 1.0000001");
  EXPECT_EQ(rate.status, 2) << rate.output;
  EXPECT_TRUE(contains(rate.output, "traffic.rate = '1.0000001': must be in (0, 1]")) << rate.output;
  // The run is one no host finishes in the second before the signal (torus:16x16 took about one second
  // and sometimes ended first); -k bounds a run deaf to the signal, so that it fails instead of hanging.
  const std::string dir = scratch("signals");
  for (const char* signal : {"QUIT", "USR1", "ALRM"}) {
    const Outcome o = run_command("(timeout -k 30 --preserve-status -s " + std::string(signal) + " 1 " +
                                  MESHMP_BINARY + " run -t torus:32x32 -m 64 -o " + dir +
                                  "/stats.json 2>&1; echo \"exit $?\")");
    EXPECT_TRUE(contains(o.output, "meshmp: stopped by SIG" + std::string(signal))) << o.output;
    EXPECT_FALSE(contains(o.output, "exit 0")) << o.output;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      ADD_FAILURE() << signal << " left " << entry.path();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace meshmp
