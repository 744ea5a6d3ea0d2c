// Paper 004's algorithms run on the machine (004 §2's model: all-port nodes, every channel starting its
// message after its own t_s, a hardware barrier per step, rho = 0):
//  - SaadSweep: every saad-* algorithm with its machine's default method, byte-exact on every ring 3..33,
//    square grid 3x3..12x12 and hypercube 1..8 (one `meshmp sweep` per machine family, the runs in child
//    processes), each run's steps and words (statistics.schedule) equal to the program's, which
//    tests/saad_program_test.cpp holds to the paper's counts, its completion equal to the zero-load model
//    of this machine for the schedule, and no header blocking; the other methods on smaller sets;
//  - SaadExchange: single runs in this process (also on the verilated routers, ctest rtl/...): the same
//    equalities, the paper's estimate and the choices in the statistics, and the port rule enforced by
//    the machine while it runs (an error naming the step, the node and the rule).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "exchange_run.h"
#include "meshmp_process.h"
#include "saad_sweep.h"
#include "firmware/paper004/common.h"
#include "hw/machine/machine_config.h"

namespace meshmp {
namespace {

// Under the sanitizers (a Debug build whose every child run starts some 30x slower) the sweeps take a
// sample of each family's sizes and the pairs test one machine of each; the release pass takes them all.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kEverySize = false;
#else
constexpr bool kEverySize = true;
#endif

const char* kModel004 = "--port-model all-port --startup-on channel --copy-cycles-per-byte 0";

// Runs `meshmp sweep` over the topologies and algorithms (block size `m`, `run_options` added to 004's
// model) and checks every row against the program the firmware runs.
void sweep_and_check(const std::vector<std::string>& topologies, const std::vector<std::string>& algorithms,
                     const std::string& run_options, int m = 4) {
  const auto rows = meshmp_test::sweep_rows(topologies, algorithms, "-m " + std::to_string(m),
                                            std::string(kModel004) + " " + run_options);
  std::map<std::string, std::string> options;
  for (const std::string& word : meshmp_test::split(run_options, ' '))
    if (word.find('=') != std::string::npos) options[word.substr(0, word.find('='))] = word.substr(word.find('=') + 1);
  for (auto row : rows) {
    const std::string what = row["topology"] + " " + row["algorithm"] + " " + run_options;
    EXPECT_EQ(row["verified"], "yes") << what << ": " << row["line"];
    EXPECT_EQ(row["completion_cycles"], row["zero_load_estimate_cycles"]) << what;
    EXPECT_EQ(row["header_blocking_cycles"], "0") << what;
    ExchangeParameters p;
    p.block_bytes = static_cast<std::uint32_t>(m);
    p.startup_cycles = 100;
    const SaadPlan plan = saad_plan(row["algorithm"], Topology::parse(row["topology"]), p, options);
    const SaadCounts counts = saad_counts(plan.program, static_cast<std::uint32_t>(m));  // in words of m bytes
    EXPECT_EQ(row["synchronized_steps"], std::to_string(counts.steps)) << what;
    EXPECT_EQ(row["sum_of_step_max_blocks"], std::to_string(counts.units)) << what;
  }
  EXPECT_EQ(rows.size(), topologies.size() * algorithms.size());
}

const std::vector<std::string> kAlgorithms{"saad-one-to-one", "saad-broadcast", "saad-all-to-all-broadcast",
                                           "saad-scatter",    "saad-gather",    "saad-multiscatter"};

TEST(SaadSweep, EveryAlgorithmByteExactOnRings3To33) {
  std::vector<std::string> rings;
  for (int k = 3; k <= 33; ++k)
    if (kEverySize || k <= 6 || k == 13 || k == 16 || k == 33) rings.push_back("ring:" + std::to_string(k));
  sweep_and_check(rings, kAlgorithms, "");
}

TEST(SaadSweep, EveryAlgorithmByteExactOnGrids3To12) {
  std::vector<std::string> grids;
  for (int p = 3; p <= 12; ++p)
    if (kEverySize || p <= 4 || p == 7) grids.push_back("torus:" + std::to_string(p) + "x" + std::to_string(p));
  sweep_and_check(grids, kAlgorithms, "");
}

TEST(SaadSweep, EveryAlgorithmByteExactOnHypercubes1To8) {
  std::vector<std::string> cubes;
  for (int n = 1; n <= (kEverySize ? 8 : 6); ++n) cubes.push_back("hypercube:" + std::to_string(n));
  sweep_and_check(cubes, kAlgorithms, "");
}

TEST(SaadSweep, TheOtherMethods) {
  sweep_and_check({"ring:3", "ring:8", "ring:13"}, {"saad-one-to-one"}, "--algorithm-option method=hop");
  sweep_and_check({"ring:4", "ring:9"}, {"saad-one-to-one"},
                  "--algorithm-option method=two-paths --algorithm-option port_rule=full-duplex");
  sweep_and_check({"ring:5", "ring:12"}, {"saad-broadcast"}, "--algorithm-option method=one-way");
  sweep_and_check({"ring:6", "ring:11"}, {"saad-gather"},
                  "--algorithm-option method=reversed-scatter --algorithm-option port_rule=full-duplex");
  sweep_and_check({"torus:3x3", "torus:4x4", "torus:7x7"}, {"saad-one-to-one"}, "--algorithm-option method=four-paths");
  for (const char* method : {"tree", "line-then-rows"})
    sweep_and_check({"torus:3x3", "torus:6x6", "torus:9x9"}, {"saad-broadcast"},
                    std::string("--algorithm-option method=") + method);
  for (const char* method : {"daisy-chain", "sequential-broadcast"})
    sweep_and_check({"torus:3x3", "torus:4x4", "torus:5x5"}, {"saad-all-to-all-broadcast"},
                    std::string("--algorithm-option method=") + method);
  sweep_and_check({"hypercube:3", "hypercube:5"}, {"saad-one-to-one"}, "--algorithm-option method=n-paths");
}

MachineConfig model_004(const std::string& topology, const std::string& algorithm) {
  MachineConfig config;
  config.topology = topology;
  config.algorithm = algorithm;
  config.block_bytes = 8;
  config.port_model = PortModel::AllPort;
  config.processor.startup_on_channel = true;
  config.processor.copy_cycles_per_byte = 0;
  return config;
}

TEST(SaadExchange, PipelinedOneToOneOnTheGridCountsThePapersSteps) {
  MachineConfig config = model_004("torus:6x6", "saad-one-to-one");
  config.workload_options = {{"words", "240"}};
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_TRUE(run.report.ok());
  // (3.8): 0 -> the farthest node, i = 6; nu = the best whole number near (3.4)'s optimum.
  const SaadPlan plan = saad_plan("saad-one-to-one", Topology::parse("torus:6x6"), exchange_parameters(config));
  const std::uint64_t nu = static_cast<std::uint64_t>(plan.program.packets);
  EXPECT_EQ(run.stats["schedule"]["synchronized_steps"], nu - 1 + 6);
  EXPECT_EQ(run.stats["schedule"]["sum_of_step_max_blocks"], (nu - 1 + 6) * ((240 + nu - 1) / nu));
  EXPECT_EQ(run.result.completion_cycles, run.zero_load_cycles);
}

TEST(SaadExchange, TheMachineEnforcesTheRingRule) {
  // (3.6) on the ring: B reads from both neighbours in the same steps.
  MachineConfig config = model_004("ring:8", "saad-one-to-one");
  config.workload_options = {{"words", "64"}, {"destination", "3"}};
  config.algorithm_options = {{"method", "two-paths"}, {"packets", "8"}};
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::FirmwareError);
  EXPECT_NE(run.result.message.find("node 3: reads from nodes"), std::string::npos) << run.result.message;
  EXPECT_NE(run.result.message.find("step "), std::string::npos) << run.result.message;
  EXPECT_NE(run.result.message.find("004 §2 (C) ring rule"), std::string::npos) << run.result.message;
}

TEST(SaadExchange, ScatterOnTheHypercubeCountsLog2kStepsAndKMinus1Blocks) {
  {
    MachineConfig config = model_004("hypercube:4", "saad-scatter");
    config.workload_options = {{"words", "64"}, {"root", "5"}};
    config.algorithm_options = {{"sync", "barrier"}};
    const ExchangeRun run = run_exchange(config);
    ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
    EXPECT_TRUE(run.report.ok());
    EXPECT_EQ(run.stats["schedule"]["synchronized_steps"], 4);          // (3.40): log2 k
    EXPECT_EQ(run.stats["schedule"]["sum_of_step_max_blocks"], 15 * 4);  // (k - 1) N / k words
    EXPECT_EQ(run.result.completion_cycles, run.zero_load_cycles);
  }
}

}  // namespace
}  // namespace meshmp

