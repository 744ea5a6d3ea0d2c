// The CSV of `meshmp sweep`: its header, one row per point, fields quoted as RFC 4180 has them; the
// point column is the point's place in the whole grid (the same in every shard of a sweep), by which
// `meshmp merge` puts shards back together.
#pragma once

#include <string>
#include <vector>

namespace meshmp {

extern const char* const kSweepCsvHeader;

// Field positions in a row of kSweepCsvHeader.
enum SweepCsvField : std::size_t {
  kPointField = 0,
  kTopologyField = 1,
  kVerifiedField = 7,
  kHostSecondsField = 17,
};

// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text);
// The records of a CSV text as csv_field writes them (quoted fields may hold commas, quotes and line breaks).
std::vector<std::vector<std::string>> read_csv(const std::string& text);
// A record written back as one CSV line (no line break).
std::string csv_line(const std::vector<std::string>& record);

// The rows of a sweep CSV file (the header checked against kSweepCsvHeader, every row its field count).
// Throws ConfigError naming `field` and the file for a file that cannot be read or is not a sweep CSV.
// A missing file is no rows when `missing_is_empty`.
std::vector<std::vector<std::string>> read_sweep_csv(const std::string& field, const std::string& path,
                                                     bool missing_is_empty);

// A point's key: its parameters and the sweep's run options, as a row's fields hold them.
std::string sweep_point_key(const std::vector<std::string>& row);

}  // namespace meshmp
