// `meshmp sweep`: a grid of `meshmp run`s, each in its own process, several at once, one CSV row per
// point (see sweep_command.cpp).
#pragma once

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>
#include "sims/command.h"
#include "sims/sweep_plot.h"

namespace meshmp {

// At most this many shards of one sweep.
inline constexpr long kMaxShards = 100000;

class SweepCommand : public Command {
 public:
  std::string name() const override { return "sweep"; }
  std::string summary() const override {
    return "Run a grid of exchanges (topologies x algorithms x m x t_s x link width), one CSV row per point.";
  }
  void add_to(CLI::App& app) override;
  // Runs every point in a child process of this program. Throws ConfigError on a malformed list.
  int run(const CommandContext& context) override;

 private:
  std::string topologies_, algorithms_;
  std::string block_bytes_ = "8";
  std::string startup_cycles_ = "100";
  std::string flit_bytes_ = "8";
  std::string run_options_;
  std::string csv_ = "meshmp-sweep.csv";
  std::string shard_;  // I/N, empty: the whole grid
  SweepPlot plot_;
  int jobs_ = 0;
  bool resume_ = false;
};

}  // namespace meshmp
