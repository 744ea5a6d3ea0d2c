// `meshmp merge`: the shards of a sweep joined. Each row carries its point's place in the whole grid (the
// CSV's point column), so the shards' rows, ordered by it, are the unsharded sweep's CSV row for row
// (host_seconds aside: each point's own run time). A point in two files is an error naming both (a shard
// given twice, or shards of different sweeps); a point missing below the highest one is an error naming it
// (a shard not run or not finished: `meshmp sweep --shard I/N --resume` completes it). Points missing above
// the highest are not visible in the files: give every shard. A point is a whole number; one point's
// parameters (topology, algorithm, m, t_s, link width, run options) at two numbers are shards of
// different sweeps, an error naming both files.
#include "sims/merge_command.h"

#include <charconv>
#include <cstdint>
#include <map>

#include "sims/output_file.h"
#include "sims/sweep_csv.h"
#include "topology/config_error.h"

namespace meshmp {

int run_merge(const std::string& output, const std::vector<std::string>& shards, std::ostream& out) {
  struct Found {
    std::vector<std::string> row;
    std::string file;
  };
  std::map<std::uint64_t, Found> rows;
  std::map<std::string, std::pair<std::uint64_t, std::string>> points_of;  // a point's parameters -> (number, file)
  std::size_t failed = 0;
  for (const std::string& shard : shards) {
    for (auto& row : read_sweep_csv("shard", shard, false)) {
      const std::string& point = row[kPointField];
      std::uint64_t index = 0;
      const auto [end, error] = std::from_chars(point.data(), point.data() + point.size(), index);
      if (point.empty() || error != std::errc() || end != point.data() + point.size())
        throw ConfigError("shard", shard,
                          "point '" + point + "': expected the whole number (0, 1, ...) of a point in the grid");
      const auto [same, first] = points_of.try_emplace(sweep_point_key(row), index, shard);
      if (!first && same->second.first != index)
        throw ConfigError("shard", shard,
                          "point " + point + " is point " + std::to_string(same->second.first) + " in " +
                              same->second.second + " (topology " + row[kTopologyField] + ", algorithm " +
                              row[kTopologyField + 1] + ", m " + row[kTopologyField + 2] +
                              "): shards of different sweeps");
      if (row[kVerifiedField] == "failed") ++failed;
      const auto [at, inserted] = rows.try_emplace(index, Found{row, shard});
      if (!inserted)
        throw ConfigError("shard", shard,
                          "point " + point + " is in " + at->second.file +
                              " too: a shard given twice, or shards of different sweeps");
    }
  }
  // The points missing below the last, counted (a row's number may be huge) and the first ten named.
  std::string missing;
  std::uint64_t listed = 0;
  std::uint64_t expected = 0;
  for (const auto& [index, found] : rows) {
    for (std::uint64_t gap = expected; gap < index && listed + (gap - expected) < 10; ++gap)
      missing += (missing.empty() ? "" : ", ") + std::to_string(gap);
    listed += index - expected;
    expected = index + 1;
  }
  if (listed > 0)
    throw ConfigError("shard", shards.front() + (shards.size() > 1 ? " ..." : ""),
                      std::to_string(listed) + " point(s) below the last are in none of the files (" + missing +
                          (listed > 10 ? ", ..." : "") +
                          "): a shard not given, not run or not finished (`meshmp sweep --shard I/N --resume` "
                          "completes one)");
  OutputFile file("--csv", output);
  file.stream() << kSweepCsvHeader << '\n';
  for (const auto& [index, found] : rows) file.stream() << csv_line(found.row) << '\n';
  file.commit();
  out << "  merge: " << rows.size() << " points from " << shards.size() << " file(s), " << failed << " failed; "
      << output << "\n";
  return 0;
}

void MergeCommand::add_to(CLI::App& command) {
  command.add_option("--csv", merged_csv_, "the merged CSV")->required();
  command.add_option("shards", shard_csvs_, "the shards' CSVs (every shard: a point missing below the last is an error)")
      ->required();
  plot_.add_to(command);
  command.footer(R"(
EXAMPLE
  parallel meshmp sweep --topologies torus:8x8,torus:16x16 --algorithms tseng-t4,direct -m 8,64 \
      --shard {}/4 --csv shard-{}.csv ::: 1 2 3 4
  meshmp merge --csv sweep.csv shard-*.csv --plot speedup.png --speedup-of tseng-t4)");
}

int MergeCommand::run(const CommandContext& context) {
  plot_.check({}, "");
  check_distinct_outputs({{"--csv", merged_csv_}, {"--plot", plot_.path()}});
  OutputFile png;  // opened before the merge: the check that it can be written
  if (plot_.wanted()) png = plot_.open();
  const int status = run_merge(merged_csv_, shard_csvs_, context.out);
  if (status == 0 && plot_.wanted()) plot_.draw(context.self_path, merged_csv_, png, context.out);
  return status;
}

}  // namespace meshmp
