// The meshmp command line: run an exchange algorithm on a modelled machine, sweep a grid of runs,
// regenerate a paper's table, run synthetic traffic, list the algorithms, or measure the speed.
#include <CLI/CLI.hpp>
#include <systemc>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <thread>
#include <vector>

#include "firmware/algorithm_registry.h"
#include "firmware/workload.h"
#include "topology/config_error.h"
#include "hw/machine_settings.h"
#include "hw/model_size.h"
#include "hw/routing.h"
#include "hw/stop_request.h"
#include "sims/bench_command.h"
#include "sims/build_identity.h"
#include "sims/cli_options.h"
#include "sims/merge_command.h"
#include "sims/paper_003.h"
#include "sims/paper_004.h"
#include "sims/fidelity_command.h"
#include "sims/paper_004_summary.h"
#include "sims/output_file.h"
#include "sims/paper_command.h"
#include "sims/run_command.h"
#include "sims/stop_signals.h"
#include "sims/sweep_command.h"
#include "sims/traffic_command.h"

namespace {
// This program's own file, for the commands that run points in child processes.
std::string self_path(const char* argv0) {
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) return argv0;
  self[length] = '\0';
  return self;
}
}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  CLI::App app{
      "meshmp - a SystemC/TLM-2.0 model of a wormhole-routed multiprocessor.\n\n"
      "Processors run exchange algorithms as firmware; DMA engines move real bytes between node memories "
      "through cycle-level wormhole routers of a mesh, torus, hypercube or any Cartesian product. After a "
      "run every node's memory is verified and statistics are written as JSON.\n\n"
      "Exit status: 0 completed and verified, 1 the run failed (deadlock, stall, wrong data), 2 bad input.",
      "meshmp"};
  app.set_version_flag("--version", meshmp::version_line());
  app.require_subcommand(0, 1);

  meshmp::RunOptions run_options;
  CLI::App* run = app.add_subcommand(
      "run", "Run an exchange algorithm on the machine (the default: torus:8x8, direct, 64-byte blocks).");
  run_options.add_to(*run);
  run->footer(R"(
DESCRIPTION
  Builds the machine (one router, DMA engine, memory and processor per node), fills every node's send
  buffer with N blocks of m bytes (block i->j at j*m, a pattern of i, j and the byte index), runs the
  algorithm's firmware on every processor, then checks every node's receive buffer and reports each
  lost, duplicated or misplaced block by source, destination and place.

EXAMPLES
  meshmp run --topology torus:8x8 --algorithm direct --vcd wave.vcd --trace-nodes 0,9
  meshmp run --topology hypercube:6 --algorithm pairwise --port-model all-port -m 256
  meshmp run --config sims/examples/hypercube6_pairwise.json --startup-cycles 50

CONFIG FILE
  )" + meshmp::config_file_help() + R"(
  Unknown keys and keys given twice are errors.

EXIT STATUS
  0 completed and verified; 1 the run failed (deadlock: the blocked channels are listed; stall: what each
  node waits for; firmware error; wrong data); 2 bad input (the message names field, value and rule).)");

  app.add_subcommand("list", "List the exchange algorithms and routing functions.");

  meshmp::TrafficCommand traffic_command;
  CLI::App* traffic = app.add_subcommand(
      "traffic", "Synthetic traffic on the network alone: latency and accepted load at one offered load, or a sweep.");
  traffic_command.add_to(*traffic);
  traffic->footer(R"(
DESCRIPTION
  Every node is a Bernoulli source of fixed-length packets (--packet-flits, the head included) at the
  offered load --rate in flits/node/cycle, with an unbounded source queue. Packets created during the
  measurement window are measured from creation to the ejection of their tail (source queueing
  included); the accepted load counts the flits ejected during the window. With --rates each load runs
  in its own process and the curve is written as CSV and PNG; --compare-reference compares it with a
  reference curve (sims/reference/booksim2-mesh8x8-uniform.csv: BookSim2's input-queued router, which
  --pipeline-depth 4 --vcs 4 --buffer-flits 8 --link-latency 1 models).

EXAMPLES
  meshmp traffic --topology mesh:8x8 --pipeline-depth 4 --rate 0.2
  meshmp traffic --topology mesh:8x8 --pipeline-depth 4 --rates 0.02:0.44:0.02 \
      --compare-reference sims/reference/booksim2-mesh8x8-uniform.csv
  meshmp traffic --topology torus:8x8 --pattern transpose --rate 0.1)");

  std::string bench_json;
  CLI::App* bench = app.add_subcommand("bench", "Measure simulation speed (cycles/s, flit-hops/s).");
  bench->add_option("-o,--json", bench_json, "also write the results as JSON to this file");
  bool bench_scale = false;
  bench->add_flag("--scale", bench_scale,
                  "also run the scale case: direct exchange on torus:64x64 with 8-byte blocks on 2 host threads "
                  "(about 2.5 minutes here; time and peak memory against the targets 5 minutes and 1.5 GB)");
  const int host_cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  int bench_threads = 1;
  bench->add_option("--host-threads", bench_threads,
                    "host threads stepping the routers in every other case (1.." + std::to_string(host_cores) +
                        ", this host's hardware threads)  [default 1]")
      ->check(CLI::Range(1, host_cores));

  meshmp::SweepCommand sweep_command;
  CLI::App* sweep = app.add_subcommand(
      "sweep", "Run a grid of exchanges (topologies x algorithms x m x t_s x link width), one CSV row per point.");
  sweep_command.add_to(*sweep);
  sweep->footer(R"(
EXAMPLE
  meshmp sweep --topologies torus:16x16,torus:32x32 --algorithms tseng-t4,tseng-t1,direct \
      -m 8,64 --startup-cycles 0,100,2500 --csv sweep.csv)");

  std::string merged_csv;
  std::vector<std::string> shard_csvs;
  CLI::App* merge = app.add_subcommand(
      "merge", "Join the CSVs of a sharded sweep (sweep --shard I/N) into the CSV of the whole sweep, in the grid's order.");
  merge->add_option("--csv", merged_csv, "the merged CSV")->required();
  merge->add_option("shards", shard_csvs, "the shards' CSVs (every shard: a point missing below the last is an error)")
      ->required();
  merge->footer(R"(
EXAMPLE
  parallel meshmp sweep --topologies torus:8x8,torus:16x16 --algorithms tseng-t4,direct -m 8,64 \
      --shard {}/4 --csv shard-{}.csv ::: 1 2 3 4
  meshmp merge --csv sweep.csv shard-*.csv)");

  std::string paper_table;
  CLI::App* paper = app.add_subcommand(
      "paper", "Regenerate a paper's table rows from runs of the machine, beside the paper's formulas.");
  std::string paper_png;
  paper->add_option("table", paper_table,
                    "000-table1, 001-theorem1, 001-table3, 001-table4, 002-a1, 002-a2, 003-paths, 003-exchange, 003-ports, "
                    "003-gray, 004-ring, 004-grid, 004-hypercube, 004-table1 or 004-table2")
      ->required();
  paper->add_option("--plot", paper_png,
                    "003-paths: also write the table as CSV beside PNG and plot T / bound against B; 004-*: also time "
                    "one pipelined case against nu (CSV beside PNG) and plot it with the paper's t(nu) and nu_opt");

  meshmp::FidelityCommand fidelity_command;
  CLI::App* fidelity = app.add_subcommand(
      "fidelity", "Measure the transaction-level network's error against the cycle level: algorithms and traffic.");
  fidelity_command.add_to(*fidelity);
  fidelity->footer(R"(
DESCRIPTION
  Runs every algorithm that runs on each machine without barriers (sync=none where it has the option) at
  both levels (meshmp run --fidelity both), and synthetic traffic at loads from 10% to 100% of the cycle
  level's saturation rate (found by bisection: mean latency 3 times its low-load value; meshmp traffic at
  cycle and tlm), each in its own process. Prints the completion error (tlm / cycle - 1) of every
  algorithm, the latency error of every load and the host times, as the Markdown table docs/fidelity.md
  holds.

