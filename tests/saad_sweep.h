// Runs one `meshmp sweep` (topologies x algorithms, the runs in child processes) and returns its CSV rows
// keyed by column name: the saad-* tests check every row against the program the firmware runs.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "meshmp_process.h"

namespace meshmp_test {

inline std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, by);) parts.push_back(part);
  return parts;
}

using SweepRow = std::map<std::string, std::string>;

// `sweep_options` go to `meshmp sweep` itself (-m, --startup-cycles), `run_options` to every run. A failed
// sweep is a test failure (and no rows).
inline std::vector<SweepRow> sweep_rows(const std::vector<std::string>& topologies, const std::vector<std::string>& algorithms,
                                        const std::string& sweep_options, const std::string& run_options) {
  std::string tops, algs;
  for (const auto& t : topologies) tops += (tops.empty() ? "" : ",") + t;
  for (const auto& a : algorithms) algs += (algs.empty() ? "" : ",") + a;
  const std::string csv = ::testing::TempDir() + "saad_sweep_" + std::to_string(getpid()) + ".csv";
  const auto outcome = meshmp("sweep -j 2 --topologies " + tops + " --algorithms " + algs + " " + sweep_options +
                              " --csv " + csv + " --run-options '" + run_options + "'");
  EXPECT_EQ(outcome.status, 0) << outcome.output;
  std::vector<SweepRow> rows;
  if (outcome.status != 0) return rows;
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split(line, ',');
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = split(line, ',');
    SweepRow row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    row["line"] = line;
    rows.push_back(row);
  }
  std::remove(csv.c_str());
  return rows;
}

}  // namespace meshmp_test
