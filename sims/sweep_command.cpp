// `meshmp sweep`: one `meshmp run` per point of a grid (topologies x algorithms x block sizes x start-up
// costs x link widths), each in its own process (no shell between), several at once, with a progress
// line per finished point and one CSV row per point: the configuration, the exit status, whether every
// byte was verified, completion cycles, the zero-load model and the paper's formula, the schedule counts,
// the contention, and the error of a point that failed. Every point is checked before the first runs: an
// input error is exit 2 naming the point; a point whose algorithm does not support the machine is a row
// marked unsupported, with the reason. The CSV is rewritten whole (beside it, then renamed) as each point
// finishes, so a kill loses only the running points; --resume keeps its rows and runs the others. SIGINT /
// SIGTERM stop the running points and keep the finished rows. --shard I/N runs every N-th point from the
// I-th, each row naming its point's place in the whole grid, for `meshmp merge` (sims/merge_command.cpp).
#include "sims/sweep_command.h"

#include <nlohmann/json.hpp>


#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "firmware/api/algorithm_registry.h"
#include "hw/base/stop_request.h"
#include "sims/child_process.h"
#include "sims/child_run.h"
#include "sims/cli_options.h"
#include "sims/output_file.h"
#include "sims/run_command.h"
#include "sims/stop_signals.h"
#include "sims/sweep_csv.h"
#include "topology/config_error.h"
#include "topology/topology.h"

