// A sweep CSV's lines as the tests compare them: host_seconds emptied (each run's own time).
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sims/sweep_csv.h"

namespace meshmp_test {

inline std::vector<std::string> rows_without_host_time(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> lines;
  for (auto record : meshmp::read_csv(text.str())) {
    if (record.size() > meshmp::kHostSecondsField) record[meshmp::kHostSecondsField].clear();
    lines.push_back(meshmp::csv_line(record));
  }
  return lines;
}

}  // namespace meshmp_test
