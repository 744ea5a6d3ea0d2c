// Paper 004's algorithms on its shared-resource machines (004 §2 A bus:K, §2 B shared-memory:K, §2 F
// omega:K), the TLM-2.0 fabrics of tlm/ behind the same node (firmware/paper004/fabric_programs.cpp):
//  - SaadFabricSweep: every saad-* operation with each method of the three machines, byte-exact on K = 2..64
//    (one `meshmp sweep` per machine, the runs in child processes) at k* = 1 and k* = 3; every run's steps
//    and words (statistics.schedule) equal the program's, and, where nothing conflicts (one port, or the
//    switch's permutations), its completion equals this machine's zero-load model of the schedule less one
//    cycle per shared-memory round its phase continues after (the next round's access was issued while the
//    port was busy; the model, putting the steps one after the other, issues it afterwards);
//    the program's steps and words are the firmware's own (a pin on the programs: 004's expressions hold
//    them where 004 is exact, SaadFabric.* and tests/saad_machine_test.cpp), and where accesses can
//    conflict the run is bounded above by the memory's own conflict count (SaadFabricConflicts);
//  - SaadFabric: single runs here: the paper's counts where 004 gives them exactly, the fabric statistics,
//    a data placement whose accesses conflict in the memory's banks, and the errors a user meets.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <tuple>

#include "exchange_run.h"
#include "meshmp_process.h"
#include "saad_sweep.h"
#include "firmware/paper004/common.h"
#include "hw/machine/machine_config.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

#if defined(__SANITIZE_ADDRESS__)
const std::vector<int> kSizes{2, 3, 8};
const std::vector<int> kPowers{2, 4, 8};
#else
const std::vector<int> kSizes{2, 3, 5, 8, 16, 33, 64};
const std::vector<int> kPowers{2, 4, 8, 16, 32, 64};
#endif

const char* kFabricModel = "--copy-cycles-per-byte 0";

// Runs `meshmp sweep` on `machine`:K for every K and checks every row against the program the firmware runs.
// Sizes below k* are left out (004's k* <= k).
void sweep_and_check(const std::string& machine, const std::vector<int>& all_sizes, const std::vector<std::string>& algorithms,
                     int k_star, const std::map<std::string, std::string>& options = {}) {
  std::vector<std::string> topologies;
  for (int k : all_sizes)
    if (k >= k_star) topologies.push_back(machine + ":" + std::to_string(k));
  std::string option_flags;
  for (const auto& [key, value] : options) option_flags += " --algorithm-option " + key + "=" + value;
  const auto rows = meshmp_test::sweep_rows(topologies, algorithms, "-m 8 --startup-cycles 0",
                                            std::string(kFabricModel) + " --concurrent-transfers " +
                                                std::to_string(k_star) + option_flags);
  for (auto row : rows) {
    const std::string what = row["topology"] + " " + row["algorithm"] + " k* = " + std::to_string(k_star);
    EXPECT_EQ(row["verified"], "yes") << what << ": " << row["line"];
    MachineConfig config;
    config.topology = row["topology"];
    config.block_bytes = 8;
    config.processor.startup_cycles = 0;
    config.fabric.concurrent_transfers = k_star;
    const SaadPlan plan = saad_plan(row["algorithm"], Topology::parse(config.topology), exchange_parameters(config), options);
    const SaadCounts counts = saad_counts(plan.program, 8);
    EXPECT_EQ(row["synchronized_steps"], std::to_string(counts.steps)) << what;
    EXPECT_EQ(row["sum_of_step_max_blocks"], std::to_string(counts.units)) << what;
    const auto continuing = static_cast<std::uint64_t>(
        std::count(plan.program.round_continues.begin(), plan.program.round_continues.end(), true));
    if (k_star == 1 || machine == "omega")  // nothing can conflict: the zero-load model is the run
      EXPECT_EQ(std::stoull(row["completion_cycles"]) + continuing, std::stoull(row["zero_load_estimate_cycles"])) << what;
    else
      EXPECT_GE(std::stoull(row["completion_cycles"]) + continuing, std::stoull(row["zero_load_estimate_cycles"])) << what;
  }
  EXPECT_EQ(rows.size(), topologies.size() * algorithms.size());
}

const std::vector<std::string> kOperations{"saad-one-to-one", "saad-broadcast", "saad-all-to-all-broadcast", "saad-scatter",
                                           "saad-gather", "saad-multiscatter"};

