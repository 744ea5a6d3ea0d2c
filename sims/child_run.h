// One `meshmp run` in a child process (SystemC elaborates one design per process), its statistics JSON
// read back: what `meshmp paper` builds its tables from.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace meshmp {

// Runs `self_path run ARGUMENTS --stats-json TMP` (ARGUMENTS split into words as a shell would, run
// without one); the statistics document, or none when the run failed (then `failure` says what was run
// and how it ended). Throws StopRequested (sims/stop_signals.h) when the program is being stopped.
std::optional<nlohmann::json> run_child(const std::string& self_path, const std::string& arguments, std::string& failure);

}  // namespace meshmp
