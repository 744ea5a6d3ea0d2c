// A child `meshmp run`. See child_run.h.
#include "sims/child_run.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "sims/stop_signals.h"

namespace meshmp {

ChildRun run_meshmp_child(const std::string& self_path, const std::vector<std::string>& run_arguments) {
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/meshmp-run-XXXXXX.json";
  const int fd = mkstemps(path.data(), 5);
  if (fd >= 0) close(fd);
  std::vector<std::string> argv{self_path, "run"};
  argv.insert(argv.end(), run_arguments.begin(), run_arguments.end());
  argv.insert(argv.end(), {"--stats-json", path});
  ChildRun run;
  try {
    run.outcome = run_child_process(argv);
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

std::optional<nlohmann::json> run_child(const std::string& self_path, const std::string& arguments, std::string& failure) {
  throw_if_stop_requested();
  const std::vector<std::string> words = split_arguments("arguments", arguments);
  ChildRun run = run_meshmp_child(self_path, words);
  if (stopped_with_this_process(run.outcome)) throw StopRequested{};
  if (run.outcome.exit_status != 0 || !run.stats.contains("statistics")) {
    std::vector<std::string> argv{self_path, "run"};
    argv.insert(argv.end(), words.begin(), words.end());
    failure = command_line(argv) + ": " + run.outcome.describe();
    return std::nullopt;
  }
  return std::move(run.stats);
}

}  // namespace meshmp
