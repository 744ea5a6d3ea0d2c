// `meshmp paper 004-table1 | 004-table2`: paper 004 §4's summary tables measured. Table 1 (broadcast bus,
// shared memory, ring) and Table 2 (grid, hypercube, switch): every cell run on its machine at one N, tau,
// b, k and k*, beside the printed entry and the §3 equation it summarises, with the errata found.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace meshmp {

std::vector<std::string> paper_004_summary_tables();
// Returns the exit code (0: every cell ran and was verified).
int run_paper_004_summary(const std::string& self_path, const std::string& table, std::ostream& out, std::ostream& err);

}  // namespace meshmp
