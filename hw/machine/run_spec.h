// A run described once: its configuration and what every part of the run derives from it, each built
// once before anything is elaborated: the topology parsed, the algorithm found and its options checked,
// the machine's parameters as the algorithms see them (ExchangeParameters), and the scratch memory the
// algorithm needs. `meshmp run` (sims/run_command.cpp) and programs built on the library make one and
// give it to Machine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "firmware/api/algorithm_options.h"
#include "firmware/api/algorithm_registry.h"
#include "firmware/api/exchange_parameters.h"
#include "hw/machine/machine_config.h"
#include "topology/topology.h"

namespace meshmp {

struct RunSpec {
  MachineConfig config;
  Topology topology;
  const Algorithm* algorithm = nullptr;
  AlgorithmOptions options;
  ExchangeParameters parameters;
  std::uint64_t scratch_bytes = 0;
};

// ConfigError when the workload option `words` (004's N) is given to an algorithm that sizes its blocks by
// block_bytes (and its estimates and scratch with them): only the saad-* algorithms read it.
void check_words_option(const Algorithm& algorithm, const MachineConfig& config);

// Why `algorithm` cannot run on the machine of `config` on `topology`: its own rule (why_unsupported),
// then what the machine's nodes can do (an algorithm that sends messages on a machine without them);
// none when it runs.
std::optional<std::string> why_unsupported(const Algorithm& algorithm, const MachineConfig& config,
                                           const Topology& topology);

// The run of `algorithm` on the machine of `config` (valid: MachineConfig::validate()), on `topology`,
// config.topology parsed. Throws ConfigError naming the field for options or a `words` option that do not
// fit the algorithm.
RunSpec make_run_spec(const MachineConfig& config, const Algorithm& algorithm, Topology topology);
// The same, parsing config.topology.
RunSpec make_run_spec(const MachineConfig& config, const Algorithm& algorithm);

}  // namespace meshmp
