// `meshmp paper TABLE`: regenerates rows of a paper's table from runs of the machine, printed beside the
// paper's formula with measured / formula, and each run's energy (statistics.energy, docs/energy.md).
// Each run is a child `meshmp run` (SystemC elaborates one design per process); the counts come from its
// statistics.schedule, measured by the machine.
//   000-table1: suh-mesh (000 §3-4, Table 1): C start-ups and R C^2 / 2 blocks on R x C meshes (R <= C);
//     (n/2) a_1 and (n/4) a_1^2 a_2..a_n on n-dimensional meshes (a_1 the longest side).
//   001-theorem1: tseng-ring (001 Theorem 1): 2d - 2 start-ups and Lemma 6's blocks plus 3 (d = 3) or 2.
//   001-table3: tseng-t4 (001 Table 3, Theorem 2): 4d - 6 start-ups and the table's transmission term;
//     and tseng-t1 against Lemma 7.
//   001-table4: tseng-c64 on 32 x 32 x 32 (001 Table 4, Theorem 3), 1-byte blocks: 32,768 nodes, about
//     11.5 GB of host memory, vm.max_map_count above 70,000 and over an hour of host time.
//   002-a1, 002-a2: dima-a1 / dima-a2 in 002's model (store-and-forward, a barrier per step; single-port
//     / all-port): steps against Corollary 3 / Corollary 4 and against the bounds of §3, AS(G) and the
//     cut bound.
#include "sims/paper_command.h"

#include <nlohmann/json.hpp>

#include "firmware/paper002/dimension_exchange_schedule.h"
#include "sims/child_run.h"
#include "sims/paper_003.h"
#include "sims/paper_004.h"
#include "sims/paper_004_summary.h"
#include "topology/config_error.h"
#include "topology/topology.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <tuple>

