// `meshmp sweep`: one `meshmp run` per point of a grid (topologies x algorithms x block sizes x start-up
// costs x link widths), each in its own process, several at once, with a progress line per finished
// point and one CSV row per point: the configuration, the exit status, whether every byte was verified,
// completion cycles, the zero-load model and the paper's formula, the schedule counts and the
// contention. A point the algorithm does not support (exit status 2) is a row too, marked unsupported.
#include "sims/sweep_command.h"

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <sys/wait.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <sstream>
#include <thread>

#include "firmware/algorithm_registry.h"
#include "sims/plot_script.h"
#include "topology/config_error.h"
#include "topology/topology.h"

namespace meshmp {
namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ','))
    if (!item.empty()) items.push_back(item);
  return items;
}

std::vector<long> whole_numbers(const std::string& field, const std::string& text, long minimum) {
  std::vector<long> values;
  for (const std::string& item : split_list(text)) {
    std::size_t used = 0;
    long value = -1;
    try {
      value = std::stol(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || value < minimum)
      throw ConfigError(field, item, "expected a comma-separated list of whole numbers >= " + std::to_string(minimum));
    values.push_back(value);
  }
  if (values.empty()) throw ConfigError(field, text, "expected at least one value");
  return values;
}

struct SweepPoint {
  std::string topology, algorithm;
  long block_bytes, startup_cycles, flit_bytes;
};


}  // namespace

void SweepCommand::add_to(CLI::App& app) {
  app.add_option("--topologies", topologies_, "comma-separated topologies, e.g. torus:8x8,torus:16x16")->required();
  app.add_option("--algorithms", algorithms_, "comma-separated algorithms, e.g. tseng-t4,tseng-t1,direct")->required();
  app.add_option("-m,--block-bytes", block_bytes_, "comma-separated block sizes m in bytes")->capture_default_str();
  app.add_option("--startup-cycles", startup_cycles_, "comma-separated start-up costs t_s in cycles")->capture_default_str();
  app.add_option("--flit-bytes", flit_bytes_, "comma-separated link widths (t_c = 1/flit_bytes cycles per byte)")
      ->capture_default_str();
  app.add_option("--run-options", run_options_, "more options for every run, e.g. '--algorithm-option sync=barrier'");
  app.add_option("--csv", csv_, "the CSV file, one row per point")->capture_default_str();
  app.add_option("-j,--jobs", jobs_, "runs at once (default: the host's cores)");
  app.add_option("--plot", png_, "also plot the speedup over --speedup-of (PNG): see --plot-against");
  app.add_option("--speedup-of", speedup_of_, "the algorithm the plot divides by")->capture_default_str();
  app.add_option("--plot-against", plot_against_,
                 "nodes: one panel per t_s / (b t_c), speedup against the nodes (001 Fig. 9); block-bytes: one "
                 "panel per topology, a line per algorithm and t_s / t_c, against the block size (001 Fig. 10); "
                 "bound: per topology, each algorithm's time over 002's lower bound (steps x (t_s + m t_c))")
      ->check(CLI::IsMember({"nodes", "block-bytes", "bound"}))
      ->capture_default_str();
}

