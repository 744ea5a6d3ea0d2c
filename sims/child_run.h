// One `meshmp run` in a child process (SystemC elaborates one design per process), its statistics JSON
// read back: what `meshmp paper` builds its tables from.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace meshmp {

// Runs `self_path run ARGUMENTS --stats-json TMP`; the statistics document, or none when the run failed
// (then `command` says what was run).
std::optional<nlohmann::json> run_child(const std::string& self_path, const std::string& arguments, std::string& command);

}  // namespace meshmp
