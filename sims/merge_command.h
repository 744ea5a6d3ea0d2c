// `meshmp merge`: the CSVs of a sharded sweep (`meshmp sweep --shard I/N`) joined into the CSV the whole
// sweep writes, row for row in the grid's order (see merge_command.cpp).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace meshmp {

// Writes `output` whole from the rows of `shards`, ordered by their point column. Throws ConfigError naming
// the file and the point for a file that is not a sweep CSV, a point in two files or a point missing
// below the last one.
int run_merge(const std::string& output, const std::vector<std::string>& shards, std::ostream& out);

}  // namespace meshmp
