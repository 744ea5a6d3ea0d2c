// `meshmp paper 004-ring | 004-grid | 004-hypercube`: every equation of paper 004 §3 for that machine,
// run on the machine in 004's model (see paper_004.cpp), each run a child process, with an optional
// figure of a pipelined case against nu.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace meshmp {

std::vector<std::string> paper_004_tables();
// Returns the exit code. `png`: also the figure (measured time and the paper's t(nu) against nu, with
// (3.4)'s nu_opt), its table as CSV beside it.
int run_paper_004(const std::string& self_path, const std::string& table, const std::string& png, std::ostream& out,
                  std::ostream& err);

}  // namespace meshmp
