// `meshmp paper TABLE`: a paper's table rows regenerated from runs of the machine, beside the paper's
// formulas, with measured / formula (see paper_command.cpp for the tables).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sims/command.h"

namespace meshmp {

std::vector<std::string> paper_tables();
// Runs every row of `table` in a child process of `self_path`. Returns the exit code (2: unknown table).
int run_paper_table(const std::string& self_path, const std::string& table, std::ostream& out, std::ostream& err);

// `meshmp paper TABLE [--plot PNG]`: the table's rows, by the paper's own runner (003's and 004's tables
// have theirs: sims/paper_003.h, sims/paper_004.h, sims/paper_004_summary.h).
class PaperCommand : public Command {
 public:
  std::string name() const override { return "paper"; }
  std::string summary() const override {
    return "Regenerate a paper's table rows from runs of the machine, beside the paper's formulas.";
  }
  void add_to(CLI::App& command) override;
  int run(const CommandContext& context) override;

 private:
  std::string table_;
  std::string png_;
};

}  // namespace meshmp
