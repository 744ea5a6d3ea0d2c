// Statistics of one machine run, collected after the run as plain data and serialised once to JSON:
// completion time, start-ups per node, messages and bytes per node per step, per-link flit counts and
// utilisation, header blocking (the papers' contention), the message latency distribution, and the
// simulation speed.
#pragma once

#include <nlohmann/json.hpp>

#include "hw/machine/machine.h"

namespace meshmp {

nlohmann::json collect_statistics(const Machine& machine, const RunResult& result);
// The statistics of a shared-resource machine's fabric (004 §2 A, B, F): bus transfers, broadcasts and
// arbitration waits; memory accesses, bank conflicts and port waits; switch conflicts and passes.
nlohmann::json fabric_statistics(const Machine& machine);
// One line each for the run's report: the fabric as configured ("bus: tau = 100 cycles, b = 8 bytes/cycle,
// k* = 1"), and what fabric_statistics() counted.
std::string describe_fabric(const MachineConfig& config, const Topology& topology);
std::string describe_fabric_statistics(const nlohmann::json& fabric);

// min / mean / percentiles / max of a sample (empty sample: count 0).
nlohmann::json distribution(std::vector<std::uint64_t> values);

}  // namespace meshmp