TEST(SaadFabricSweep, EveryOperationByteExactOnTheBus) {
  sweep_and_check("bus", kSizes, kOperations, 1);
  sweep_and_check("bus", kSizes, kOperations, 3);
}

TEST(SaadFabricSweep, EveryOperationByteExactOnTheSharedMemory) {
  sweep_and_check("shared-memory", kSizes, kOperations, 1);
  sweep_and_check("shared-memory", kSizes, kOperations, 3);
  sweep_and_check("shared-memory", kSizes, {"saad-multiscatter"}, 3, {{"method", "block-by-block"}});
}

TEST(SaadFabricSweep, EveryOperationAndMethodByteExactOnTheOmegaSwitch) {
  sweep_and_check("omega", kPowers, kOperations, 1);
  for (const char* method : {"doubling", "ring-pipeline"})
    sweep_and_check("omega", kPowers, {"saad-broadcast"}, 1, {{"method", method}});
  sweep_and_check("omega", kPowers, {"saad-all-to-all-broadcast"}, 1, {{"method", "daisy-chain"}});
}

MachineConfig fabric_config(const std::string& topology, const std::string& algorithm, int k_star = 1) {
  MachineConfig config;
  config.topology = topology;
  config.algorithm = algorithm;
  config.block_bytes = 8;
  config.processor.startup_cycles = 0;
  config.processor.copy_cycles_per_byte = 0;
  config.fabric.concurrent_transfers = k_star;
  return config;
}

// The bus's expressions are exact: (3.26) k start-ups and N words; T_{2,B} one broadcast.
// Where accesses can conflict (the shared memory at k* = 3) the sweep above only bounds the run from below by
// the zero-load model. Bounded from above too, by a count the memory keeps apart from any schedule: a
// conflict delays an access by its bank conflict cycles, and no more, so the run exceeds its zero-load
// model (less the rounds continuing, as above) by at most the memory's bank conflict cycles in all.
class SaadFabricConflicts : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(SaadFabricConflicts, CostAtMostTheirBankConflictCycles) {
  const auto& [algorithm, k] = GetParam();
  MachineConfig config = fabric_config("shared-memory:" + std::to_string(k), algorithm, 3);
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_TRUE(run.report.ok());
  const SaadPlan plan = saad_plan(algorithm, Topology::parse(config.topology), exchange_parameters(config));
  const auto continuing = static_cast<std::uint64_t>(
      std::count(plan.program.round_continues.begin(), plan.program.round_continues.end(), true));
  const std::uint64_t conflicts = run.stats["fabric"]["shared_memory"]["bank_conflict_cycles"];
  EXPECT_GE(run.result.completion_cycles + continuing, run.zero_load_cycles);
  EXPECT_LE(run.result.completion_cycles + continuing, run.zero_load_cycles + conflicts);
}