namespace meshmp {
namespace {

// `meshmp paper 004-*`: every row verified, and every row whose expression is exact (at the nu it ran)
// measures the paper's steps and words exactly.
TEST(SaadPaper, TablesMeetEveryExactExpression) {
  for (const char* table : {"004-ring", "004-grid", "004-hypercube"}) {
    if (!kEverySize && std::string(table) != "004-hypercube") continue;
    const auto outcome = meshmp_test::meshmp(std::string("paper ") + table);
    ASSERT_EQ(outcome.status, 0) << outcome.output;
    std::stringstream lines(outcome.output);
    int rows = 0, exact = 0;
    for (std::string line; std::getline(lines, line);) {
      if (line.empty() || line.rfind("(*", 0) == 0 || (line[0] != '(' && line.rfind("P3.2", 0) != 0 && line.rfind("T5,H", 0) != 0)) continue;
      std::vector<std::string> cells;
      std::stringstream words(line);
      for (std::string cell; words >> cell;) cells.push_back(cell);
      ASSERT_EQ(cells.size(), 15u) << line;
      ++rows;
      if (cells[14] != "yes") continue;
      ++exact;
      EXPECT_EQ(cells[7], "1.000") << table << ": " << line;   // steps / paper
      EXPECT_EQ(cells[10], "1.000") << table << ": " << line;  // words / paper
    }
    EXPECT_GE(rows, 14) << outcome.output;
    EXPECT_GE(exact, 4) << outcome.output;
  }
}

// `meshmp paper 004-table1 | 004-table2`: all 15 cells of each table run and verified; a cell whose
// printed entry lies under its own §3 equation is never passed as a bound (it carries an erratum); the
// entries that are exactly their equation (the bus, the switch's T1,S) are met with eq / printed = 1.
TEST(SaadPaper, SummaryTablesMeasureEveryCell) {
  for (const auto& [table, errata] : {std::pair{"004-table1", 5}, std::pair{"004-table2", 4}}) {
    const auto outcome = meshmp_test::meshmp(std::string("paper ") + table);
    ASSERT_EQ(outcome.status, 0) << outcome.output;
    std::stringstream lines(outcome.output);
    int rows = 0, erratum_rows = 0;
    for (std::string line; std::getline(lines, line);) {
      const bool bound = line.size() > 7 && line.compare(line.size() - 7, 7, "  bound") == 0;
      const bool erratum = line.find("  erratum ") != std::string::npos && line.rfind("erratum", 0) != 0;
      EXPECT_EQ(line.find("BELOW"), std::string::npos) << table << ": " << line;
      if (!bound && !erratum) continue;
      ++rows;
      erratum_rows += erratum;
      std::vector<std::string> words;
      std::stringstream split(line.substr(0, line.find(erratum ? "  erratum" : "  bound")));
      for (std::string word; split >> word;) words.push_back(word);
      ASSERT_GE(words.size(), 8u) << line;
      const double equation_over_printed = std::stod(words.back()), cycles_over_printed = std::stod(words[words.size() - 2]);
      if (bound) {
        EXPECT_LE(equation_over_printed, 1.0) << table << ": " << line;
      }
      if (line.find(" bus ") != std::string::npos || line.rfind("one to one    switch", 0) == 0) {
        EXPECT_EQ(words.back(), "1.000") << line;
        EXPECT_GE(cycles_over_printed, 1.0) << line;  // the machine adds its arbitration and barrier cycles
        EXPECT_LE(cycles_over_printed, 1.07) << line;
      }
    }
    EXPECT_EQ(rows, 15) << outcome.output;
    EXPECT_EQ(erratum_rows, errata) << outcome.output;
    EXPECT_NE(outcome.output.find("the table as measured"), std::string::npos) << outcome.output;
  }
}

// Which machine wins (--plot-against machines) with each machine's best method: the grid and hypercube
// one-to-one take their multi-path methods; a size where a machine of the row did not run says so.
TEST(SaadPaper, WhichMachineWinsNamesTheMachinesThatDidNotRun) {
  const std::string base = ::testing::TempDir() + "saad_machines_" + std::to_string(getpid());
  const auto outcome = meshmp_test::meshmp("sweep --topologies ring:16,torus:4x4,hypercube:4,bus:16,bus:32 --algorithms "
                                           "saad-one-to-one -m 8 --startup-cycles 10 --csv " + base + ".csv --plot " + base +
                                           ".png --plot-against machines --run-options '--algorithm-option method=best'");
  ASSERT_EQ(outcome.status, 0) << outcome.output;
  EXPECT_NE(outcome.output.find("32: bus (ring, grid, hypercube not run)"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("16: bus,"), std::string::npos) << outcome.output;
  std::remove((base + ".csv").c_str());
  std::remove((base + ".png").c_str());
  MachineConfig config;
  config.block_bytes = 8;
  const ExchangeParameters p = exchange_parameters(config);
  EXPECT_EQ(saad_plan("saad-one-to-one", Topology::parse("torus:8x8"), p, {{"method", "best"}}).method, "four-paths");
  EXPECT_EQ(saad_plan("saad-one-to-one", Topology::parse("hypercube:6"), p, {{"method", "best"}}).method, "n-paths");
  EXPECT_EQ(saad_plan("saad-one-to-one", Topology::parse("ring:16"), p, {{"method", "best"}}).method, "pipeline");
}

// The grid transposition through the diagonal on the machine (004's model: all-port, t_s on every
// channel): every word in place, 8 steps and 512 words on torus:8x8 at N = 4096, where (3.44) counts 16
// start-ups and 1,024 words, and the completion the zero-load model of its schedule.
TEST(SaadPaper, TheGridTranspositionRunsInHalfOf344) {
  const auto outcome = meshmp_test::meshmp("run -t torus:8x8 -a saad-transpose --cost-model 004 --startup-cycles 100 "
                                           "--flit-bytes 4 -m 4 --workload-option words=4096 -o - --quiet");
  ASSERT_EQ(outcome.status, 0) << outcome.output;
  const nlohmann::json stats = nlohmann::json::parse(outcome.output.substr(outcome.output.find('{')));
  EXPECT_TRUE(stats["verification"]["ok"].get<bool>());
  EXPECT_EQ(stats["statistics"]["schedule"]["synchronized_steps"], 8);
  EXPECT_EQ(stats["statistics"]["schedule"]["sum_of_step_max_blocks"], 512);
  EXPECT_EQ(stats["statistics"]["completion_cycles"], stats["analytic"]["zero_load"]["estimate_cycles"]);
}

TEST(SaadPaper, FigureAgainstNuWritesTheTableAndThePlot) {
  const std::string png = ::testing::TempDir() + "saad_figure_" + std::to_string(getpid()) + ".png";
  const auto outcome = meshmp_test::meshmp("paper 004-hypercube --plot " + png);
  ASSERT_EQ(outcome.status, 0) << outcome.output;
  EXPECT_NE(outcome.output.find("nu_opt of (3.4)"), std::string::npos) << outcome.output;
  const std::string csv = png.substr(0, png.size() - 4) + ".csv";
  std::ifstream table(csv);
  std::string header;
  std::getline(table, header);
  EXPECT_EQ(header, "packets,completion_cycles,paper_estimate_cycles,nu_opt,paper_optimum_cycles");
  // Every row against 004's expressions written out here: the figure is (3.21)'s broadcast on hypercube:6
  // (n = 6 dimensions), N = 2048 words, tau = 100, b = 1 word per cycle: t(nu) = (nu - 1 + n)(tau + N / nu),
  // minimal at nu_opt = sqrt((n - 1) N / tau) (3.4), where it is (sqrt((n - 1) tau) + sqrt(N))^2.
  const double n = 6, words = 2048, tau = 100;
  const double nu_opt = std::sqrt((n - 1) * words / tau);
  const double optimum = std::pow(std::sqrt((n - 1) * tau) + std::sqrt(words), 2);
  std::string line;
  int rows = 0;
  double best_nu = 0, best_cycles = 1e300;
  while (std::getline(table, line)) {
    double nu = 0, cycles = 0, estimate = 0, row_nu_opt = 0, row_optimum = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%lf,%lf,%lf,%lf", &nu, &cycles, &estimate, &row_nu_opt, &row_optimum), 5) << line;
    ++rows;
    const double t = (nu - 1 + n) * (tau + words / nu);
    EXPECT_NEAR(estimate, t, 1e-5 * t) << line;  // the table's 6 significant digits
    EXPECT_NEAR(row_nu_opt, nu_opt, 1e-4) << line;
    EXPECT_NEAR(row_optimum, optimum, 1e-2) << line;
    EXPECT_GE(estimate, optimum) << line;
    EXPECT_GE(cycles, estimate) << "the machine adds what (3.21) leaves out (head flits, pipelines): " << line;
    if (cycles < best_cycles) best_cycles = cycles, best_nu = nu;
  }
  EXPECT_GE(rows, 10);
  EXPECT_NEAR(best_nu, nu_opt, 2.0) << "the measured time is least near (3.4)'s nu_opt";
  EXPECT_TRUE(std::ifstream(png).good());
  std::remove(png.c_str());
  std::remove(csv.c_str());
}

}  // namespace
}  // namespace meshmp

namespace meshmp {
namespace {

// Every source / destination pair (one-to-one) and every root (broadcast, scatter, gather) on the small
// machines, each a `meshmp run` of its own, verified byte for byte.
TEST(SaadSweep, EveryPairAndEveryRootOnTheSmallMachines) {
  int runs = 0;
  int expected = 0;
  for (const std::string topology : {"ring:5", "ring:6", "torus:3x3", "torus:4x4", "hypercube:3"}) {
    if (!kEverySize && topology != "ring:5" && topology != "hypercube:3") continue;
    const int k = Topology::parse(topology).num_nodes();
    expected += k * (k - 1) + 3 * k;
    auto run = [&](const std::string& arguments) {
      const auto outcome = meshmp_test::meshmp("run -o '' --topology " + topology + " " + kModel004 + " -m 4 " + arguments);
      EXPECT_EQ(outcome.status, 0) << topology << " " << arguments << "\n" << outcome.output;
      EXPECT_NE(outcome.output.find("verified: all"), std::string::npos) << topology << " " << arguments;
      EXPECT_NE(outcome.output.find("measured / zero-load = 1.000"), std::string::npos) << topology << " " << arguments;
      ++runs;
    };
    for (int a = 0; a < k; ++a) {
      for (int b = 0; b < k; ++b)
        if (a != b)
          run("--algorithm saad-one-to-one --workload-option source=" + std::to_string(a) +
              " --workload-option destination=" + std::to_string(b) + " --workload-option words=24");
      for (const char* algorithm : {"saad-broadcast", "saad-scatter", "saad-gather"})
        run(std::string("--algorithm ") + algorithm + " --workload-option root=" + std::to_string(a) +
            (std::string(algorithm) == "saad-broadcast" ? " --workload-option words=24" : ""));
    }
  }
  EXPECT_EQ(runs, expected);
}

}  // namespace
}  // namespace meshmp
