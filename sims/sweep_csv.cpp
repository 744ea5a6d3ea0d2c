// The CSV of `meshmp sweep`. See sweep_csv.h.
#include "sims/sweep_csv.h"

#include "topology/config_error.h"
#include "topology/input_file.h"

namespace meshmp {

namespace {

// A sweep's CSV is a few hundred bytes a point; 1 GiB holds millions of points.
const InputFileRule kSweepCsvRule{"a sweep CSV", std::uint64_t{1} << 30, "a sweep CSV must be at most 1 GiB"};

}  // namespace

const char* const kSweepCsvHeader =
    "point,topology,algorithm,block_bytes,startup_cycles,flit_bytes,exit_status,verified,completion_cycles,"
    "zero_load_estimate_cycles,paper_estimate_cycles,synchronized_steps,sum_of_step_max_blocks,max_messages_per_node,"
    "rearrangement_bytes_max_per_node,header_blocking_cycles,steps_with_blocking,host_seconds,"
    "status_bound_steps,cut_bound_unrounded_steps,port_model,energy.joules.total,energy.energy_per_delivered_bit_joules,"
    "energy.energy_delay_product_joule_seconds,run_options,error";

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::vector<std::vector<std::string>> read_csv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = any = true;
    } else if (c == ',') {
      record.push_back(field), field.clear(), any = true;
    } else if (c == '\n') {
      record.push_back(field), field.clear();
      records.push_back(record), record.clear(), any = false;
    } else {
      field += c, any = true;
    }
  }
  if (any) record.push_back(field), records.push_back(record);
  return records;
}

std::string csv_line(const std::vector<std::string>& record) {
  std::string line;
  for (std::size_t i = 0; i < record.size(); ++i) line += (i ? "," : "") + csv_field(record[i]);
  return line;
}

std::vector<std::vector<std::string>> read_sweep_csv(const std::string& field, const std::string& path,
                                                     bool missing_is_empty) {
  if (missing_is_empty && input_file_missing(path)) return {};
  const std::string text = read_input_file(field, path, kSweepCsvRule);
  auto records = read_csv(text);
  if (records.empty()) return {};
  if (csv_line(records.front()) != kSweepCsvHeader)
    throw ConfigError(field, path,
                      "its header is not the one this meshmp writes (" + std::string(kSweepCsvHeader) +
                          "): not a CSV of this sweep version");
  const std::size_t fields = records.front().size();
  for (std::size_t r = 1; r < records.size(); ++r)
    if (records[r].size() != fields)
      throw ConfigError(field, path,
                        "row " + std::to_string(r + 1) + " has " + std::to_string(records[r].size()) +
                            " fields, not " + std::to_string(fields));
  records.erase(records.begin());
  return records;
}

std::string sweep_point_key(const std::vector<std::string>& row) {
  const std::size_t run_options = row.size() - 2;  // before the error
  std::string key;
  for (std::size_t i = kTopologyField; i < kTopologyField + 5; ++i) key += row[i] + '\n';
  return key + row[run_options];
}

}  // namespace meshmp
