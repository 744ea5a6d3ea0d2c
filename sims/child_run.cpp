// A child `meshmp run`. See child_run.h.
#include "sims/child_run.h"

#include <algorithm>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <utility>

#include "sims/stop_signals.h"

namespace meshmp {

ChildRun run_meshmp_child(const std::string& self_path, const std::vector<std::string>& run_arguments,
                          const std::string& command, const std::function<void(const std::string&)>& on_progress) {
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/meshmp-run-XXXXXX.json";
  const int fd = mkstemps(path.data(), 5);
  if (fd >= 0) close(fd);
  std::vector<std::string> argv{self_path, command};
  argv.insert(argv.end(), run_arguments.begin(), run_arguments.end());
  argv.insert(argv.end(), {"--stats-json", path});
  ChildRun run;
  try {
    run.outcome = run_child_process(argv, on_progress);
  } catch (...) {
    std::remove(path.c_str());
    throw;
  }
  try {
    run.stats = nlohmann::json::parse(std::ifstream(path));
  } catch (const nlohmann::json::exception&) {
  }
  std::remove(path.c_str());
  return run;
}

int status_after_failed_child(int status, int child_exit_status) {
  return std::max(status, child_exit_status == 2 ? 2 : 1);
}

std::ostream* terminal_progress(std::ostream& err) { return isatty(STDERR_FILENO) != 0 ? &err : nullptr; }

namespace {

// "torus:32x32x32 tseng-c64": what a progress line says it is about, from the run's arguments.
std::string run_label(const std::vector<std::string>& words) {
  std::string topology, algorithm;
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == "--topology" || words[i] == "-t") topology = words[i + 1];
    if (words[i] == "--algorithm" || words[i] == "-a") algorithm = words[i + 1];
  }
  return topology + (topology.empty() || algorithm.empty() ? "" : " ") + algorithm;
}

// Shows a child's progress lines on `err`, one line rewritten in place; erases it when it goes.
class ProgressRelay {
 public:
  ProgressRelay(std::ostream* err, std::string label) : err_(err), label_(std::move(label)) {}
  ~ProgressRelay() {
    if (shown_) *err_ << "\r\033[K" << std::flush;
  }
  ProgressRelay(const ProgressRelay&) = delete;
  ProgressRelay& operator=(const ProgressRelay&) = delete;
  std::function<void(const std::string&)> sink() {
    if (err_ == nullptr) return {};
    return [this](const std::string& text) {
      *err_ << "\r  " << label_ << ": " << text << "\033[K" << std::flush;
      shown_ = true;
    };
  }

 private:
  std::ostream* err_;
  std::string label_;
  bool shown_ = false;
};

}  // namespace

std::optional<nlohmann::json> run_child(const std::string& self_path, const std::string& arguments, std::string& failure,
                                        int& exit_status, std::ostream* progress) {
  throw_if_stop_requested();
  const std::vector<std::string> words = split_arguments("arguments", arguments);
  ChildRun run;
  {
    ProgressRelay relay(progress, run_label(words));
    run = run_meshmp_child(self_path, words, "run", relay.sink());
  }
  if (stopped_with_this_process(run.outcome)) throw StopRequested{};
  exit_status = run.outcome.exit_status;
  if (run.outcome.exit_status != 0 || !run.stats.contains("statistics")) {
    std::vector<std::string> argv{self_path, "run"};
    argv.insert(argv.end(), words.begin(), words.end());
    failure = command_line(argv) + ": " + run.outcome.describe();
    return std::nullopt;
  }
  return std::move(run.stats);
}

MeasuredRun measure_verified_run(const std::string& self_path, const std::string& arguments, std::ostream& err,
                                 int& status) {
  std::string command;
  int exit_status = 0;
  const auto stats = run_child(self_path, arguments, command, exit_status, terminal_progress(err));
  MeasuredRun m;
  if (!stats || !(*stats)["verification"]["ok"].get<bool>()) {
    err << "meshmp: error: " << (stats ? "the run was not verified" : "the run failed") << " (" << command << ")\n";
    status = status_after_failed_child(status, stats ? 1 : exit_status);
    return m;
  }
  const auto& s = (*stats)["statistics"];
  m.cycles = s["completion_cycles"].get<double>();
  m.steps = s["schedule"]["synchronized_steps"].get<double>();
  m.units = s["schedule"]["sum_of_step_max_blocks"].get<double>();
  m.startups = s["schedule"]["max_messages_per_node"].get<double>();
  m.energy_joules = s["energy"]["joules"]["total"].get<double>();
  m.energy_delay = s["energy"]["energy_delay_product_joule_seconds"].get<double>();
  m.ok = true;
  return m;
}

}  // namespace meshmp
