// Paper 004's equations of §3 regenerated from runs of the machine, one table per nearest-neighbour
// machine (ring §2 C, wraparound grid §2 D, hypercube §2 E). 004's model on the machine: all-port nodes
// whose channels each start their message after their own t_s = tau = 100 cycles, a hardware barrier per
// step, 8-byte words on 8-byte flits (b = 1 word per cycle), rho = 0 (004 charges no copies). Per row:
// the steps the machine counted (statistics.schedule) beside the start-ups of the paper's expression, the
// words (sum of each step's largest message) beside its transmission term, and the time beside the
// expression's time, each with measured / paper; "exact" marks the expressions the machine must meet
// exactly (at the nu it ran), the others are approximations or bounds (004's "~", Tables 1-2) or printed
// errata (docs/architecture.md). The machine's time is above the expression's by what 004's tau + m/b
// leaves out: the header flit, the routers' pipelines and the barrier.
#include "sims/paper_004.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>

#include "firmware/paper004/common.h"
#include "hw/machine/machine_config.h"
#include "sims/child_run.h"
#include "sims/output_file.h"
#include "sims/plot_script.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

const char* kModel = " --port-model all-port --startup-on channel --copy-cycles-per-byte 0 -m 8 --startup-cycles 100";

// One-to-one and broadcast move N = 840 words: 840 = 2^3 3 5 7 is divisible by the nu each row picks, so
// their pipelines' expressions are exact.
struct Row {
  std::string equation;
  std::string topology;
  std::string algorithm;
  std::map<std::string, std::string> options;   // algorithm options
  std::map<std::string, std::string> workload;  // workload options
};

std::vector<Row> rows_of(const std::string& table) {
  std::vector<Row> rows;
  auto add = [&rows](std::string eq, std::string topology, std::string algorithm, std::map<std::string, std::string> options,
                     std::map<std::string, std::string> workload) {
    rows.push_back({std::move(eq), std::move(topology), std::move(algorithm), std::move(options), std::move(workload)});
  };
  const std::map<std::string, std::string> none;
  auto method = [](const std::string& m) { return std::map<std::string, std::string>{{"method", m}}; };
  auto words = [](int n) { return std::map<std::string, std::string>{{"words", std::to_string(n)}}; };
  if (table == "004-ring") {
    for (int k : {16, 33}) {
      const std::string t = "ring:" + std::to_string(k);
      add("(3.3)", t, "saad-one-to-one", method("hop"), words(840));
      add("(3.5)", t, "saad-one-to-one", method("pipeline"), words(840));
      auto two = method("two-paths");
      two["port_rule"] = "full-duplex";
      add("(3.6)*", t, "saad-one-to-one", two, words(840));
      add("(3.16)", t, "saad-broadcast", method("one-way"), words(840));
      add("(3.17)", t, "saad-broadcast", method("both-ways"), words(840));
      add("(3.28)", t, "saad-all-to-all-broadcast", none, words(16 * k));
      add("(3.38)", t, "saad-scatter", none, words(16 * k));
      add("(3.38)g", t, "saad-gather", method("chain"), words(16 * k));
      add("(3.43)", t, "saad-multiscatter", none, words(2 * k * k));
    }
  } else if (table == "004-grid") {
    for (int p : {8, 9}) {
      const std::string t = "torus:" + std::to_string(p) + "x" + std::to_string(p);
      const int k = p * p;
      add("(3.8)", t, "saad-one-to-one", method("pipeline"), words(840));
      add("(3.11)", t, "saad-one-to-one", method("four-paths"), words(840));
      add("(3.18)", t, "saad-broadcast", method("tree"), words(840));
      add("(3.19)", t, "saad-broadcast", method("split"), words(840));
      add("(3.19)'", t, "saad-broadcast", method("split-axis-pipelines"), words(840));
      add("(3.20)", t, "saad-broadcast", method("line-then-rows"), words(840));
      add("(3.29)", t, "saad-all-to-all-broadcast", method("sequential-broadcast"), words(4 * k));
      add("(3.30)", t, "saad-all-to-all-broadcast", method("daisy-chain"), words(4 * k));
      add("(3.31)", t, "saad-all-to-all-broadcast", method("alternating"), words(4 * k));
      add("(3.39)", t, "saad-scatter", none, words(16 * k));
      add("(3.39)g", t, "saad-gather", none, words(16 * k));
      add("(3.44)", t, "saad-multiscatter", none, words(k * k));
    }
  } else if (table == "004-hypercube") {
    for (int n : {4, 6}) {
      const std::string t = "hypercube:" + std::to_string(n);
      const int k = 1 << n;
      add("(3.14)", t, "saad-one-to-one", method("pipeline"), words(840));
      add("P3.2", t, "saad-one-to-one", method("n-paths"), words(840));
      add("(3.21)", t, "saad-broadcast", none, words(840));
      add("(3.33)", t, "saad-all-to-all-broadcast", none, words(n * 8 * k));
      add("(3.40)", t, "saad-scatter", none, words(16 * k));
      add("(3.40)g", t, "saad-gather", none, words(16 * k));
      add("T5,H", t, "saad-multiscatter", none, words(2 * k * k));
    }
  }
  return rows;
}