EXAMPLES
  meshmp fidelity --markdown fidelity.md --json fidelity.json
  meshmp fidelity -t torus:8x8 -a direct,tseng-t1 --patterns uniform --loads 0.1,0.5,1)");

  std::string bench_case;
  CLI::App* bench_case_cmd = app.add_subcommand("bench-case", "Run one benchmark case (used by bench).");
  bench_case_cmd->add_option("case", bench_case, "kernel, uniform, direct, uniform-rtl, direct-rtl or scale")->required();
  int bench_case_threads = 1;
  bench_case_cmd->add_option("--host-threads", bench_case_threads, "host threads stepping the routers")
      ->check(CLI::Range(1, host_cores));
  bench_case_cmd->group("");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  try {
    if (app.got_subcommand("list")) {
      auto print_option = [](const char* flag, const meshmp::AlgorithmOption& o) {
        std::cout << "      " << flag << " " << o.name << "=<" << meshmp::to_string(o.type);
        for (std::size_t i = 0; i < o.choices.size(); ++i) std::cout << (i ? "|" : ": ") << o.choices[i];
        if (o.type == meshmp::AlgorithmOption::Type::Integer) std::cout << " " << o.min << ".." << o.max;
        std::cout << ">  " << o.help << "  [default " << o.default_value << "]\n";
      };
      std::cout << "exchange algorithms:\n";
      for (const auto& a : meshmp::algorithms()) {
        std::cout << "  " << a.name << " - " << a.summary << " [" << a.source << "; workload " << a.workload << "]\n";
        for (const auto& o : a.options) print_option("--algorithm-option", o);
      }
      std::cout << "workloads (each algorithm solves one):\n";
      for (const auto& w : meshmp::workload_kinds()) {
        std::cout << "  " << w.name << " - " << w.summary << " [" << w.source << "]\n";
        for (const auto& o : w.options) print_option("--workload-option", o);
      }
      std::cout << "routing functions:";
      for (const auto& name : meshmp::routing_function_names()) std::cout << " " << name;
      std::cout << " (plus source routes chosen by the firmware)\n";
      return 0;
    }
    if (app.got_subcommand("bench")) return meshmp::run_benchmarks(self_path(argv[0]), bench_json, bench_scale, bench_threads, std::cout, std::cerr);
    if (app.got_subcommand("sweep")) return sweep_command.run(self_path(argv[0]), std::cout, std::cerr);
    if (app.got_subcommand("fidelity")) return fidelity_command.run(self_path(argv[0]), std::cout, std::cerr);
    if (app.got_subcommand("merge")) return meshmp::run_merge(merged_csv, shard_csvs, std::cout);
    if (app.got_subcommand("paper")) {
      const auto tables_004 = meshmp::paper_004_tables();
      const bool is_004 = std::find(tables_004.begin(), tables_004.end(), paper_table) != tables_004.end();
      if (!paper_png.empty() && paper_table != "003-paths" && !is_004)
        throw meshmp::ConfigError("--plot", paper_png,
                                  "only the tables 003-paths and 004-* draw a plot (" + paper_table + " has none)");
      if (is_004) return meshmp::run_paper_004(self_path(argv[0]), paper_table, paper_png, std::cout, std::cerr);
      const auto summary_004 = meshmp::paper_004_summary_tables();
      if (std::find(summary_004.begin(), summary_004.end(), paper_table) != summary_004.end())
        return meshmp::run_paper_004_summary(self_path(argv[0]), paper_table, std::cout, std::cerr);
      const auto tables_003 = meshmp::paper_003_tables();
      if (std::find(tables_003.begin(), tables_003.end(), paper_table) != tables_003.end())
        return meshmp::run_paper_003(self_path(argv[0]), paper_table, paper_png, std::cout, std::cerr);
      return meshmp::run_paper_table(self_path(argv[0]), paper_table, std::cout, std::cerr);
    }
    if (app.got_subcommand("bench-case")) return meshmp::run_benchmark_case(bench_case, bench_case_threads, std::cout, std::cerr);
    if (app.got_subcommand("traffic"))
      return traffic_command.run(self_path(argv[0]), std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                 std::cerr);
    const meshmp::MachineConfig config = run_options.resolve();
    if (run_options.print_config()) {
      if (auto error = config.validate()) {
        std::cerr << "meshmp: error: " << *error << "\n";
        return 2;
      }
      std::cout << config.to_json().dump(1) << "\n";
      return 0;
    }
    return meshmp::run_machine(config, std::cout, std::cerr, run_options.quiet());
  } catch (const meshmp::ConfigError& e) {
    std::cerr << "meshmp: error: " << e.what() << "\n";
    return 2;
  } catch (const meshmp::OutputError& e) {
    std::cerr << "meshmp: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {  // std::bad_alloc, or SystemC's sc_report of one thrown in a process
    if (!meshmp::is_out_of_memory(e)) throw;
    std::cerr << "meshmp: error: " << meshmp::out_of_memory_message() << "\n";
    return 2;
  } catch (const meshmp::StopRequested&) {
    std::cerr << "meshmp: stopped by " << meshmp::signal_name(meshmp::stop_signal())
              << "; what finished is written above\n";
    return meshmp::stopped_exit_status();
  }
}

// The program's entry: SystemC's library would print its copyright banner before sc_main; the tool
// silences it (for itself and the child processes of bench and traffic sweeps) and then starts SystemC.
// What it printed must have reached its standard output: a failed write there (a full disk, a closed
// pipe) is an error too.
int main(int argc, char* argv[]) {
  meshmp::install_stop_handlers();  // first: a signal from here on stops the program cleanly
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  int status = sc_core::sc_elab_and_sim(argc, argv);
  errno = 0;
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::cerr << "meshmp: error: writing the standard output failed: "
              << (errno != 0 ? std::strerror(errno) : "the write failed") << "\n";
    if (status == 0) status = 1;
  }
  return status;
}
