// A child `meshmp run`. See child_run.h.
#include "sims/child_run.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace meshmp {

std::optional<nlohmann::json> run_child(const std::string& self_path, const std::string& arguments, std::string& command) {
  char path[] = "/tmp/meshmp-paper-XXXXXX";
  const int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  command = "'" + self_path + "' run " + arguments + " --stats-json " + path + " > /dev/null 2>&1";
  const int code = std::system(command.c_str());
  nlohmann::json stats;
  try {
    stats = nlohmann::json::parse(std::ifstream(path));
  } catch (const nlohmann::json::exception&) {
  }
  std::remove(path);
  if (code != 0 || !stats.contains("statistics")) return std::nullopt;
  return stats;
}

}  // namespace meshmp