// The pipelined case the figure shows: algorithm, topology, method, words.
Row figure_case(const std::string& table) {
  if (table == "004-ring") return {"(3.5)", "ring:32", "saad-one-to-one", {{"method", "pipeline"}}, {{"words", "2048"}}};
  if (table == "004-grid") return {"(3.18)", "torus:8x8", "saad-broadcast", {{"method", "tree"}}, {{"words", "2048"}}};
  return {"(3.21)", "hypercube:6", "saad-broadcast", {}, {{"words", "2048"}}};
}

std::string arguments(const Row& row) {
  std::string text = "--topology " + row.topology + " --algorithm " + row.algorithm + kModel;
  for (const auto& [key, value] : row.options) text += " --algorithm-option " + key + "=" + value;
  for (const auto& [key, value] : row.workload) text += " --workload-option " + key + "=" + value;
  return text;
}

ExchangeParameters parameters_of(const Row& row) {
  ExchangeParameters p;
  p.block_bytes = 8;
  p.flit_bytes = 8;
  p.startup_cycles = 100;
  p.all_port = true;
  p.copy_cycles_per_byte = 0;
  p.workload_options = row.workload;
  return p;
}

MeasuredRun measure(const std::string& self_path, const Row& row, std::ostream& err, int& status) {
  return measure_verified_run(self_path, arguments(row), err, status);
}

void figure(const std::string& self_path, const std::string& table, OutputFile& png, OutputFile& csv, std::ostream& out,
            std::ostream& err, int& status) {
  Row row = figure_case(table);
  const Topology t = Topology::parse(row.topology);
  const SaadPlan best = saad_plan(row.algorithm, t, parameters_of(row), row.options);
  // 004 (3.4): nu_opt = sqrt((i - 1) N / (b tau)), b = 1 word per cycle here; i from the formula at nu = 1.
  row.options["packets"] = "1";
  const SaadPlan single = saad_plan(row.algorithm, t, parameters_of(row), row.options);
  const double hops = single.formula.startups, words = std::stod(row.workload.at("words"));
  const double nu_opt = std::sqrt((hops - 1) * words / 100.0);
  out << "\nfigure: " << row.equation << " " << row.algorithm << " on " << row.topology << ", N = " << row.workload.at("words")
      << " words: time against nu (nu_opt of (3.4) = " << std::fixed << std::setprecision(1) << nu_opt
      << ", the default nu " << best.program.packets << ")\n";
  out << std::setw(6) << "nu" << std::setw(10) << "cycles" << std::setw(10) << "t(nu)" << std::setw(8) << "ratio\n";
  csv.stream() << "packets,completion_cycles,paper_estimate_cycles,nu_opt,paper_optimum_cycles\n";
  const double optimum = std::pow(std::sqrt(words) + std::sqrt((hops - 1) * 100.0), 2);
  for (int nu : {1, 2, 3, 4, 6, 8, 10, 12, 14, 16, 18, 20, 24, 28, 32, 40, 48, 64, 96, 128}) {
    row.options["packets"] = std::to_string(nu);
    const SaadPlan plan = saad_plan(row.algorithm, t, parameters_of(row), row.options);
    const MeasuredRun m = measure(self_path, row, err, status);
    if (!m.ok) continue;
    out << std::setw(6) << nu << std::setprecision(0) << std::setw(10) << m.cycles << std::setw(10) << plan.formula.cycles
        << std::setprecision(3) << std::setw(8) << m.cycles / plan.formula.cycles << "\n"
        << std::flush;
    csv.stream() << nu << "," << m.cycles << "," << plan.formula.cycles << "," << nu_opt << "," << optimum << "\n";
  }
  const std::string csv_path = csv.path();
  csv.commit();
  out << "  table: " << csv_path << "\n";
  run_plot_script(self_path, "plot_paper_004.py", MESHMP_PAPER_004_PLOT_SCRIPT,
                  {csv_path, row.equation + " " + row.algorithm + " on " + row.topology + ", N = " +
                                 row.workload.at("words") + " words, tau = 100, b = 1"},
                  png, {}, out);
}

}  // namespace

