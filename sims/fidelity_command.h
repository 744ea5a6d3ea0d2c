// `meshmp fidelity`: the transaction-level network's error against the cycle-level one, measured. Every
// registered algorithm without barriers (sync=none where it has the option), and synthetic uniform,
// transpose and hotspot traffic from 10 % of the cycle level's saturation rate to 100 % (found by
// bisection: the load where mean latency reaches 3 times its low-load value), each run at both levels in
// child processes on the machines given (torus:8x8, torus:16x16 and hypercube:8 by default).
// Prints a Markdown table (docs/fidelity.md is its output) of completion or latency error (tlm / cycle - 1)
// and host time, and writes it, and the same as JSON, whole or not at all.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sims/command.h"

namespace meshmp {

class FidelityCommand : public Command {
 public:
  void add_to(CLI::App& command) override;
  std::string name() const override { return "fidelity"; }
  std::string summary() const override {
    return "Measure the transaction-level network's error against the cycle level: algorithms and traffic.";
  }
  int run(const CommandContext& context) override;

 private:
  // Each part of the table: the rows of every algorithm, then of every traffic pattern and load, added to
  // `table` and `results`; 1 when a point failed (said on the error stream), else 0.
  int compare_algorithms(const CommandContext& context, nlohmann::json& results, std::ostream& table) const;
  int compare_traffic(const CommandContext& context, nlohmann::json& results, std::ostream& table) const;

  std::vector<std::string> topologies_{"torus:8x8", "torus:16x16", "hypercube:8"};
  unsigned block_bytes_ = 32;
  std::vector<double> load_fractions_{0.1, 0.3, 0.5, 0.7, 0.9, 1.0};
  std::vector<std::string> patterns_{"uniform", "transpose", "hotspot"};
  std::vector<std::string> algorithms_;  // empty: every registered one
  std::string markdown_;
  std::string json_;
};

}  // namespace meshmp
