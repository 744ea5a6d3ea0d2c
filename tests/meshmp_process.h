// Runs the meshmp binary in a child process, as a user would, for tests that compare whole runs
// (SystemC elaborates one machine per process), and reads what a run wrote.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

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

// `meshmp ARGS`, killed after `seconds` if it has not finished (status 137: an input that would hang fails
// the test instead of stalling it; SIGKILL, since a hang may be deaf to the signals meshmp handles).
inline Outcome meshmp_within(int seconds, const std::string& args) {
  return run_command("timeout -s KILL " + std::to_string(seconds) + " " + MESHMP_BINARY + " " + args);
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// `meshmp run ARGS` is refused (exit 2) naming `rule`.
inline void expect_run_refused(const std::string& args, const std::string& rule) {
  const Outcome outcome = meshmp("run " + args);
  EXPECT_EQ(outcome.status, 2) << args << ": " << outcome.output;
  EXPECT_TRUE(contains(outcome.output, rule)) << args << ": " << outcome.output;
}

// The pretty-printed JSON a run wrote to standard output with -o -, out of its merged output (a summary or
// warnings may come before or after it on standard error); an empty object when there is none.
inline nlohmann::json json_in_output(const std::string& output) {
  const auto begin = output.find('{'), end = output.find("\n}", begin);
  if (begin == std::string::npos || end == std::string::npos) return nlohmann::json::object();
  return nlohmann::json::parse(output.substr(begin, end + 2 - begin));
}

// The result of `meshmp traffic ARGS` (one load), which must run.
inline nlohmann::json traffic_point(const std::string& args) {
  const Outcome o = meshmp("traffic " + args + " --json-line");
  EXPECT_EQ(o.status, 0) << o.output;
  return nlohmann::json::parse(o.output);
}

// The violations of `file` against sims/schema/SCHEMA (sims/validate_json.py with Debian's
// python3-jsonschema), one per line; empty when the file matches its schema.
inline std::string schema_violations(const std::string& schema, const std::string& file) {
  const std::string source = MESHMP_SOURCE_DIR;
  const Outcome o = run_command("/usr/bin/python3 " + source + "/sims/validate_json.py " + source + "/sims/schema/" + schema +
                                " " + file);
  if (o.status == 0) return "";
  return o.output.empty() ? "validate_json.py ended with status " + std::to_string(o.status) : o.output;
}

// The statistics of a run's JSON file without the host's timing (what two runs of one machine share).
// The file is checked against the run's JSON Schema first.
inline nlohmann::json statistics_without_host_timing(const std::string& path) {
  EXPECT_EQ(schema_violations("run.schema.json", path), "") << path;
  nlohmann::json stats = nlohmann::json::parse(std::ifstream(path))["statistics"];
  stats.erase("simulation");
  return stats;
}

// Runs `meshmp run ARGS FIRST` and `meshmp run ARGS SECOND` and expects both to exit with `status` (0:
// verified) and to give the same statistics, host timing aside: the same machine simulated two ways.
inline void expect_same_statistics(const std::string& args, const std::string& first, const std::string& second,
                                   int status = 0) {
  const std::string base = ::testing::TempDir() + "meshmp_same_" + std::to_string(getpid());
  const Outcome a = meshmp("run " + args + " " + first + " -o " + base + "_first.json");
  const Outcome b = meshmp("run " + args + " " + second + " -o " + base + "_second.json");
  ASSERT_EQ(a.status, status) << a.output;
  ASSERT_EQ(b.status, status) << b.output;
  if (status == 0) {
    EXPECT_NE(b.output.find("verified: all"), std::string::npos) << b.output;
  }
  const nlohmann::json one = statistics_without_host_timing(base + "_first.json");
  const nlohmann::json two = statistics_without_host_timing(base + "_second.json");
  EXPECT_EQ(two["completion_cycles"], one["completion_cycles"]);
  EXPECT_EQ(two["network"], one["network"]) << "per-link flit counts and contention statistics";
  EXPECT_EQ(two["messages"], one["messages"]);
  EXPECT_EQ(two, one) << "every statistic";
}

}  // namespace meshmp_test
