// `meshmp paper TABLE`: a paper's table rows regenerated from runs of the machine, beside the paper's
// formulas, with measured / formula (see paper_command.cpp for the tables).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace meshmp {

std::vector<std::string> paper_tables();
// Runs every row of `table` in a child process of `self_path`. Returns the exit code (2: unknown table).
int run_paper_table(const std::string& self_path, const std::string& table, std::ostream& out, std::ostream& err);

}  // namespace meshmp
