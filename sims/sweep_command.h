// `meshmp sweep`: a grid of `meshmp run`s, each in its own process, several at once, one CSV row per
// point (see sweep_command.cpp).
#pragma once

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>

namespace meshmp {

// At most this many shards of one sweep.
inline constexpr long kMaxShards = 100000;

class SweepCommand {
 public:
  void add_to(CLI::App& app);
  // Runs every point in a child process of `self_path`. Throws ConfigError on a malformed list.
  int run(const std::string& self_path, std::ostream& out, std::ostream& err) const;

 private:
  std::string topologies_, algorithms_;
  std::string block_bytes_ = "8";
  std::string startup_cycles_ = "100";
  std::string flit_bytes_ = "8";
  std::string run_options_;
  std::string csv_ = "meshmp-sweep.csv";
  std::string png_;
  std::string shard_;  // I/N, empty: the whole grid
  std::string speedup_of_ = "tseng-t4";
  std::string plot_against_ = "nodes";  // or block-bytes
  int jobs_ = 0;
  bool resume_ = false;
};

}  // namespace meshmp
