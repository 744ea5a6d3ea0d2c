// Host threads (run.host_threads, hw/network/router_step_pool.h) change the simulator's speed, never the machine
// simulated: runs on one and on two threads give the same verified memories, completion cycle and every
// statistic (per-link flit counts, header blocking, message latencies, schedule counts), the same
// failure report when the network deadlocks, and the same traffic latencies. Each run is its own process.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/network/router_step_pool.h"
#include "meshmp_process.h"

namespace {

using meshmp_test::meshmp;
using meshmp_test::Outcome;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "meshmp_threads_" + std::to_string(getpid()) + "_" + name;
}

bool two_host_threads() { return std::thread::hardware_concurrency() >= 2; }

void expect_same_machine(const std::string& args, int expected_status = 0) {
  if (!two_host_threads()) GTEST_SKIP() << "this host has one hardware thread";
  meshmp_test::expect_same_statistics(args, "--host-threads 1", "--host-threads 2", expected_status);
}

TEST(HostThreads, TorusDirect) { expect_same_machine("--topology torus:16x16 --algorithm direct -m 8"); }
TEST(HostThreads, MeshPairwiseStoreAndForward) {
  expect_same_machine("--topology mesh:5x4 --algorithm pairwise --switching store-and-forward --packet-flits 7 -m 40");
}
TEST(HostThreads, HypercubeAllPortStartupOnChannels) {
  expect_same_machine("--topology hypercube:5 --algorithm pairwise --port-model all-port --startup-on channel -m 64");
}
TEST(HostThreads, RingLongLinksDeepPipeline) {
  expect_same_machine("--topology ring:13 --algorithm tseng-ring --pipeline-depth 5 --link-latency 3 -m 24");
}
TEST(HostThreads, TorusT4WithBarriers) {
  expect_same_machine("--topology torus:16x16 --algorithm tseng-t4 --algorithm-option sync=barrier -m 4");
}
TEST(HostThreads, RtlRouters) {
  expect_same_machine("--topology torus:8x8 --algorithm direct --router-model rtl -m 16");
}

// A run cut off by the cycle limit while routers are busy: what the last cycle's routers sent is counted.
TEST(HostThreads, CycleLimitMidRun) {
  expect_same_machine("--topology torus:8x8 --algorithm direct --max-cycles 1500", 1);
}

// A deadlock found by a worker's routers is reported as on one thread: same cycle, same blocked channels.
TEST(HostThreads, DeadlockReportIsTheSame) {
  expect_same_machine("--topology torus:4x4 --no-dateline --vcs 1 --buffer-flits 2 --block-bytes 256 "
                      "--startup-cycles 1 --watchdog-cycles 200",
                      1);
  const Outcome a = meshmp("run --topology torus:4x4 --no-dateline --vcs 1 --buffer-flits 2 --block-bytes 256 "
                           "--startup-cycles 1 --watchdog-cycles 200 -o \"\"");
  const Outcome b = meshmp("run --topology torus:4x4 --no-dateline --vcs 1 --buffer-flits 2 --block-bytes 256 "
                           "--startup-cycles 1 --watchdog-cycles 200 --host-threads 2 -o \"\"");
  // From the failure to the host timing line.
  const auto report = [](const std::string& output) {
    const auto begin = output.find("FAILED");
    return output.substr(begin, output.find("  simulation:") - begin);
  };
  ASSERT_NE(b.output.find("FAILED (network failure): deadlock"), std::string::npos) << b.output;
  EXPECT_EQ(report(b.output), report(a.output));
}

TEST(HostThreads, TrafficLatenciesAreTheSame) {
  if (!two_host_threads()) GTEST_SKIP() << "this host has one hardware thread";
  const std::string args = "traffic --topology mesh:8x8 --rate 0.3 --warmup-cycles 1000 --measure-cycles 4000 --json-line";
  const Outcome a = meshmp(args);
  const Outcome b = meshmp(args + " --host-threads 2");
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(b.status, 0) << b.output;
  // Every result the same, the host's time aside; the configuration each holds differs in the thread count alone.
  nlohmann::json one = nlohmann::json::parse(a.output), two = nlohmann::json::parse(b.output);
  EXPECT_EQ(one["config"]["run"]["host_threads"], 1);
  EXPECT_EQ(two["config"]["run"]["host_threads"], 2);
  two["config"]["run"]["host_threads"] = 1;
  one.erase("host_seconds");
  two.erase("host_seconds");
  EXPECT_EQ(two, one);
}

TEST(HostThreads, BadCountsAreRefused) {
  Outcome o = meshmp("run --host-threads 0");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("run.host_threads = '0': must be 1..64"), std::string::npos) << o.output;
  o = meshmp("run --host-threads 65");
  EXPECT_EQ(o.status, 2) << o.output;
  o = meshmp("run --host-threads 2 --vcd " + temp_path("w.vcd"));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("run.host_threads = '2': a run that writes waveforms steps its routers on one thread"),
            std::string::npos)
      << o.output;
  const std::string too_many = std::to_string(std::thread::hardware_concurrency() + 1);
  o = meshmp("run --host-threads " + too_many);
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("run.host_threads = '" + too_many + "': at most"), std::string::npos) << o.output;
  o = meshmp("bench --host-threads " + too_many);
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("--host-threads: Value " + too_many + " not in range"), std::string::npos) << o.output;
}

// The pool alone: every chunk is stepped exactly once per start/finish, by its worker or, if that has
// not claimed it by then, by finish() itself; the workers do step chunks.
TEST(RouterStepPool, StepsEveryChunkOncePerCycle) {
  std::vector<std::atomic<int>> steps(3);
  std::atomic<int> off_the_calling_thread{0};
  const std::thread::id caller = std::this_thread::get_id();
  meshmp::RouterStepPool pool(3, [&](int k) {
    ++steps[static_cast<std::size_t>(k)];
    if (std::this_thread::get_id() != caller) ++off_the_calling_thread;
  });
  for (int cycle = 1; cycle <= 1000; ++cycle) {
    pool.start();
    if (cycle % 100 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the workers' turn
    pool.finish();
    for (const auto& s : steps) ASSERT_EQ(s.load(), cycle);
  }
  EXPECT_GT(off_the_calling_thread.load(), 0);
}

TEST(RouterStepPool, AStepsExceptionReachesFinish) {
  meshmp::RouterStepPool pool(2, [](int k) {
    if (k == 1) throw std::runtime_error("chunk 1 failed");
  });
  pool.start();
  EXPECT_THROW(pool.finish(), std::runtime_error);
  pool.start();  // the pool goes on
  EXPECT_THROW(pool.finish(), std::runtime_error);
}

}  // namespace
