// A sweep split into shards (meshmp sweep --shard I/N) and joined again (meshmp merge) is the unsharded
// sweep row for row, host time aside: through GNU parallel (Debian's parallel) and through a Slurm job
// array (scripts/slurm-sweep.sh) on a one-node cluster the test brings up (Debian's slurm-wlm and munge),
// each skipped with the reason where its tools are missing or the cluster cannot start.
// Shards and merges that cannot be right are input errors naming the file and the point.
#include <gtest/gtest.h>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "meshmp_process.h"
#include "sweep_rows.h"

namespace {

using meshmp_test::meshmp;
using meshmp_test::Outcome;
using meshmp_test::rows_without_host_time;
using meshmp_test::run_command;

// Eight points: 2 topologies x 2 algorithms x 2 block sizes.
const std::string kGrid = "--topologies torus:4x4,mesh:4x4 --algorithms direct,pairwise -m 8,32";

std::string scratch_dir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "meshmp_shards_" + std::to_string(getpid()) + "_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

bool have(const std::string& program) { return run_command("command -v " + program).status == 0; }

std::string unsharded(const std::string& dir) {
  const Outcome whole = meshmp("sweep -j 2 " + kGrid + " --csv " + dir + "/whole.csv");
  EXPECT_EQ(whole.status, 0) << whole.output;
  return dir + "/whole.csv";
}

TEST(SweepShards, ThroughGnuParallelMergedAreTheUnshardedSweep) {
  if (!have("parallel")) GTEST_SKIP() << "GNU parallel is not installed (Debian's parallel; scripts/setup.sh installs it)";
  const std::string dir = scratch_dir("parallel");
  const std::string whole = unsharded(dir);
  const Outcome shards = run_command("parallel --will-cite -j 2 " + std::string(MESHMP_BINARY) + " sweep -j 1 " + kGrid +
                                     " --shard {}/3 --csv " + dir + "/shard-{}.csv ::: 1 2 3");
  ASSERT_EQ(shards.status, 0) << shards.output;
  EXPECT_NE(shards.output.find("--shard 3/3: 2 of the grid's 8 points"), std::string::npos) << shards.output;
  const Outcome merged = meshmp("merge --csv " + dir + "/merged.csv " + dir + "/shard-3.csv " + dir + "/shard-1.csv " +
                                dir + "/shard-2.csv");
  ASSERT_EQ(merged.status, 0) << merged.output;
  EXPECT_NE(merged.output.find("merge: 8 points from 3 file(s), 0 failed"), std::string::npos) << merged.output;
  const auto expected = rows_without_host_time(whole);
  ASSERT_EQ(expected.size(), 9u);
  EXPECT_EQ(rows_without_host_time(dir + "/merged.csv"), expected);
  std::filesystem::remove_all(dir);
}

// The daemons of the one-node cluster fork away from the script that starts them; this process takes
// them as its own (a child subreaper), so that, once stopped, it reaps them rather than leaving zombies
// for a PID 1 that may never wait for them. True when none is left (each has ended and been reaped).
bool reap_the_clusters_daemons() {
  for (int waited = 0; waited < 100; ++waited) {
    pid_t child;
    while ((child = waitpid(-1, nullptr, WNOHANG)) > 0) {
    }
    if (child < 0) return errno == ECHILD;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// The test brings up a one-node cluster of its own (tests/slurm-one-node-cluster.sh: munged, slurmctld
// and slurmd with their key, ports and state in a scratch directory) and submits the job array to it. It
// skips only where the daemons are not installed or this is not root; where they are and it is, a cluster
// that does not come up is a failure.
TEST(SweepShards, ThroughASlurmJobArrayMergedAreTheUnshardedSweep) {
  for (const char* daemon : {"munged", "slurmctld", "slurmd", "sbatch"})
    if (!have(daemon))
      GTEST_SKIP() << daemon << " is not installed (Debian's slurm-wlm and munge; scripts/setup.sh installs them)";
  if (geteuid() != 0) GTEST_SKIP() << "the one-node cluster's daemons run as root here, and this is not root";
  const std::string dir = scratch_dir("slurm");
  const std::string cluster = MESHMP_SOURCE_DIR "/tests/slurm-one-node-cluster.sh";
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  const Outcome started = run_command(cluster + " start " + dir + "/cluster");
  if (started.status != 0) {  // the daemons are installed and this is root: a cluster that does not come up fails
    reap_the_clusters_daemons();
    FAIL() << "the one-node Slurm cluster did not come up: " << started.output;
  }
  std::string conf = started.output;  // its last line
  conf.erase(conf.find_last_not_of("\n") + 1);
  conf = conf.substr(conf.find_last_of('\n') + 1);
  const std::string whole = unsharded(dir);
  const Outcome array = run_command("cd " + dir + " && SLURM_CONF=" + conf + " MESHMP=" + MESHMP_BINARY +
                                    " timeout 240 sbatch --wait --array=0-2 " + MESHMP_SOURCE_DIR "/scripts/slurm-sweep.sh " + dir +
                                    "/out " + kGrid);
  run_command(cluster + " stop " + dir + "/cluster");
  EXPECT_TRUE(reap_the_clusters_daemons()) << "munged, slurmctld and slurmd: each stopped and reaped";
  ASSERT_EQ(array.status, 0) << "the job array did not finish in 4 minutes, or a task failed: " << array.output;
  const Outcome merged = meshmp("merge --csv " + dir + "/merged.csv " + dir + "/out/shard-1.csv " + dir +
                                "/out/shard-2.csv " + dir + "/out/shard-3.csv");
  ASSERT_EQ(merged.status, 0) << merged.output;
  EXPECT_EQ(rows_without_host_time(dir + "/merged.csv"), rows_without_host_time(whole));
  std::error_code ignored;  // a daemon's last write may race the removal: the scratch directory may stay
  std::filesystem::remove_all(dir, ignored);
}

// The task's shard is its place along the array's range, whatever the range's first number and step
// (--array=0-3, the common 0-based form, used to give --shard 0/4; a stepped array miscounted).
TEST(SweepShards, TheSlurmScriptCountsATaskAlongItsRange) {
  struct Array {
    int id, min, max, step, count;
    std::string shard;
  };
  const std::string script = MESHMP_SOURCE_DIR "/scripts/slurm-sweep.sh";
  for (const Array& a : {Array{0, 0, 3, 1, 4, "1/4"}, Array{3, 0, 3, 1, 4, "4/4"}, Array{2, 1, 3, 1, 3, "2/3"},
                         Array{4, 0, 6, 2, 4, "3/4"}, Array{10, 4, 10, 3, 3, "3/3"}}) {
    const std::string env = "SLURM_ARRAY_TASK_ID=" + std::to_string(a.id) + " SLURM_ARRAY_TASK_MIN=" +
                            std::to_string(a.min) + " SLURM_ARRAY_TASK_MAX=" + std::to_string(a.max) +
                            " SLURM_ARRAY_TASK_STEP=" + std::to_string(a.step) + " SLURM_ARRAY_TASK_COUNT=" +
                            std::to_string(a.count) + " MESHMP=echo ";
    const Outcome o = run_command(env + script + " /tmp/meshmp-slurm-out -m 8");
    EXPECT_EQ(o.status, 0) << o.output;
    const std::string index = a.shard.substr(0, a.shard.find('/'));
    EXPECT_NE(o.output.find("--shard " + a.shard + " --csv /tmp/meshmp-slurm-out/shard-" + index + ".csv"),
              std::string::npos)
        << env << "\n" << o.output;
  }
  // A list (1,5,7) is no range: refused rather than miscounted.
  const Outcome list = run_command("SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=7 "
                                   "SLURM_ARRAY_TASK_COUNT=3 MESHMP=echo " + script + " /tmp/meshmp-slurm-out -m 8");
  EXPECT_EQ(list.status, 2) << list.output;
  EXPECT_NE(list.output.find("is not one range"), std::string::npos) << list.output;
  std::filesystem::remove_all("/tmp/meshmp-slurm-out");
}

// merge --plot draws the merged CSV as sweep --plot does; its plot options without --plot are refused.
TEST(SweepShards, MergePlotsTheMergedSweep) {
  const std::string dir = scratch_dir("merge_plot");
  for (const char* shard : {"1", "2"}) {
    const Outcome part = meshmp("sweep " + kGrid + " --shard " + shard + "/2 --csv " + dir + "/s" + shard + ".csv");
    ASSERT_EQ(part.status, 0) << part.output;
  }
  const std::string shards = " " + dir + "/s1.csv " + dir + "/s2.csv";
  const Outcome plotted = meshmp("merge --csv " + dir + "/m.csv" + shards + " --plot " + dir + "/m.png --speedup-of pairwise");
  ASSERT_EQ(plotted.status, 0) << plotted.output;
  EXPECT_NE(plotted.output.find("plot: " + dir + "/m.png"), std::string::npos) << plotted.output;
  EXPECT_TRUE(std::filesystem::is_regular_file(dir + "/m.png"));
  const Outcome no_plot = meshmp("merge --csv " + dir + "/n.csv" + shards + " --plot-against block-bytes");
  EXPECT_EQ(no_plot.status, 2) << no_plot.output;
  EXPECT_NE(no_plot.output.find("--plot-against = 'block-bytes': chooses what --plot draws; no --plot is given"),
            std::string::npos)
      << no_plot.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/n.csv"));
  std::filesystem::remove_all(dir);
}

TEST(SweepShards, MergeRefusesAPointTwiceAndAPointMissing) {
  const std::string dir = scratch_dir("refuse");
  for (const char* shard : {"1", "2"}) {
    const Outcome o = meshmp("sweep -j 2 --topologies torus:4x4 --algorithms direct -m 8,16,24 --shard " +
                             std::string(shard) + "/2 --csv " + dir + "/s" + shard + ".csv");
    ASSERT_EQ(o.status, 0) << o.output;
  }
  const Outcome twice = meshmp("merge --csv " + dir + "/m.csv " + dir + "/s1.csv " + dir + "/s2.csv " + dir + "/s1.csv");
  EXPECT_EQ(twice.status, 2) << twice.output;
  EXPECT_NE(twice.output.find("point 0 is in " + dir + "/s1.csv too: a shard given twice, or shards of different sweeps"),
            std::string::npos)
      << twice.output;
  const Outcome missing = meshmp("merge --csv " + dir + "/m.csv " + dir + "/s1.csv");
  EXPECT_EQ(missing.status, 2) << missing.output;
  EXPECT_NE(missing.output.find("1 point(s) below the last are in none of the files (1)"), std::string::npos)
      << missing.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/m.csv")) << "nothing written by a refused merge";
  std::ofstream(dir + "/other.csv") << "a,b\n1,2\n";
  const Outcome foreign = meshmp("merge --csv " + dir + "/m.csv " + dir + "/other.csv");
  EXPECT_EQ(foreign.status, 2) << foreign.output;
  EXPECT_NE(foreign.output.find("shard = '" + dir + "/other.csv': its header is not the one this meshmp writes"),
            std::string::npos)
      << foreign.output;
  std::filesystem::remove_all(dir);
}

// A row kept by --resume takes its point's place in the grid of the sweep resumed (another order of the
// same points here), so that shards resumed with a changed grid still merge in order.
TEST(SweepShards, AResumedRowTakesItsPlaceInTheResumedGrid) {
  const std::string dir = scratch_dir("resume");
  const std::string sweep = "sweep -j 1 --topologies torus:4x4 --algorithms direct --csv " + dir + "/s.csv -m ";
  ASSERT_EQ(meshmp(sweep + "8,16").status, 0);
  const Outcome resumed = meshmp(sweep + "16,8 --resume");
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("--resume: 2 of 2 points already in"), std::string::npos) << resumed.output;
  const auto rows = rows_without_host_time(dir + "/s.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].rfind("0,torus:4x4,direct,16,", 0), 0u) << rows[1];
  EXPECT_EQ(rows[2].rfind("1,torus:4x4,direct,8,", 0), 0u) << rows[2];
  std::filesystem::remove_all(dir);
}

TEST(SweepShards, ABadShardIsAnInputErrorBeforeAnyPoint) {
  for (const char* shard : {"0/3", "4/3", "3", "a/b", "1/0", "1/100001"}) {
    const Outcome o = meshmp("sweep --topologies torus:4x4 --algorithms direct --csv /nonexistent/s.csv --shard " +
                             std::string(shard));
    EXPECT_EQ(o.status, 2) << shard << ": " << o.output;
    EXPECT_NE(o.output.find("--shard = '"), std::string::npos) << o.output;
    EXPECT_NE(o.output.find("expected"), std::string::npos) << o.output;
  }
}

}  // namespace
