// The registry of exchange algorithms. See algorithm_registry.h.
#include "firmware/api/algorithm_registry.h"

#include <utility>

#include "topology/config_error.h"
#include "topology/registry.h"

namespace meshmp {

double step_cost_cycles(const ExchangeParameters& parameters, double bytes) {
  return static_cast<double>(parameters.startup_cycles) + bytes / parameters.flit_bytes;
}

namespace {

Registry<Algorithm>& registry() {
  static Registry<Algorithm> all("algorithm", "algorithm");
  return all;
}

}  // namespace

AlgorithmFamilyRegistration::AlgorithmFamilyRegistration(int list_position, std::vector<Algorithm> (*family)()) {
  registry().add_family(list_position, family);
}

const std::vector<Algorithm>& algorithms() { return registry().entries(); }

void register_algorithm(Algorithm algorithm) {
  const std::string& name = algorithm.name;
  if (const Algorithm* taken = registry().lookup(name))
    throw ConfigError("algorithm", name, "is registered already (" + taken->source + ")");
  if (!name.empty() && !algorithm.firmware) throw ConfigError("algorithm", name, "a registered algorithm needs its firmware");
  if (!name.empty() && !algorithm.why_unsupported)
    throw ConfigError("algorithm", name, "a registered algorithm needs why_unsupported (the machines it refuses, and why)");
  if (!name.empty() && !algorithm.estimate_cycles)
    throw ConfigError("algorithm", name, "a registered algorithm needs estimate_cycles (its cost model's time)");
  registry().append(std::move(algorithm));
}

Algorithm::OptionEstimate paper_estimate(const Algorithm& algorithm, const Topology& topology,
                                         const ExchangeParameters& parameters, const AlgorithmOptions& options) {
  if (algorithm.estimate_for_options) return algorithm.estimate_for_options(topology, parameters, options);
  return {algorithm.estimate_cycles(topology, parameters), algorithm.estimate_formula, ""};
}

const Algorithm& find_algorithm(const std::string& name) { return registry().find(name); }

}  // namespace meshmp