INSTANTIATE_TEST_SUITE_P(SharedMemory, SaadFabricConflicts,
                         ::testing::Combine(::testing::ValuesIn(kOperations), ::testing::Values(3, 8, 16)),
                         [](const auto& info) {
                           std::string name = std::get<0>(info.param) + "_k" + std::to_string(std::get<1>(info.param));
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

TEST(SaadFabric, TheBusAllToAllBroadcastMeetsItsExpressionExactly) {
  MachineConfig config = fabric_config("bus:16", "saad-all-to-all-broadcast");
  config.workload_options = {{"words", "512"}};
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_TRUE(run.report.ok());
  const SaadPlan plan = saad_plan("saad-all-to-all-broadcast", Topology::parse("bus:16"), exchange_parameters(config));
  ASSERT_TRUE(plan.formula.exact);
  EXPECT_EQ(run.stats["schedule"]["synchronized_steps"].get<double>(), plan.formula.startups);  // k = 16
  EXPECT_EQ(run.stats["schedule"]["sum_of_step_max_blocks"].get<double>(), plan.formula.words);  // N = 512
  EXPECT_EQ(run.stats["fabric"]["bus"]["broadcasts"], 16);
  EXPECT_EQ(run.result.completion_cycles, run.zero_load_cycles);
}

// The switch passes every shift the programs use in one pass: no transfer waits for a link. The
// transposition's exchanges across each of the log2 k = 5 dimensions are one pass each (004 §3.5 F), every
// node sending half of its k blocks: 5 passes of 16 blocks, half of T_{5,S}'s start-ups and words (which
// copies the hypercube's two half-steps).
TEST(SaadFabric, TheSwitchMultiscatterIsConflictFree) {
  const ExchangeRun run = run_exchange(fabric_config("omega:32", "saad-multiscatter"));
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_TRUE(run.report.ok());
  EXPECT_EQ(run.stats["fabric"]["switch"]["conflicting_transfers"], 0);
  EXPECT_EQ(run.stats["fabric"]["switch"]["stages"], 5);
  EXPECT_EQ(run.stats["fabric"]["switch"]["passes"], 5);
  EXPECT_EQ(run.stats["fabric"]["switch"]["transfers"], 5 * 32);
  EXPECT_EQ(run.stats["schedule"]["synchronized_steps"], 5);
  EXPECT_EQ(run.stats["schedule"]["sum_of_step_max_blocks"], 5 * 16);
  EXPECT_EQ(run.result.completion_cycles, run.zero_load_cycles);
}

// 004 §2 B assumes no bank conflicts. With one bank every access served at once collides: the run stays
// byte-exact, the conflicts are counted, and they cost time over the zero-load model; with one port
// nothing can collide.
TEST(SaadFabric, OneBankMakesConcurrentAccessesConflict) {
  MachineConfig config = fabric_config("shared-memory:8", "saad-multiscatter", 4);
  config.fabric.memory_banks = 1;
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_TRUE(run.report.ok());
  EXPECT_GT(run.stats["fabric"]["shared_memory"]["bank_conflicts"].get<std::uint64_t>(), 0u);
  EXPECT_GT(run.result.completion_cycles, run.zero_load_cycles);
}

// One port: the 8 strided writes and 8 reads run one at a time in 16 rounds; each round after the first
// of its phase was issued while the port was busy (14 cycles the zero-load model charges).
TEST(SaadFabric, OnePortNeverConflicts) {
  MachineConfig config = fabric_config("shared-memory:8", "saad-multiscatter", 1);
  config.fabric.memory_banks = 1;
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_TRUE(run.report.ok());
  EXPECT_EQ(run.stats["fabric"]["shared_memory"]["bank_conflicts"], 0);
  EXPECT_EQ(run.stats["schedule"]["synchronized_steps"], 16);
  EXPECT_EQ(run.result.completion_cycles + 14, run.zero_load_cycles);
}

// The same with method=block-by-block (a DMA without strided accesses): the 8 writes and 56 block reads
// in 64 rounds, 62 of them issued while the port was busy.
TEST(SaadFabric, OnePortNeverConflictsBlockByBlock) {
  MachineConfig config = fabric_config("shared-memory:8", "saad-multiscatter", 1);
  config.fabric.memory_banks = 1;
  config.algorithm_options = {{"method", "block-by-block"}};
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_TRUE(run.report.ok());
  EXPECT_EQ(run.stats["fabric"]["shared_memory"]["bank_conflicts"], 0);
  EXPECT_EQ(run.stats["schedule"]["synchronized_steps"], 64);
  EXPECT_EQ(run.result.completion_cycles + 62, run.zero_load_cycles);
}

// (3.42): every processor writes its N/k words and reads its N/k words back, k* at a time: with the matrix
// destination-major in the global memory (strided writes, tlm/strided_access.h) the program makes exactly
// those 2 k accesses in 2 k / k* rounds of N/k words each, (3.42)'s start-ups and words, on every size whose
// rounds are whole (the sweep above checks that the machine runs the program's steps and words), and the
// machine counts one write and one read per processor.
TEST(SaadFabric, TheSharedMemoryMultiscatterMakes342sAccesses) {
  for (const auto& [k, k_star] : std::vector<std::pair<int, int>>{{9, 3}, {8, 4}, {12, 3}, {16, 16}, {6, 1}, {64, 8}}) {
    const std::string machine = "shared-memory:" + std::to_string(k);
    MachineConfig config = fabric_config(machine, "saad-multiscatter", k_star);
    const SaadPlan plan = saad_plan("saad-multiscatter", Topology::parse(machine), exchange_parameters(config));
    const SaadCounts counts = saad_counts(plan.program, 8);
    EXPECT_TRUE(plan.formula.exact) << machine;
    EXPECT_EQ(plan.formula.startups, 2 * k / k_star) << machine;
    EXPECT_EQ(plan.formula.words, 2 * k / k_star * k) << machine;  // rounds of N/k = k one-word blocks
    EXPECT_EQ(static_cast<double>(counts.steps), plan.formula.startups) << machine;
    EXPECT_EQ(static_cast<double>(counts.units), plan.formula.words) << machine;
  }
  const ExchangeRun run = run_exchange(fabric_config("shared-memory:9", "saad-multiscatter", 3));
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_TRUE(run.report.ok());
  EXPECT_EQ(run.stats["schedule"]["synchronized_steps"], 6);
  EXPECT_EQ(run.stats["fabric"]["shared_memory"]["writes"], 9);
  EXPECT_EQ(run.stats["fabric"]["shared_memory"]["reads"], 9);
}

// The numbers under 004's cost model: shared-memory:9, k* = 3, N = 324 words. One write and one
// read per processor: 6 rounds, 216 words, 2,346 cycles against (3.42)'s 2,328 (the memory's cycle of
// arbitration per round and its bank conflicts, 1.008); block by block (k - 1 reads of N/k^2 each) it took
// 27 rounds and 4,329 cycles (1.860): (3.42) holds for the algorithm 004 describes.
TEST(SaadFabric, TheSharedMemoryMultiscatterMeets342UnderTheCostModel) {
  const std::string json = ::testing::TempDir() + "/multiscatter-342.json";
  for (const std::string method : {"write-then-read", "block-by-block"}) {
    const auto out = meshmp_test::meshmp("run -t shared-memory:9 -a saad-multiscatter --workload-option words=324 "
                                         "--concurrent-transfers 3 --cost-model 004 -q --algorithm-option method=" +
                                         method + " -o " + json);
    ASSERT_EQ(out.status, 0) << out.output;
    std::ifstream in(json);
    const nlohmann::json run = nlohmann::json::parse(in);
    EXPECT_TRUE(run["verification"]["ok"].get<bool>()) << method;
    const double ratio = run["analytic"]["paper"]["measured_over_estimate"].get<double>();
    if (method == "write-then-read") {
      EXPECT_EQ(run["statistics"]["schedule"]["synchronized_steps"], 6);
      EXPECT_EQ(run["statistics"]["schedule"]["sum_of_step_max_blocks"], 216);
      EXPECT_EQ(run["statistics"]["completion_cycles"], 2346);
      EXPECT_EQ(run["analytic"]["paper"]["estimate_cycles"], 2328);
      EXPECT_GE(ratio, 1.0);
      EXPECT_LT(ratio, 1.01);
    } else {
      EXPECT_EQ(run["statistics"]["schedule"]["synchronized_steps"], 27);
      EXPECT_GT(ratio, 1.8);
    }
  }
}

// 004 §2 B: at most k* processors access the memory at once, and (3.15) counts the readers' rounds. The
// schedule counts them: on 30 nodes at k* = 4 the root's write and the 29 reads in ceil(29 / 4) = 8
// rounds, 9 steps of N = 200 words ((3.15) counts max(1, 30 / 4) = 7.5 rounds: not exact); on 9 nodes at
// k* = 3 the 8 reads take 3 rounds, (3.15)'s 9 / 3 exactly.
TEST(SaadFabric, TheSharedMemoryScheduleCountsItsRounds) {
  MachineConfig config = fabric_config("shared-memory:30", "saad-broadcast", 4);
  config.workload_options = {{"words", "200"}};
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_TRUE(run.report.ok());
  EXPECT_EQ(run.stats["schedule"]["synchronized_steps"], 9);
  EXPECT_EQ(run.stats["schedule"]["sum_of_step_max_blocks"], 1800);
  EXPECT_EQ(run.stats["fabric"]["shared_memory"]["reads"], 29);
}

TEST(SaadFabric, TheSharedMemoryScheduleMeets315WhereItsRoundsAreWhole) {
  MachineConfig config = fabric_config("shared-memory:9", "saad-broadcast", 3);
  config.workload_options = {{"words", "90"}};
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  const SaadPlan plan = saad_plan("saad-broadcast", Topology::parse("shared-memory:9"), exchange_parameters(config));
  ASSERT_TRUE(plan.formula.exact);
  EXPECT_EQ(plan.formula.startups, 4);
  EXPECT_EQ(run.stats["schedule"]["synchronized_steps"].get<double>(), plan.formula.startups);
  EXPECT_EQ(run.stats["schedule"]["sum_of_step_max_blocks"].get<double>(), plan.formula.words);  // 4 x 90
}

// (3.24) - (3.25) on the switch: the heap's lone last node (k = 2^n) takes its packets from a left-child
// leaf in the right pass after that leaf's, so the tree is log2 k - 1 levels deep: 2 (log2 k - 1 + nu - 1)
// passes of N / nu words. omega:128, N = 700, nu = 7: 24 passes, 2,400 words, no transfer waiting.
TEST(SaadFabric, TheSwitchTreeBroadcastTakesThePassesOf324) {
  MachineConfig config = fabric_config("omega:128", "saad-broadcast");
  config.workload_options = {{"words", "700"}};
  config.algorithm_options = {{"packets", "7"}};
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_TRUE(run.report.ok());
  EXPECT_EQ(run.stats["schedule"]["synchronized_steps"], 24);
  EXPECT_EQ(run.stats["schedule"]["sum_of_step_max_blocks"], 2400);
  EXPECT_EQ(run.stats["fabric"]["switch"]["conflicting_transfers"], 0);
  ExchangeParameters p;
  p.block_bytes = 8;
  for (int n = 2; n <= 10; ++n)
    for (int nu : {1, 2, 5}) {
      const int k = 1 << n;
      p.workload_options = {{"words", std::to_string(10 * k)}};
      const SaadPlan plan = saad_plan("saad-broadcast", Topology::parse("omega:" + std::to_string(k)), p,
                                      {{"packets", std::to_string(nu)}});
      const SaadCounts counts = saad_counts(plan.program, 8);
      EXPECT_EQ(counts.steps, static_cast<std::uint64_t>(2 * (n - 1 + nu - 1))) << "omega:" << k << " nu = " << nu;
      EXPECT_EQ(static_cast<double>(counts.steps), plan.formula.startups) << "omega:" << k;
      EXPECT_EQ(plan.formula.exact, (10 * k) % nu == 0) << "omega:" << k;
      EXPECT_EQ(port_rule_violation(Topology::parse("omega:" + std::to_string(k)), PortRule::FullDuplex, plan.program), "") << "omega:" << k;
    }
}

TEST(SaadFabric, ABroadcastOnARouterNetworkIsAFirmwareError) {
  MachineConfig config;
  config.topology = "torus:2x2";
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 0) api.wait(api.broadcast(0, 8, 1));
  });
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::FirmwareError);
  EXPECT_NE(result.message.find("has no hardware broadcast"), std::string::npos) << result.message;
}

