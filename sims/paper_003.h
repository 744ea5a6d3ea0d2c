// `meshmp paper 003-...`: paper 003's comparisons regenerated from runs of the machine (see
// paper_003.cpp for the tables), each run a child process, with an optional figure.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace meshmp {

std::vector<std::string> paper_003_tables();
// Returns the exit code (2: unknown table). `png`: a figure of the table when it has one (003-paths).
int run_paper_003(const std::string& self_path, const std::string& table, const std::string& png, std::ostream& out,
                  std::ostream& err);

}  // namespace meshmp
