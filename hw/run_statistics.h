// Statistics of one machine run, collected after the run as plain data and serialised once to JSON:
// completion time, start-ups per node, messages and bytes per node per step, per-link flit counts and
// utilisation, header blocking (the papers' contention), the message latency distribution, and the
// simulation speed.
#pragma once

#include <nlohmann/json.hpp>

#include "hw/machine.h"

namespace meshmp {

nlohmann::json collect_statistics(const Machine& machine, const RunResult& result);

// min / mean / percentiles / max of a sample (empty sample: count 0).
nlohmann::json distribution(std::vector<std::uint64_t> values);

}  // namespace meshmp