TEST(SaadFabric, ASharedWriteOnTheBusIsAFirmwareError) {
  MachineConfig config = fabric_config("bus:4", "direct");
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 1) api.wait(api.shared_write(0, 0, 8));
  });
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::FirmwareError);
  EXPECT_NE(result.message.find("has no global memory"), std::string::npos) << result.message;
}

// A shared read the global memory refuses is a firmware error at the processor's next register access,
// though the processor reads COMPLETED by direct memory interface: the refusal voids that access and the
// read that follows is a transaction answering the refusal (before, the processor read on and never woke).
TEST(SaadFabric, ARefusedSharedReadIsAFirmwareErrorThoughCompletedIsReadDirectly) {
  MachineConfig config = fabric_config("shared-memory:4", "direct");
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() != 1) return;
    api.shared_read(0, 0xfffffff0u, 8);
    api.wait_all();
  });
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::FirmwareError) << result.message;
  EXPECT_NE(result.message.find("the memory answered"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("node 1"), std::string::npos) << result.message;
}

// A wait for a descriptor never issued is a firmware error naming it, though the processor reads the
// descriptors' done bits by direct memory interface (a bit not yet issued reads 0: it would wait forever).
TEST(SaadFabric, AWaitForADescriptorNeverIssuedIsAFirmwareError) {
  MachineConfig config;
  config.topology = "torus:2x2";
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() != 0) return;
    api.wait(api.send(1, 0, 8, 1));
    api.wait(5);
  });
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::FirmwareError) << result.message;
  EXPECT_NE(result.message.find("QUERY = 5: no such descriptor"), std::string::npos) << result.message;
}