std::vector<std::string> paper_004_tables() { return {"004-ring", "004-grid", "004-hypercube"}; }

int run_paper_004(const std::string& self_path, const std::string& table, const std::string& png, std::ostream& out,
                  std::ostream& err) {
  const std::vector<Row> rows = rows_of(table);
  OutputFile png_file, csv;
  if (!png.empty()) {
    png_file = plot_output("--plot", png);
    csv = table_beside_plot(png);
  }
  out << "meshmp paper " << table << ": 004's model (all-port, t_s = tau = 100 on every channel, a barrier per step, "
         "8-byte words on 8-byte flits: b = 1 word/cycle, rho = 0)\n";
  out << std::left << std::setw(9) << "eq" << std::setw(14) << "topology" << std::setw(26) << "algorithm"
      << std::setw(22) << "method" << std::right << std::setw(4) << "nu" << std::setw(7) << "steps" << std::setw(8)
      << "paper" << std::setw(7) << "ratio" << std::setw(8) << "words" << std::setw(9) << "paper" << std::setw(7)
      << "ratio" << std::setw(9) << "cycles" << std::setw(9) << "paper" << std::setw(7) << "ratio" << "  exact\n";
  int status = 0;
  for (const Row& row : rows) {
    const SaadPlan plan = saad_plan(row.algorithm, Topology::parse(row.topology), parameters_of(row), row.options);
    const AlgorithmOptions options(row.algorithm, find_algorithm(row.algorithm).options, row.options);
    const auto estimate = paper_estimate(find_algorithm(row.algorithm), Topology::parse(row.topology), parameters_of(row), options);
    const std::string method = estimate.choices.substr(7, estimate.choices.find(' ') - 7);
    const MeasuredRun m = measure(self_path, row, err, status);
    if (!m.ok) continue;
    const SaadFormula& f = plan.formula;
    out << std::left << std::setw(9) << row.equation << std::setw(14) << row.topology << std::setw(26) << row.algorithm
        << std::setw(22) << method << std::right << std::fixed << std::setprecision(0) << std::setw(4)
        << (plan.program.packets > 0 ? std::to_string(plan.program.packets) : std::string("-")) << std::setw(7) << m.steps << std::setw(8) << f.startups << std::setprecision(3)
        << std::setw(7) << m.steps / f.startups << std::setprecision(0) << std::setw(8) << m.units << std::setw(9)
        << f.words << std::setprecision(3) << std::setw(7) << m.units / f.words << std::setprecision(0) << std::setw(9)
        << m.cycles << std::setw(9) << f.cycles << std::setprecision(3) << std::setw(7) << m.cycles / f.cycles << "  "
        << (f.exact ? "yes" : "no") << "\n"
        << std::flush;
  }
  out << "(* under port_rule=full-duplex: the ring's rule forbids it; g: the gather, by the paper's duality; ': the "
         "paper's preferred remedy of (3.19); nu -: no pipelining; formulas: meshmp run prints each)\n";
  if (csv.is_open()) figure(self_path, table, png_file, csv, out, err, status);
  return status;
}

}  // namespace meshmp
