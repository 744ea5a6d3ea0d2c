// `meshmp traffic`: synthetic traffic on the network alone (hw/traffic_generator.h), one offered load or a
// sweep of loads (each point in its own child process: SystemC elaborates one design per process), with
// the latency-vs-load curve written as CSV and PNG and, on request, compared with a reference curve
// measured by another simulator (sims/reference/).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sims/cli_options.h"

namespace meshmp {

class TrafficCommand {
 public:
  void add_to(CLI::App& command);
  // `arguments` are the command line's words after the program name (a sweep re-runs them per point).
  int run(const std::string& self_path, const std::vector<std::string>& arguments, std::ostream& out,
          std::ostream& err) const;

 private:
  int run_point(double rate, std::ostream& out, std::ostream& err) const;
  int run_sweep(const std::string& self_path, const std::vector<std::string>& arguments, std::ostream& out,
                std::ostream& err) const;

  RunOptions network_;
  std::string pattern_ = "uniform";
  double rate_ = 0.1;
  std::string rates_;
  int packet_flits_ = 4;
  std::uint64_t warmup_cycles_ = 10000, measure_cycles_ = 20000, drain_cycles_ = 100000, seed_ = 1;
  bool exclude_self_ = false;
  int hotspot_node_ = 0;
  double hotspot_fraction_ = 0.2;
  std::string stats_json_, csv_ = "meshmp-traffic.csv", png_ = "meshmp-traffic.png", reference_;
  bool json_line_ = false;
};

// Saturation of a latency-vs-load curve: the load at which the average latency first reaches three times
// its value at the lowest load (linear interpolation between the points around it); negative when it
// never does within the curve.
double saturation_load(const std::vector<double>& loads, const std::vector<double>& latencies);

}  // namespace meshmp