TEST(SaadFabric, BadMachinesAreRefusedNamingTheRule) {
  auto error_of = [](const std::string& spec) {
    try {
      Topology::parse(spec);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of("omega:12").find("a power of two"), std::string::npos);
  EXPECT_NE(error_of("bus:1").find("2..4096 nodes"), std::string::npos);
  EXPECT_NE(error_of("shared-memory:5000").find("2..4096 nodes"), std::string::npos);
  EXPECT_NE(error_of("bus:x").find("not a whole number"), std::string::npos);
  MachineConfig config = fabric_config("bus:8", "direct", 9);
  ASSERT_TRUE(config.validate());
  EXPECT_NE(config.validate()->find("fabric.concurrent_transfers"), std::string::npos) << *config.validate();
  config = fabric_config("omega:8", "direct");
  config.router.model = "rtl";
  ASSERT_TRUE(config.validate());
  EXPECT_NE(config.validate()->find("has no router network"), std::string::npos) << *config.validate();
}

TEST(SaadFabric, TheSharedMemoryNeedsItsBarrierAndMethodsBelongToTheirMachines) {
  ExchangeParameters p;
  p.block_bytes = 8;
  EXPECT_THROW(saad_plan("saad-broadcast", Topology::parse("shared-memory:4"), p, {{"sync", "none"}}), ConfigError);
  EXPECT_THROW(saad_plan("saad-gather", Topology::parse("bus:4"), p, {{"method", "write-then-read"}}), ConfigError);
  EXPECT_THROW(saad_plan("saad-broadcast", Topology::parse("bus:4"), p, {{"method", "doubling"}}), ConfigError);
}

}  // namespace
}  // namespace meshmp

