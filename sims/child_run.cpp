// A child `meshmp run`. See child_run.h.
#include "sims/child_run.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "sims/child_process.h"
#include "sims/stop_signals.h"

namespace meshmp {

std::optional<nlohmann::json> run_child(const std::string& self_path, const std::string& arguments, std::string& failure) {
  throw_if_stop_requested();
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/meshmp-run-XXXXXX.json";
  const int fd = mkstemps(path.data(), 5);
  if (fd >= 0) close(fd);
  std::vector<std::string> argv{self_path, "run"};
  for (std::string& word : split_arguments("arguments", arguments)) argv.push_back(std::move(word));
  argv.insert(argv.end(), {"--stats-json", path});
  const ChildOutcome outcome = run_child_process(argv);
  nlohmann::json stats;
  try {
    stats = nlohmann::json::parse(std::ifstream(path));
  } catch (const nlohmann::json::exception&) {
  }
  std::remove(path.c_str());
  if (stopped_with_this_process(outcome)) throw StopRequested{};
  if (outcome.exit_status != 0 || !stats.contains("statistics")) {
    failure = command_line(argv) + ": " + outcome.describe();
    return std::nullopt;
  }
  return stats;
}

}  // namespace meshmp
