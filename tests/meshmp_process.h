// Runs the meshmp binary in a child process, as a user would, for tests that compare whole runs
// (SystemC elaborates one machine per process), and reads what a run wrote.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace meshmp_test {

struct Outcome {
  int status;          // exit status; -1 if it did not exit
  std::string output;  // standard output and standard error
};

inline Outcome run_command(const std::string& command_line) {
  FILE* pipe = popen((command_line + " 2>&1").c_str(), "r");
  std::string text;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) text += buffer;
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

// `meshmp ARGS`.
inline Outcome meshmp(const std::string& args) { return run_command(std::string(MESHMP_BINARY) + " " + args); }

// The statistics of a run's JSON file without the host's timing (what two runs of one machine share).
inline nlohmann::json statistics_without_host_timing(const std::string& path) {
  nlohmann::json stats = nlohmann::json::parse(std::ifstream(path))["statistics"];
  stats.erase("simulation");
  return stats;
}

}  // namespace meshmp_test
