// `meshmp merge`: the CSVs of a sharded sweep (`meshmp sweep --shard I/N`) joined into the CSV the whole
// sweep writes, row for row in the grid's order (see merge_command.cpp).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sims/command.h"
#include "sims/sweep_plot.h"

namespace meshmp {

// Writes `output` whole from the rows of `shards`, ordered by their point column. Throws ConfigError naming
// the file and the point for a file that is not a sweep CSV, a point in two files or a point missing
// below the last one.
int run_merge(const std::string& output, const std::vector<std::string>& shards, std::ostream& out);

// `meshmp merge --csv OUT SHARD... [--plot PNG ...]`: run_merge with the command line's files, then the
// plot of the merged CSV as `meshmp sweep --plot` draws it.

class MergeCommand : public Command {
 public:
  std::string name() const override { return "merge"; }
  std::string summary() const override {
    return "Join the CSVs of a sharded sweep (sweep --shard I/N) into the CSV of the whole sweep, in the grid's order.";
  }
  void add_to(CLI::App& command) override;
  int run(const CommandContext& context) override;

 private:
  std::string merged_csv_;
  std::vector<std::string> shard_csvs_;
  SweepPlot plot_;
};

}  // namespace meshmp
