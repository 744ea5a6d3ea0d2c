// Fault injection: runs, sweeps, traffic sweeps and paper tables are interrupted at random points by
// SIGINT to their process group (a terminal's Ctrl-C) or SIGTERM to the command alone. Each must stop with
// 128 + the signal (or have finished before it), leave every output present whole and valid, no temporary
// file in its directory or in TMPDIR, and no child process behind.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "meshmp_process.h"
#include "sweep_rows.h"

namespace {

struct Interrupted {
  int status = -1;      // exit status, -1 when killed
  int killed_by = 0;    // the signal that killed it: only one that came before its handlers were installed
  std::string out, err;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Starts `meshmp ARGS` in a process group of its own (TMPDIR = dir/tmp), sends `signal_number` after
// `delay` to the group (`to_group`, as a terminal's Ctrl-C does) or to the command alone, and waits.
// Runs meshmp ARGS in DIR and sends it `signal_number` after `delay`, or, with `ready`, once ready() holds
// (polled; at most two minutes).
Interrupted interrupt(const std::vector<std::string>& args, const std::string& dir, int signal_number, bool to_group,
                      std::chrono::milliseconds delay, const std::function<bool()>& ready = {}) {
  std::filesystem::create_directories(dir + "/tmp");
  const std::string out = dir + "/stdout", err = dir + "/stderr";
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(e, 2);
    if (chdir(dir.c_str()) != 0) _exit(127);
    setenv("TMPDIR", (dir + "/tmp").c_str(), 1);
    std::vector<char*> argv{const_cast<char*>(MESHMP_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(MESHMP_BINARY, argv.data());
    _exit(127);
  }
  setpgid(pid, pid);
  std::this_thread::sleep_for(delay);
  if (ready)
    for (int i = 0; i < 2400 && !ready(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  kill(to_group ? -pid : pid, signal_number);
  int status = 0;
  waitpid(pid, &status, 0);
  // Nothing of the command's group may outlive it (a child left running would keep writing).
  for (int i = 0; i < 50 && kill(-pid, 0) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_NE(kill(-pid, 0), 0) << "a child process outlived the command";
  if (kill(-pid, 0) == 0) kill(-pid, SIGKILL);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, WIFSIGNALED(status) ? WTERMSIG(status) : 0, read_file(out),
          read_file(err)};
}

// No temporary file in the command's directory or in its TMPDIR.
void expect_nothing_left(const std::string& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string().find(".meshmp-"), std::string::npos) << entry.path();
  EXPECT_TRUE(std::filesystem::is_empty(dir + "/tmp")) << "TMPDIR holds " << std::filesystem::directory_iterator(dir + "/tmp")->path();
}

// Stopped by the signal (or, when it came while the program was still starting, before its handlers
// were installed, killed by it), or finished before it came.
void expect_stopped_or_finished(const Interrupted& r, int signal_number) {
  EXPECT_TRUE(r.status == 128 + signal_number || r.status == 0 || r.killed_by == signal_number)
      << "exit " << r.status << ", signal " << r.killed_by << "\n" << r.out << r.err;
}

class Interrupt : public ::testing::Test {
 protected:
  std::string dir(const std::string& name) {
    const std::string d = ::testing::TempDir() + "meshmp_interrupt_" + name + "_" + std::to_string(getpid());
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
  }
  std::mt19937 random_{21};
  std::chrono::milliseconds random_delay(int from, int to) {
    return std::chrono::milliseconds(std::uniform_int_distribution<int>(from, to)(random_));
  }
};

TEST_F(Interrupt, ARunStopsAtOnceSaysWhereAndKeepsThePreviousFiles) {
  for (int trial = 0; trial < 4; ++trial) {
    const int signal_number = trial % 2 ? SIGTERM : SIGINT;
    const std::string d = dir("run" + std::to_string(trial));
    std::ofstream(d + "/stats.json") << "{\"previous\": 1}\n";
    const auto start = std::chrono::steady_clock::now();
    const Interrupted r = interrupt({"run", "--topology", "torus:16x16", "-m", "64", "-o", "stats.json", "--detail-csv",
                                     "d.csv", "--messages-csv", "m.csv"},
                                    d, signal_number, trial % 2 == 0, random_delay(300, 1200));
    expect_stopped_or_finished(r, signal_number);
    if (r.status != 0) {
      EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10)) << "it stops at once";
      if (r.killed_by == 0) {
        EXPECT_NE(r.err.find(std::string("stopped by ") + (signal_number == SIGINT ? "SIGINT" : "SIGTERM") +
                             " at simulated cycle "),
                  std::string::npos)
            << r.err;
      }
      EXPECT_EQ(read_file(d + "/stats.json"), "{\"previous\": 1}\n");
      EXPECT_FALSE(std::filesystem::exists(d + "/d.csv"));
      EXPECT_FALSE(std::filesystem::exists(d + "/m.csv"));
    } else {
      EXPECT_TRUE(nlohmann::json::parse(read_file(d + "/stats.json")).contains("statistics"));
    }
    expect_nothing_left(d);
  }
}

// 004's bus, shared memory and switch have no clock to check the stop request: the processors do, at
// each transfer (a 1,024-node shared-memory multiscatter ran its seconds to the end under SIGTERM).
TEST_F(Interrupt, AFabricRunStopsAtOnce) {
  for (const int signal_number : {SIGINT, SIGTERM}) {
    const std::string d = dir(std::string("fabric") + (signal_number == SIGINT ? "int" : "term"));
    const Interrupted r = interrupt({"run", "--topology", "shared-memory:1024", "-a", "saad-multiscatter", "-m", "8",
                                     "--algorithm-option", "method=block-by-block", "--startup-cycles", "0", "-o",
                                     "stats.json"},
                                    d, signal_number, false, std::chrono::milliseconds(1500));
    EXPECT_EQ(r.status, 128 + signal_number) << r.out << r.err;
    // The whole run is 106,953,750 cycles (about 8 s here): stopped at once, it ends far before.
    const auto at = r.err.find(" at simulated cycle ");
    ASSERT_NE(at, std::string::npos) << r.err;
    EXPECT_LT(std::stoull(r.err.substr(at + 20)), 100000000u) << r.err;
    EXPECT_FALSE(std::filesystem::exists(d + "/stats.json"));
    expect_nothing_left(d);
  }
}

// A sweep killed outright (SIGKILL: no handler runs) keeps every row that finished before: the CSV is
// rewritten whole as each point finishes. --resume then runs only the missing points, and the CSV is the
// uninterrupted sweep's, row for row (host time aside).
TEST_F(Interrupt, AKilledSweepKeepsItsFinishedRowsAndResumes) {
  const std::string d = dir("killed_sweep");
  const std::vector<std::string> sweep{"sweep", "--topologies", "torus:8x8", "--algorithms", "direct", "-m", "256",
                                       "--startup-cycles", "0,1,2,3,4,5", "-j", "1", "--csv", "s.csv"};
  // Killed once two rows are in (whatever the build's speed: a point takes 0.3 s here, 3.5 s under the
  // sanitizers).
  const Interrupted r = interrupt(sweep, d, SIGKILL, true, std::chrono::milliseconds(0), [&d] {
    std::ifstream csv(d + "/s.csv");
    int lines = 0;
    for (std::string line; std::getline(csv, line);) ++lines;
    return lines >= 3;
  });
  EXPECT_EQ(r.killed_by, SIGKILL);
  std::vector<std::string> kept;
  {
    std::ifstream csv(d + "/s.csv");
    for (std::string line; std::getline(csv, line);) kept.push_back(line);
  }
  ASSERT_GE(kept.size(), 2u) << "the header and at least one finished row";
  ASSERT_LT(kept.size(), 7u) << "the sweep was killed before its end";
  EXPECT_EQ(kept.front().rfind("point,topology,algorithm,", 0), 0u);
  for (std::size_t i = 1; i < kept.size(); ++i) EXPECT_NE(kept[i].find(",yes,"), std::string::npos) << kept[i];

  std::string args;
  for (const std::string& a : sweep) args += " " + a;
  const auto resumed = meshmp_test::run_command("cd " + d + " && " + MESHMP_BINARY + args + " --resume");
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("--resume: " + std::to_string(kept.size() - 1) + " of 6 points already in s.csv"),
            std::string::npos)
      << resumed.output;
  std::string whole_args = args;
  whole_args.replace(whole_args.find("--csv s.csv"), 11, "--csv whole.csv");
  const auto fresh = meshmp_test::run_command("cd " + d + " && " + MESHMP_BINARY + whole_args);
  ASSERT_EQ(fresh.status, 0) << fresh.output;
  EXPECT_EQ(meshmp_test::rows_without_host_time(d + "/s.csv"), meshmp_test::rows_without_host_time(d + "/whole.csv"));
}

TEST_F(Interrupt, ASweepStopsItsChildrenAndKeepsEveryFinishedRow) {
  for (int trial = 0; trial < 4; ++trial) {
    const int signal_number = trial % 2 ? SIGTERM : SIGINT;
    const std::string d = dir("sweep" + std::to_string(trial));
    const Interrupted r = interrupt({"sweep", "--topologies", "torus:8x8,torus:12x12", "--algorithms", "direct,pairwise",
                                     "-m", "8,64", "-j", "2", "--csv", "s.csv"},
                                    d, signal_number, trial % 2 == 0, random_delay(300, 1500));
    expect_stopped_or_finished(r, signal_number);
    if (r.killed_by != 0) continue;  // it had not started
    ASSERT_TRUE(std::filesystem::exists(d + "/s.csv")) << r.err;
    std::istringstream csv(read_file(d + "/s.csv"));
    std::string line;
    std::getline(csv, line);
    EXPECT_EQ(line.rfind("point,topology,algorithm,", 0), 0u);
    int rows = 0;
    for (; std::getline(csv, line); ++rows) {
      EXPECT_EQ(std::count(line.begin(), line.end(), ','), 25) << line;
      EXPECT_NE(line.find(",yes,"), std::string::npos) << "a row of a point cut short: " << line;
    }
    if (r.status == 0) {
      EXPECT_EQ(rows, 8);
    } else {
      EXPECT_NE(r.err.find("points finished"), std::string::npos) << r.err;
    }
    expect_nothing_left(d);
  }
}

TEST_F(Interrupt, ATrafficSweepAndAPaperTableKeepWhatFinished) {
  for (int trial = 0; trial < 2; ++trial) {
    const int signal_number = trial % 2 ? SIGTERM : SIGINT;
    const std::string d = dir("traffic" + std::to_string(trial));
    const Interrupted r = interrupt({"traffic", "--topology", "mesh:8x8", "--rates", "0.05:0.4:0.05", "--warmup-cycles",
                                     "1000", "--measure-cycles", "20000", "--csv", "t.csv", "--png", "t.png"},
                                    d, signal_number, trial % 2 == 0, random_delay(200, 1200));
    expect_stopped_or_finished(r, signal_number);
    if (r.killed_by != 0) continue;  // it had not started
    if (r.status != 0) {
      EXPECT_FALSE(std::filesystem::exists(d + "/t.png")) << "no plot of a cut curve";
    }
    std::istringstream csv(read_file(d + "/t.csv"));
    std::string line;
    std::getline(csv, line);  // the header: every row whole has as many cells
    const auto commas = std::count(line.begin(), line.end(), ',');
    EXPECT_GE(commas, 5) << line;
    while (std::getline(csv, line)) EXPECT_EQ(std::count(line.begin(), line.end(), ','), commas) << line;
    expect_nothing_left(d);
  }
  for (int trial = 0; trial < 2; ++trial) {
    const int signal_number = trial % 2 ? SIGTERM : SIGINT;
    const std::string d = dir("paper" + std::to_string(trial));
    const Interrupted r = interrupt({"paper", "001-theorem1"}, d, signal_number, trial % 2 == 0, random_delay(200, 1500));
    expect_stopped_or_finished(r, signal_number);
    if (r.killed_by != 0) continue;  // it had not started
    EXPECT_EQ(r.out.rfind("meshmp paper 001-theorem1", 0), 0u) << r.out;
    EXPECT_TRUE(!r.out.empty() && r.out.back() == '\n') << "every row printed whole: " << r.out;
    if (r.status != 0) {
      EXPECT_NE(r.err.find("stopped by"), std::string::npos) << r.err;
    }
    EXPECT_EQ(r.err.find("failed"), std::string::npos) << "a stopped row is not a failed one: " << r.err;
    expect_nothing_left(d);
  }
}

}  // namespace
