// The plot of a sweep's CSV, drawn by `meshmp sweep --plot` and `meshmp merge --plot` (sims/plot_sweep.py):
// its options, their checks before any work, and the plot's run once the CSV is whole.
#pragma once

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "sims/output_file.h"

namespace meshmp {

class SweepPlot {
 public:
  // --plot, --speedup-of, --plot-against.
  void add_to(CLI::App& app);
  // ConfigError: --speedup-of or --plot-against without --plot; a speedup plot dividing by an algorithm not
  // in `algorithms` (the sweep's; `listed` is how the command line gave them). Nothing to check when
  // `algorithms` is empty (merge: the shards' rows are read later).
  void check(const std::vector<std::string>& algorithms, const std::string& listed) const;
  bool wanted() const { return !png_.empty(); }
  const std::string& path() const { return png_; }
  // The PNG, opened before any work (plot_output).
  OutputFile open() const;
  // Draws `csv` into `png` (opened by open()).
  void draw(const std::string& self_path, const std::string& csv, OutputFile& png, std::ostream& out) const;

 private:
  std::string png_;
  std::string speedup_of_ = "tseng-t4";
  std::string plot_against_ = "nodes";
  CLI::Option* speedup_of_option_ = nullptr;
  CLI::Option* plot_against_option_ = nullptr;
};

}  // namespace meshmp