namespace meshmp {
namespace {

// A comma-separated list; an empty item (`a,,b`, a trailing comma) or one given twice (its points would
// run twice) is an error naming `field`.
std::vector<std::string> split_list(const std::string& field, const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (item.empty()) throw ConfigError(field, text, "an empty item in the comma-separated list");
    if (std::find(items.begin(), items.end(), item) != items.end())
      throw ConfigError(field, text, "lists " + item + " twice; give each once");
    items.push_back(item);
  }
  if (!text.empty() && text.back() == ',') throw ConfigError(field, text, "an empty item in the comma-separated list");
  if (items.empty()) throw ConfigError(field, text, "expected at least one value");
  return items;
}

std::vector<long> whole_numbers(const std::string& field, const std::string& text, long minimum) {
  std::vector<long> values;
  for (const std::string& item : split_list(field, text)) {
    std::size_t used = 0;
    long value = -1;
    try {
      value = std::stol(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || value < minimum)
      throw ConfigError(field, item, "expected a comma-separated list of whole numbers >= " + std::to_string(minimum));
    if (std::find(values.begin(), values.end(), value) != values.end())
      throw ConfigError(field, text, "lists " + std::to_string(value) + " twice; give each once");
    values.push_back(value);
  }
  if (values.empty()) throw ConfigError(field, text, "expected at least one value");
  return values;
}

struct SweepPoint {
  std::size_t index;  // its place in the whole grid, the same in every shard
  std::string topology, algorithm;
  long block_bytes, startup_cycles, flit_bytes;
  std::string unsupported;  // why its algorithm does not run on it, empty when it runs
};

// The point's `meshmp run` arguments (after `run`), the sweep's --run-options last.
std::vector<std::string> run_arguments(const SweepPoint& p, const std::vector<std::string>& run_options) {
  std::vector<std::string> args{"--topology",       p.topology,
                                "--algorithm",      p.algorithm,
                                "-m",               std::to_string(p.block_bytes),
                                "--startup-cycles", std::to_string(p.startup_cycles),
                                "--flit-bytes",     std::to_string(p.flit_bytes)};
  args.insert(args.end(), run_options.begin(), run_options.end());
  return args;
}

std::string describe(const SweepPoint& p) {
  return p.topology + " " + p.algorithm + " m=" + std::to_string(p.block_bytes) + " t_s=" +
         std::to_string(p.startup_cycles) + " flit=" + std::to_string(p.flit_bytes);
}

// Checks the point as `meshmp run` would before building its machine: the empty string when it can run;
// why not when its algorithm does not support the machine. Throws ConfigError naming the point for an
// input error.
std::string check_point(const SweepPoint& p, const std::vector<std::string>& run_options) {
  CLI::App app;
  RunOptions options;
  options.add_to(app);
  std::vector<std::string> args = run_arguments(p, run_options);
  std::reverse(args.begin(), args.end());  // CLI11 takes a vector of arguments last first
  MachineConfig config;
  try {
    app.parse(args);
    config = options.resolve();
  } catch (const CLI::ParseError& e) {
    throw ConfigError("point", describe(p), std::string("--run-options: ") + e.what());
  } catch (const ConfigError& e) {
    throw ConfigError("point", describe(p), e.what());
  }
  if (app.get_option("--stats-json")->count() > 0)
    throw ConfigError("--run-options", command_line(run_options),
                      "-o / --stats-json: a sweep writes each run's statistics itself and its rows to --csv");
  for (const auto& [field, path] : {std::pair{"output.vcd", config.vcd}, std::pair{"output.detail_csv", config.detail_csv},
                                    std::pair{"output.messages_csv", config.messages_csv},
                                    std::pair{"output.trace_rtl", config.trace_rtl}})
    if (!path.empty())
      throw ConfigError("--run-options", command_line(run_options),
                        std::string(field) + " = '" + path + "': every point would write that one file; a sweep writes "
                                                             "each run's statistics itself and its rows to --csv");
  if (auto refusal = check_run(config)) {
    if (refusal->unsupported) return refusal->message;
    throw ConfigError("point", describe(p), refusal->message);
  }
  return "";
}

// A point's key as sweep_point_key reads it from a row: its parameters and the sweep's run options.
std::string point_key(const SweepPoint& p, const std::string& run_options) {
  return p.topology + '\n' + p.algorithm + '\n' + std::to_string(p.block_bytes) + '\n' +
         std::to_string(p.startup_cycles) + '\n' + std::to_string(p.flit_bytes) + '\n' + run_options;
}

// What --resume keeps of an earlier CSV: per point of this sweep its row, when the CSV holds one that did
// not fail (a failed point runs again). A row of a point not in this sweep is an error: the CSV is another
// sweep's, and keeping it would put two sweeps' points (and their numbers) in one file.
struct SweptRows {
  std::vector<std::string> rows;  // per point, empty when it is to run
  std::vector<bool> finished;
  std::size_t resumed = 0;
};

SweptRows rows_to_resume(const std::string& csv, const std::vector<SweepPoint>& points, const std::string& run_options) {
  SweptRows kept{std::vector<std::string>(points.size()), std::vector<bool>(points.size(), false), 0};
  std::map<std::string, std::size_t> index;
  for (std::size_t k = 0; k < points.size(); ++k) index[point_key(points[k], run_options)] = k;
  std::size_t line = 1;
  for (auto& row : read_sweep_csv("--resume", csv, true)) {
    ++line;
    const auto found = index.find(sweep_point_key(row));
    if (found == index.end()) {
      throw ConfigError("--resume", csv,
                        "row " + std::to_string(line) + " (topology " + row[kTopologyField] + ", algorithm " +
                            row[kTopologyField + 1] + ", m " + row[kTopologyField + 2] + ", t_s " +
                            row[kTopologyField + 3] + ", flit bytes " + row[kTopologyField + 4] +
                            ", run options '" + row[row.size() - 2] +
                            "') is not a point of this sweep: the CSV is another sweep's; give this sweep its own --csv");
    } else if (row[kVerifiedField] != "failed" && !kept.finished[found->second]) {
      row[kPointField] = std::to_string(points[found->second].index);  // its place in this sweep's grid
      kept.rows[found->second] = csv_line(row);
      kept.finished[found->second] = true;
      ++kept.resumed;
    }
  }
  return kept;
}

// --shard I/N: which shard (1..N) of how many.
struct Shard {
  long index = 1, count = 1;
};

Shard parse_shard(const std::string& text) {
  const std::string rule = "expected I/N with 1 <= I <= N <= " + std::to_string(kMaxShards) +
                           ", e.g. 2/8 for the second of eight shards";
  Shard shard;
  char slash = 0;
  std::istringstream in(text);
  if (!(in >> shard.index >> slash >> shard.count) || slash != '/' || in.peek() != EOF || shard.index < 1 ||
      shard.index > shard.count || shard.count > kMaxShards)
    throw ConfigError("--shard", text, rule);
  return shard;
}

// "verified", "NOT verified", "failed", "unsupported": a point's verdict in words.
std::string verdict_words(const std::string& verdict) {
  if (verdict == "yes") return "verified";
  if (verdict == "no") return "NOT verified";
  return verdict;
}

// The sweep's progress: the points done and failed, and a line per finished point with the host time left,
// estimated from the nodes of the points run and still to run (a point's host time grows with its machine;
// the small machines of a grid finish first, so a count of points alone promises too little time).
class SweepProgress {
 public:
  SweepProgress(const std::vector<SweepPoint>& points, const std::vector<bool>& finished, std::size_t resumed)
      : done_(resumed), points_(points.size()) {
    for (std::size_t k = 0; k < points.size(); ++k) {
      nodes_.push_back(Topology::parse(points[k].topology).num_nodes());
      if (!finished[k]) nodes_left_ += nodes_.back();
    }
  }
  // Point `k`, `p`, finished: counted, and its line printed.
  void point_done(std::ostream& out, std::size_t k, const SweepPoint& p, const std::string& verdict,
                  const std::string& error) {
    ++done_;
    nodes_run_ += nodes_[k];
    nodes_left_ -= nodes_[k];
    if (verdict != "yes" && verdict != "unsupported") ++failed_;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    out << "  [" << done_ << "/" << points_ << ", " << failed_ << " failed, about "
        << static_cast<long>(nodes_run_ > 0 ? elapsed / nodes_run_ * nodes_left_ + 0.5 : 0) << " s left] " << describe(p)
        << ": " << verdict_words(verdict) << (error.empty() ? "" : " (" + error + ")") << "\n"
        << std::flush;
  }
  std::size_t done() const { return done_; }
  std::size_t failed() const { return failed_; }

 private:
  std::size_t done_, points_, failed_ = 0;
  std::vector<double> nodes_;  // per point
  double nodes_run_ = 0, nodes_left_ = 0;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// One point run in a child process: its CSV row up to the run options column, its verdict ("yes", "no",
// "failed", "unsupported") and its error; none when the stop cut it short (a point cut short is no row).
struct PointResult {
  std::string row, verdict, error;
};

std::optional<PointResult> run_point(const SweepPoint& p, const std::string& self_path,
                                     const std::vector<std::string>& run_options) {
  std::ostringstream row;
  row << p.index << ',' << csv_field(p.topology) << ',' << p.algorithm << ',' << p.block_bytes << ',' << p.startup_cycles << ','
      << p.flit_bytes << ',';
  std::string verdict, error;
  if (!p.unsupported.empty()) {
    row << 2 << ',' << "unsupported" << ",,,,,,,,,,,,,,,,";
    return PointResult{row.str(), "unsupported", p.unsupported};
  }
  ChildRun run;
  try {
    run = run_meshmp_child(self_path, run_arguments(p, run_options));
  } catch (const std::exception& e) {
    run.outcome.err = e.what();
  }
  const ChildOutcome& outcome = run.outcome;
  nlohmann::json& doc = run.stats;
  if (stopped_with_this_process(outcome)) return std::nullopt;
  row << outcome.exit_status << ',';
  verdict = "failed";
  if (doc.contains("statistics")) {
    const auto& s = doc["statistics"];
    const auto& schedule = s["schedule"];
    error = doc["failure"]["message"].get<std::string>();
    verdict = !error.empty() ? "failed" : doc["verification"]["ok"].get<bool>() ? "yes" : "no";
    row << verdict << ',' << s["completion_cycles"] << ',' << doc["analytic"]["zero_load"]["estimate_cycles"]
        << ',' << std::fixed << std::setprecision(1) << doc["analytic"]["paper"]["estimate_cycles"].get<double>()
        << ',' << schedule["synchronized_steps"] << ',' << schedule["sum_of_step_max_blocks"] << ','
        << schedule["max_messages_per_node"] << ',' << schedule["rearrangement_bytes_max_per_node"] << ','
        << (s.contains("network") ? s["network"]["header_blocking_cycles"] : nlohmann::json(0)) << ',' << schedule["steps_with_blocking"] << ','
        << std::setprecision(2) << s["simulation"]["host_seconds"].get<double>() << ','
        << s["bounds"]["status_bound_steps"] << ',' << std::setprecision(3) << s["bounds"]["cut_bound_unrounded_steps"].get<double>()
        << ',' << doc["config"]["node"]["port_model"].get<std::string>() << std::defaultfloat << std::setprecision(6);
    const auto& energy = s["energy"];
    row << ',' << energy["joules"]["total"].get<double>() << ',';
    if (!energy["energy_per_delivered_bit_joules"].is_null()) row << energy["energy_per_delivered_bit_joules"].get<double>();
    row << ',' << energy["energy_delay_product_joule_seconds"].get<double>();
  } else {
    row << verdict << ",,,,,,,,,,,,,,,,";
  }
  if (verdict != "yes" && error.empty()) error = outcome.describe();
  return PointResult{row.str(), verdict, error};
}

// The grid's points in its order (topologies x algorithms x m x t_s x link width), each checked; with a
// shard (`I/N`), every N-th point from the I-th: shards of equal size whatever the grid's order.
std::vector<SweepPoint> grid_points(const std::vector<std::string>& topologies, const std::vector<std::string>& algorithms,
                                    const std::vector<long>& block_bytes, const std::vector<long>& startup_cycles,
                                    const std::vector<long>& flit_bytes, const std::vector<std::string>& run_options,
                                    const std::string& shard_text, std::ostream& out) {
  std::vector<SweepPoint> points;
  for (const std::string& topology : topologies)
    for (const std::string& algorithm : algorithms)
      for (long m : block_bytes)
        for (long ts : startup_cycles)
          for (long flit : flit_bytes) points.push_back({points.size(), topology, algorithm, m, ts, flit, ""});
  for (SweepPoint& p : points) p.unsupported = check_point(p, run_options);  // every shard checks them all
  if (shard_text.empty()) return points;
  const std::size_t grid_size = points.size();
  const Shard shard = parse_shard(shard_text);
  std::vector<SweepPoint> mine;
  for (SweepPoint& p : points)
    if (p.index % static_cast<std::size_t>(shard.count) == static_cast<std::size_t>(shard.index - 1))
      mine.push_back(std::move(p));
  out << "  --shard " << shard_text << ": " << mine.size() << " of the grid's " << grid_size << " points\n";
  return mine;
}

}  // namespace

void SweepCommand::add_to(CLI::App& app) {
  app.add_option("--topologies", topologies_, "comma-separated topologies, e.g. torus:8x8,torus:16x16")->required();
  app.add_option("--algorithms", algorithms_, "comma-separated algorithms, e.g. tseng-t4,tseng-t1,direct")->required();
  app.add_option("-m,--block-bytes", block_bytes_, "comma-separated block sizes m in bytes")->capture_default_str();
  app.add_option("--startup-cycles", startup_cycles_, "comma-separated start-up costs t_s in cycles")->capture_default_str();
  app.add_option("--flit-bytes", flit_bytes_, "comma-separated link widths (t_c = 1/flit_bytes cycles per byte)")
      ->capture_default_str();
  app.add_option("--run-options", run_options_, "more options for every run, e.g. '--algorithm-option sync=barrier'");
  app.add_option("--csv", csv_, "the CSV file, one row per point, rewritten whole as each point finishes")
      ->capture_default_str();
  app.add_flag("--resume", resume_,
               "keep the rows already in --csv (a point is its topology, algorithm, m, t_s, link width and "
               "--run-options) and run only the points missing there or failed");
  app.add_option("--shard", shard_,
                 "I/N: run only the I-th of N shards of the grid (its points I-1, I-1+N, ...; 1 <= I <= N), to "
                 "spread a sweep over GNU parallel jobs or a Slurm job array; `meshmp merge` joins the shards' CSVs");
  app.add_option("-j,--jobs", jobs_, "runs at once, 1.." + std::to_string(kMaxChildren) + " (default: the host's cores)")
      ->check(CLI::Range(1, kMaxChildren));
  plot_.add_to(app);
  app.footer(R"(
EXAMPLE
  meshmp sweep --topologies torus:16x16,torus:32x32 --algorithms tseng-t4,tseng-t1,direct \
      -m 8,64 --startup-cycles 0,100,2500 --csv sweep.csv)");
}

int SweepCommand::run(const CommandContext& context) {
  std::ostream& out = context.out;
  std::ostream& err = context.err;
  // Every point is checked before anything runs: a misspelt name or a bad option is bad input (exit 2),
  // not a row.
  const std::vector<std::string> run_options = split_arguments("--run-options", run_options_);
  const std::vector<std::string> topologies = split_list("--topologies", topologies_);
  const std::vector<std::string> algorithms = split_list("--algorithms", algorithms_);
  for (const std::string& topology : topologies) Topology::parse(topology, "--topologies");
  for (const std::string& algorithm : algorithms) find_algorithm(algorithm);
  // The plot's options: given only with --plot, and --speedup-of one of the sweep's algorithms (found
  // before the points run, not by the plot after them).
  plot_.check(algorithms, algorithms_);
  const std::vector<SweepPoint> points = grid_points(
      topologies, algorithms, whole_numbers("--block-bytes", block_bytes_, 1),
      whole_numbers("--startup-cycles", startup_cycles_, 0), whole_numbers("--flit-bytes", flit_bytes_, 1), run_options, shard_, out);
  // The rows to keep are read before the outputs are opened (a FIFO named as --csv is refused as an input,
  // not waited on as an output).
  SweptRows swept{std::vector<std::string>(points.size()), std::vector<bool>(points.size(), false), 0};
  if (resume_) swept = rows_to_resume(csv_, points, run_options_);
  check_distinct_outputs({{"--csv", csv_}, {"--plot", plot_.path()}});
  OutputFile csv("--csv", csv_), png;  // opened now: the check that both can be written
  if (plot_.wanted()) png = plot_.open();
  const unsigned jobs = jobs_ > 0 ? static_cast<unsigned>(jobs_) : std::max(1u, std::thread::hardware_concurrency());

  std::vector<std::string>& rows = swept.rows;
  const std::vector<bool>& finished = swept.finished;
  // The CSV as it stands: written whole (beside it, then renamed) after every finished point, so that a
  // crash or a kill loses at most the points that were running.
  auto write_csv = [&](OutputFile& file) {
    std::ostream& table = file.stream();
    table << kSweepCsvHeader << '\n';
    for (const std::string& row : rows)
      if (!row.empty()) table << row << '\n';
    file.commit();
  };

  std::atomic<std::size_t> next{0};
  std::mutex progress;
  std::string write_error;  // the first failed rewrite of the CSV
  SweepProgress progress_of(points, finished, swept.resumed);
  if (swept.resumed > 0) out << "  --resume: " << swept.resumed << " of " << points.size() << " points already in " << csv_ << "\n";
  auto worker = [&] {
    for (std::size_t k = next++; k < points.size() && stop_signal() == 0; k = next++) {
      if (finished[k]) continue;
      const SweepPoint& p = points[k];
      const std::optional<PointResult> result = run_point(p, context.self_path, run_options);
      if (!result) return;  // a point cut short by the stop is no row
      const std::string& verdict = result->verdict;
      const std::string& error = result->error;
      std::lock_guard<std::mutex> lock(progress);
      rows[k] = result->row + ',' + csv_field(run_options_) + ',' + csv_field(error);
      try {
        OutputFile rewrite("--csv", csv_);
        write_csv(rewrite);
      } catch (const OutputError& e) {  // the sweep stops: its rows cannot be kept
        if (write_error.empty()) write_error = e.what();
        next = points.size();
      }
      progress_of.point_done(out, k, p, verdict, error);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::min<std::size_t>(jobs, points.size()); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (!write_error.empty()) throw OutputError(write_error);

  write_csv(csv);
  if (stop_signal() != 0) {
    err << "meshmp: stopped by " << signal_name(stop_signal()) << ": " << progress_of.done() << " of " << points.size()
        << " points finished; " << csv_ << " holds them\n";
    return stopped_exit_status();
  }
  const std::size_t failed = progress_of.failed();
  out << "  sweep: " << points.size() << " points, " << failed << " failed; " << csv_ << "\n";
  if (png.is_open()) plot_.draw(context.self_path, csv_, png, out);
  if (failed > 0) err << "meshmp: error: " << failed << " point(s) failed; see the exit_status, verified and error columns\n";
  return failed > 0 ? 1 : 0;
}

}  // namespace meshmp