namespace meshmp {
namespace {

// --cost-model 004 puts tau = --startup-cycles and b = --flit-bytes on every machine: the same runs as the
// settings it stands for, on a fabric and on a router network; what it decides may not be given beside it.
TEST(SaadCostModel, Model004IsTheSettingsItStandsFor) {
  const std::string base = ::testing::TempDir() + "meshmp_cost_model_" + std::to_string(getpid());
  auto statistics = [&base](const std::string& args) {
    const auto outcome = meshmp_test::meshmp("run -a saad-all-to-all-broadcast -m 8 --workload-option words=64 " + args +
                                             " -o " + base + ".json");
    EXPECT_EQ(outcome.status, 0) << outcome.output;
    nlohmann::json stats = meshmp_test::statistics_without_host_timing(base + ".json");
    std::remove((base + ".json").c_str());
    return stats;
  };
  const nlohmann::json bus = statistics("-t bus:8 --cost-model 004 --startup-cycles 100 --flit-bytes 4");
  EXPECT_EQ(bus, statistics("-t bus:8 --startup-cycles 0 --fabric-startup-cycles 99 --fabric-bytes-per-cycle 4 "
                            "--copy-cycles-per-byte 0"));
  EXPECT_EQ(bus["fabric"]["startup_cycles"], 99);
  const nlohmann::json ring = statistics("-t ring:8 --cost-model 004 --startup-cycles 100");
  EXPECT_EQ(ring, statistics("-t ring:8 --startup-cycles 100 --port-model all-port --startup-on channel "
                             "--copy-cycles-per-byte 0"));
  EXPECT_NE(ring, statistics("-t ring:8 --startup-cycles 100"));
}

TEST(SaadCostModel, ConflictingSettingsAreRefusedNamingTheField) {
  const auto conflict = meshmp_test::meshmp("run -t ring:8 -a saad-broadcast --cost-model 004 --port-model one-port -o ''");
  EXPECT_EQ(conflict.status, 2) << conflict.output;
  EXPECT_NE(conflict.output.find("--port-model = 'one-port': is set by --cost-model 004"), std::string::npos)
      << conflict.output;
  const auto zero = meshmp_test::meshmp("run -t bus:8 -a saad-broadcast --cost-model 004 --startup-cycles 0 -o ''");
  EXPECT_EQ(zero.status, 2) << zero.output;
  EXPECT_NE(zero.output.find("needs tau >= 1"), std::string::npos) << zero.output;
  const auto unknown = meshmp_test::meshmp("run -t bus:8 -a saad-broadcast --cost-model 003 -o ''");
  EXPECT_EQ(unknown.status, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("--cost-model = '003': must be machine"), std::string::npos) << unknown.output;
}

}  // namespace
}  // namespace meshmp