int SweepCommand::run(const std::string& self_path, std::ostream& out, std::ostream& err) const {
  // Names are checked before anything runs: a misspelt one is bad input, not an unsupported point.
  for (const std::string& topology : split_list(topologies_)) Topology::parse(topology, "--topologies");
  for (const std::string& algorithm : split_list(algorithms_)) find_algorithm(algorithm);
  std::vector<SweepPoint> points;
  for (const std::string& topology : split_list(topologies_))
    for (const std::string& algorithm : split_list(algorithms_))
      for (long m : whole_numbers("--block-bytes", block_bytes_, 1))
        for (long ts : whole_numbers("--startup-cycles", startup_cycles_, 0))
          for (long flit : whole_numbers("--flit-bytes", flit_bytes_, 1)) points.push_back({topology, algorithm, m, ts, flit});
  if (points.empty()) throw ConfigError("--topologies", topologies_, "the grid has no point");
  std::ofstream csv(csv_);
  if (!csv) throw ConfigError("--csv", csv_, "the file cannot be written");
  const unsigned jobs = jobs_ > 0 ? static_cast<unsigned>(jobs_) : std::max(1u, std::thread::hardware_concurrency());

  std::vector<std::string> rows(points.size());
  std::atomic<std::size_t> next{0};
  std::mutex progress;
  std::size_t done = 0, failed = 0;
  auto worker = [&] {
    for (std::size_t k = next++; k < points.size(); k = next++) {
      const SweepPoint& p = points[k];
      char path[] = "/tmp/meshmp-sweep-XXXXXX";
      const int fd = mkstemp(path);
      if (fd >= 0) close(fd);
      const std::string command = shell_quote(self_path) + " run --topology " + shell_quote(p.topology) + " --algorithm " +
                                  shell_quote(p.algorithm) + " -m " + std::to_string(p.block_bytes) + " --startup-cycles " +
                                  std::to_string(p.startup_cycles) + " --flit-bytes " + std::to_string(p.flit_bytes) +
                                  " " + run_options_ + " --stats-json " + path + " > /dev/null 2>&1";
      const int raw = std::system(command.c_str());
      const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
      nlohmann::json doc;
      try {
        doc = nlohmann::json::parse(std::ifstream(path));
      } catch (const nlohmann::json::exception&) {
      }
      std::remove(path);
      std::ostringstream row;
      row << p.topology << ',' << p.algorithm << ',' << p.block_bytes << ',' << p.startup_cycles << ',' << p.flit_bytes
          << ',' << status << ',';
      std::string verdict = status == 2 ? "unsupported" : "failed";
      if (doc.contains("statistics")) {
        const auto& s = doc["statistics"];
        const auto& schedule = s["schedule"];
        verdict = doc["verification"]["ok"].get<bool>() ? "yes" : "no";
        row << verdict << ',' << s["completion_cycles"] << ',' << doc["analytic"]["zero_load"]["prediction_cycles"]
            << ',' << std::fixed << std::setprecision(1) << doc["analytic"]["paper"]["estimate_cycles"].get<double>()
            << ',' << schedule["synchronized_steps"] << ',' << schedule["sum_of_step_max_blocks"] << ','
            << schedule["max_messages_per_node"] << ',' << schedule["rearrangement_bytes_max_per_node"] << ','
            << s["network"]["header_blocking_cycles"] << ',' << schedule["steps_with_blocking"] << ','
            << std::setprecision(2) << s["simulation"]["host_seconds"].get<double>() << ','
            << s["bounds"]["status_bound_steps"] << ',' << std::setprecision(3) << s["bounds"]["cut_bound"].get<double>()
            << ',' << doc["config"]["node"]["port_model"].get<std::string>();
      } else {
        row << verdict << ",,,,,,,,,,,,,";
      }
      rows[k] = row.str();
      std::lock_guard<std::mutex> lock(progress);
      ++done;
      if (verdict != "yes" && verdict != "unsupported") ++failed;
      out << "  [" << done << "/" << points.size() << "] " << p.topology << " " << p.algorithm << " m=" << p.block_bytes
          << " t_s=" << p.startup_cycles << " flit=" << p.flit_bytes << ": " << verdict << "\n"
          << std::flush;
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::min<std::size_t>(jobs, points.size()); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();

  csv << "topology,algorithm,block_bytes,startup_cycles,flit_bytes,exit_status,verified,completion_cycles,"
         "zero_load_cycles,paper_cycles,synchronized_steps,sum_of_step_max_blocks,max_messages_per_node,"
         "rearrangement_bytes_max_per_node,header_blocking_cycles,steps_with_blocking,host_seconds,"
         "status_bound_steps,cut_bound,port_model\n";
  for (const std::string& row : rows) csv << row << '\n';
  out << "  sweep: " << points.size() << " points, " << failed << " failed; " << csv_ << "\n";
  csv.close();
  if (!png_.empty())
    run_plot_script(self_path, "plot_sweep.py", MESHMP_SWEEP_PLOT_SCRIPT, {csv_, png_, speedup_of_, plot_against_}, png_, out);
  if (failed > 0) err << "meshmp: error: " << failed << " point(s) failed; see the exit_status and verified columns\n";
  return failed > 0 ? 1 : 0;
}

}  // namespace meshmp
