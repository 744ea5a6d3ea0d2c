// A run described once. See run_spec.h.
#include "hw/machine/run_spec.h"

#include <utility>

#include "hw/fabric/fabric.h"
#include "topology/config_error.h"

namespace meshmp {

void check_words_option(const Algorithm& algorithm, const MachineConfig& config) {
  const auto words = config.workload_options.find("words");
  if (words != config.workload_options.end() && !algorithm.sized_in_words)
    throw ConfigError("workload_options.words", words->second,
                      "sizes 004's data in words for the saad-* algorithms; " + algorithm.name +
                          " moves blocks of block_bytes (set the block size instead)");
}

RunSpec make_run_spec(const MachineConfig& config, const Algorithm& algorithm, Topology topology) {
  check_words_option(algorithm, config);
  AlgorithmOptions options(algorithm.name, algorithm.options, config.algorithm_options);
  const ExchangeParameters parameters = exchange_parameters(config);
  const std::uint64_t scratch_bytes = algorithm.scratch_bytes(topology, parameters, options);
  return RunSpec{config, std::move(topology), &algorithm, std::move(options), parameters, scratch_bytes};
}

std::optional<std::string> why_unsupported(const Algorithm& algorithm, const MachineConfig& config,
                                           const Topology& topology) {
  if (auto error = algorithm.why_unsupported(topology, exchange_parameters(config))) return error;
  if (topology.fabric().empty()) return std::nullopt;
  const FabricKind& fabric = find_fabric(topology.fabric());
  if (!fabric.operations.messages && (!algorithm.sends_messages || algorithm.sends_messages(topology)))
    return "algorithm = '" + algorithm.name + "': it sends messages between nodes; " + fabric.summary + ", " +
           topology.spec() + ", has none";
  return std::nullopt;
}

RunSpec make_run_spec(const MachineConfig& config, const Algorithm& algorithm) {
  return make_run_spec(config, algorithm, Topology::parse(config.topology));
}

}  // namespace meshmp