namespace meshmp {
namespace {

struct PaperRow {
  std::string topology;
  std::string algorithm;
  std::string sync;                // algorithm option, empty for none
  double startups_formula;         // synchronized steps the paper gives
  double blocks_formula;           // sum of each step's largest message, in blocks
  std::string formula_note;        // where the formula comes from
  std::string run_options;         // more options for the run
  bool against_bounds = false;     // 002: print the steps against AS(G) and the cut bound, not blocks
  int block_bytes = 8;             // m
};

// 002 Corollary 3 (single-port A1) and Corollary 4 (multiport A2) from the dimensions' own schedules.
double corollary3_steps(const std::string& spec) {
  const Topology t = Topology::parse(spec);
  double steps = 0;
  for (int d = 0; d < t.num_dimensions(); ++d) {
    const Dimension dim = t.dimension(d);
    steps += static_cast<double>(t.num_nodes()) / dim.size *
             static_cast<double>(dimension_exchange_schedule(dim.kind, dim.size, false).size());
  }
  return steps;
}
double corollary4_steps(const std::string& spec) {
  const Topology t = Topology::parse(spec);
  const Dimension h = t.dimension(0);
  return std::pow(h.size, t.num_dimensions() - 1) *
         static_cast<double>(dimension_exchange_schedule(h.kind, h.size, true).size());
}

// 001 Lemma 6 plus Theorem 1's overlap blocks, for a ring of 2^d nodes.
double theorem1_blocks(int d) {
  const double two = std::ldexp(1.0, 2 * d - 1);
  const double lemma6 = d <= 5 ? two * 31.0 / 96.0 + std::ldexp(1.0, d - 3) - 1.0 / 3.0
                               : two * 65.0 / 192.0 - std::ldexp(1.0, d - 2) - 1.0 / 3.0;
  return lemma6 + (d == 3 ? 3 : 2);
}

std::vector<PaperRow> rows_of(const std::string& table) {
  std::vector<PaperRow> rows;
  if (table == "000-table1") {
    for (auto [r, c] : {std::pair{4, 4}, {6, 6}, {8, 8}, {4, 8}, {6, 10}, {16, 16}})
      rows.push_back({"mesh:" + std::to_string(c) + "x" + std::to_string(r), "suh-mesh", "", double(c),
                      double(r) * c * c / 2, "C, R C^2 / 2", "", false});
    for (auto [a1, a2, a3] : {std::tuple{4, 4, 4}, {6, 4, 2}, {8, 4, 4}, {6, 6, 6}})
      rows.push_back({"mesh:" + std::to_string(a1) + "x" + std::to_string(a2) + "x" + std::to_string(a3), "suh-mesh", "",
                      1.5 * a1, 0.75 * a1 * a1 * a2 * a3, "(n/2) a1, (n/4) a1^2 a2 a3", "", false});
    rows.push_back({"mesh:4x4x4x4", "suh-mesh", "", 8, 1024, "(n/2) a1, (n/4) a1^2 a2 a3 a4", "", false});
  } else if (table == "002-a1" || table == "002-a2") {
    const bool a1 = table == "002-a1";
    const std::string model = std::string(" --switching store-and-forward --buffer-flits 17") +
                              (a1 ? "" : " --port-model all-port");
    const std::vector<std::string> shapes =
        a1 ? std::vector<std::string>{"hypercube:4", "hypercube:6", "torus:4x4", "torus:5x3", "torus:8x8", "torus:4x4x4",
                                      "ghc:3x4", "ghc:3x3x3", "ring:12", "mesh:9", "mesh:4x4", "mesh:3x5",
                                      "product:ring4xpath3"}
           : std::vector<std::string>{"hypercube:2", "hypercube:4", "torus:3x3", "torus:4x4", "torus:5x5", "torus:6x6",
                                      "torus:8x8", "mesh:4x4", "torus:3x3x3x3"};
    for (const std::string& shape : shapes) {
      PaperRow row{shape, a1 ? "dima-a1" : "dima-a2", "barrier", a1 ? corollary3_steps(shape) : corollary4_steps(shape),
                   0, a1 ? "Corollary 3" : "Corollary 4", model, true};
      rows.push_back(row);
    }
  } else if (table == "001-theorem1") {
    for (int d = 3; d <= 7; ++d)
      rows.push_back({"ring:" + std::to_string(1 << d), "tseng-ring", "", 2.0 * d - 2, theorem1_blocks(d),
                      "2d - 2, Lemma 6 + " + std::string(d == 3 ? "3" : "2"), "", false});
  } else if (table == "001-table3") {
    for (int d = 4; d <= 5; ++d) {
      const double n = std::ldexp(1.0, d);
      // Table 3's T4 row: the d = 4 line prints (1/3) 2^(d+2); Theorem 2 with Theorem 1 at d - 1 = 3
      // (three overlap blocks) gives (8/3) 2^(d+2), which is what the machine measures (docs/paper-000-001-exchange-on-tori.md).
      const double t4 = d == 4 ? std::ldexp(31.0 / 96.0, 3 * d - 1) + 5 * std::ldexp(1.0, 2 * d - 2) + std::ldexp(8.0 / 3, d + 2)
                               : std::ldexp(31.0 / 96.0, 3 * d - 1) + 5 * std::ldexp(1.0, 2 * d - 2) + std::ldexp(5.0 / 3, d + 2);
      const std::string spec = "torus:" + std::to_string(1 << d) + "x" + std::to_string(1 << d);
      rows.push_back({spec, "tseng-t4", "barrier", 4.0 * d - 6, t4,
                      d == 4 ? "Table 3 (d = 4, with 8/3 for the printed 1/3)" : "Table 3 (5 <= d <= 6)", "", false});
      rows.push_back({spec, "tseng-t1", "barrier", 4.0 * d - 4, 2 * n * theorem1_blocks(d), "Lemma 7: 2 T_1D(d, 2^d b)", "", false});
    }
  } else if (table == "001-table4") {
    // C64 on 2^5 x 2^5 x 2^5 (32,768 nodes; 1-byte blocks so that the memories fit): Theorem 3's start-ups
    // 9 + 4 (2 (d - 2) - 2) = 8d - 15 (Table 4 prints 8d - 25: docs/paper-000-001-exchange-on-tori.md) and Table 4's d = 5 transmission,
    // which equals Theorem 3's 9 2^(3d-1) + 4 T_1D(3, 64 2^(2(d-2))) blocks.
    const int d = 5;
    const double blocks = std::ldexp(31.0 / 96.0, 4 * d - 1) + 5 * std::ldexp(1.0, 3 * d) + std::ldexp(1.0 / 3, 2 * d + 7);
    // Without barriers (the run measured here: 72 minutes on 2 host threads; the counts do not depend on it).
    rows.push_back({"torus:32x32x32", "tseng-c64", "", 8.0 * d - 15, blocks,
                    "Theorem 3 (start-ups), Table 4 (d = 5)", "", false, 1});
  }
  return rows;
}

}  // namespace

std::vector<std::string> paper_tables() {
  return {"000-table1", "001-theorem1", "001-table3", "001-table4", "002-a1", "002-a2"};
}

int run_paper_table(const std::string& self_path, const std::string& table, std::ostream& out, std::ostream& err) {
  const std::vector<PaperRow> rows = rows_of(table);
  if (rows.empty()) {
    err << "meshmp: error: table = '" << table << "': unknown table; known:";
    for (const auto& t : paper_tables()) err << " " << t;
    for (const auto& t : paper_003_tables()) err << " " << t;
    for (const auto& t : paper_004_tables()) err << " " << t;
    for (const auto& t : paper_004_summary_tables()) err << " " << t;
    err << "\n";
    return 2;
  }
  const bool bounds = rows.front().against_bounds;
  std::size_t topology_width = 14;
  for (const PaperRow& row : rows) topology_width = std::max(topology_width, row.topology.size() + 2);
  out << "meshmp paper " << table << " (t_s = 100 cycles, " << rows.front().block_bytes
      << "-byte blocks; counts measured by the machine)\n";
  out << std::left << std::setw(static_cast<int>(topology_width)) << "topology" << std::setw(12) << "algorithm"
      << std::right << std::setw(9) << "steps" << std::setw(9) << "formula" << std::setw(8) << "ratio";
  if (bounds)
    out << std::setw(10) << "AS(G)" << std::setw(8) << "ratio" << std::setw(10) << "cut" << std::setw(8) << "ratio";
  else
    out << std::setw(10) << "blocks" << std::setw(10) << "formula" << std::setw(8) << "ratio";
  out << std::setw(10) << "cycles" << std::setw(11) << "energy uJ" << std::setw(9) << "host s" << "  formula from\n";
  int status = 0;
  for (const PaperRow& row : rows) {
    std::string command;
    int exit_status = 0;
    const auto run = run_child(self_path,
                               "--topology " + row.topology + " --algorithm " + row.algorithm + " -m " +
                                   std::to_string(row.block_bytes) + row.run_options +
                                   (row.sync.empty() ? "" : " --algorithm-option sync=" + row.sync),
                               command, exit_status, terminal_progress(err));
    if (!run) {
      err << "meshmp: error: " << row.algorithm << " on " << row.topology << " failed (" << command << ")\n";
      status = status_after_failed_child(status, exit_status);
      continue;
    }
    const nlohmann::json& stats = *run;
    const auto& schedule = stats["statistics"]["schedule"];
    const double steps = schedule["synchronized_steps"].get<double>();
    const double blocks = schedule["sum_of_step_max_blocks"].get<double>();
    out << std::left << std::setw(static_cast<int>(topology_width)) << row.topology << std::setw(12) << row.algorithm
        << std::right << std::fixed
        << std::setprecision(0) << std::setw(9) << steps << std::setw(9) << row.startups_formula << std::setprecision(3)
        << std::setw(8) << steps / row.startups_formula;
    if (bounds) {
      const auto& b = stats["statistics"]["bounds"];
      const double status = b["average_status"].get<double>(), cut = b["cut_bound_unrounded_steps"].get<double>();
      out << std::setprecision(1) << std::setw(10) << status << std::setprecision(3) << std::setw(8) << steps / status
          << std::setprecision(1) << std::setw(10) << cut << std::setprecision(3) << std::setw(8) << steps / cut;
    } else {
      out << std::setprecision(0) << std::setw(10) << blocks << std::setprecision(1) << std::setw(10)
          << row.blocks_formula << std::setprecision(3) << std::setw(8) << blocks / row.blocks_formula;
    }
    out << std::setprecision(0) << std::setw(10) << stats["statistics"]["completion_cycles"].get<double>()
        << std::setprecision(3) << std::setw(11) << stats["statistics"]["energy"]["joules"]["total"].get<double>() * 1e6
        << std::setprecision(1) << std::setw(9)
        << stats["statistics"]["simulation"]["host_seconds"].get<double>() << "  " << row.formula_note << "\n" << std::flush;
  }
  return status;
}

void PaperCommand::add_to(CLI::App& command) {
  command
      .add_option("table", table_,
                  "000-table1, 001-theorem1, 001-table3, 001-table4, 002-a1, 002-a2, 003-paths, 003-exchange, 003-ports, "
                  "003-gray, 004-ring, 004-grid, 004-hypercube, 004-table1 or 004-table2")
      ->required();
  command.add_option("--plot", png_,
                     "003-paths: also write the table as CSV beside PNG and plot T / bound against B; 004-*: also time "
                     "one pipelined case against nu (CSV beside PNG) and plot it with the paper's t(nu) and nu_opt");
}

int PaperCommand::run(const CommandContext& context) {
  const auto is_one_of = [this](const std::vector<std::string>& tables) {
    return std::find(tables.begin(), tables.end(), table_) != tables.end();
  };
  const bool is_004 = is_one_of(paper_004_tables());
  if (!png_.empty() && table_ != "003-paths" && !is_004)
    throw ConfigError("--plot", png_, "only the tables 003-paths and 004-* draw a plot (" + table_ + " has none)");
  if (is_004) return run_paper_004(context.self_path, table_, png_, context.out, context.err);
  if (is_one_of(paper_004_summary_tables()))
    return run_paper_004_summary(context.self_path, table_, context.out, context.err);
  if (is_one_of(paper_003_tables())) return run_paper_003(context.self_path, table_, png_, context.out, context.err);
  return run_paper_table(context.self_path, table_, context.out, context.err);
}

}  // namespace meshmp
