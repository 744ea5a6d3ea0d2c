// `meshmp bench`: simulation speed, measured, never asserted. Each case runs in its own process (the
// SystemC kernel elaborates one design per process) and reports simulated cycles per second and
// flit-hops per second; a bare-kernel case (one method process woken every cycle, doing nothing)
// measured in the same run is the baseline: each case's speed is also given as the number of
// kernel-floor cycles one of its simulated cycles costs, a ratio that holds across host speeds.
#pragma once

#include <ostream>
#include <string>

#include "sims/command.h"

namespace meshmp {

// Runs every case in a child process of `self_path` and prints the table; with_scale adds the scale case
// (torus:64x64, minutes, on 2 host threads). The other cases step their routers on `host_threads`.
// Returns the exit code.
int run_benchmarks(const std::string& self_path, const std::string& json_path, bool with_scale, int host_threads,
                   std::ostream& out, std::ostream& err);
// Runs one case in this process and prints its result as one JSON line.
int run_benchmark_case(const std::string& name, int host_threads, std::ostream& out, std::ostream& err);

// `meshmp bench`: run_benchmarks with the command line's options.
class BenchCommand : public Command {
 public:
  std::string name() const override { return "bench"; }
  std::string summary() const override { return "Measure simulation speed (cycles/s, flit-hops/s)."; }
  void add_to(CLI::App& command) override;
  int run(const CommandContext& context) override;

 private:
  std::string json_;
  bool scale_ = false;
  int host_threads_ = 1;
};

// `meshmp bench-case CASE` (hidden): one case in this process, what `meshmp bench` runs in its children.
class BenchCaseCommand : public Command {
 public:
  std::string name() const override { return "bench-case"; }
  std::string summary() const override { return "Run one benchmark case (used by bench)."; }
  void add_to(CLI::App& command) override;
  int run(const CommandContext& context) override;

 private:
  std::string case_;
  int host_threads_ = 1;
};

}  // namespace meshmp
