// The registry of exchange algorithms. See algorithm_registry.h.
#include "firmware/algorithm_registry.h"

#include <algorithm>
#include <utility>

#include "topology/config_error.h"

namespace meshmp {

double step_cost_cycles(const ExchangeParameters& parameters, double bytes) {
  return static_cast<double>(parameters.startup_cycles) + bytes / parameters.flit_bytes;
}

namespace {

// The families registered by their own files, in the order of registration (static initialisation).
std::vector<std::pair<int, std::vector<Algorithm> (*)()>>& families() {
  static std::vector<std::pair<int, std::vector<Algorithm> (*)()>> registered;
  return registered;
}

// Every algorithm: the families by list position, then those register_algorithm() added. Built at first
// use, after every file's static registration.
std::vector<Algorithm>& registry() {
  static std::vector<Algorithm> all = [] {
    auto ordered = families();
    std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Algorithm> list;
    for (const auto& family : ordered)
      for (auto& a : family.second()) list.push_back(std::move(a));
    return list;
  }();
  return all;
}

}  // namespace

AlgorithmFamilyRegistration::AlgorithmFamilyRegistration(int list_position, std::vector<Algorithm> (*family)()) {
  families().emplace_back(list_position, family);
}

const std::vector<Algorithm>& algorithms() { return registry(); }

void register_algorithm(Algorithm algorithm) {
  const std::string& name = algorithm.name;
  if (name.empty()) throw ConfigError("algorithm", name, "a registered algorithm needs a name");
  for (const Algorithm& a : registry())
    if (a.name == name) throw ConfigError("algorithm", name, "is registered already (" + a.source + ")");
  if (!algorithm.firmware) throw ConfigError("algorithm", name, "a registered algorithm needs its firmware");
  if (!algorithm.why_unsupported)
    throw ConfigError("algorithm", name, "a registered algorithm needs why_unsupported (the machines it refuses, and why)");
  if (!algorithm.estimate_cycles)
    throw ConfigError("algorithm", name, "a registered algorithm needs estimate_cycles (its cost model's time)");
  registry().push_back(std::move(algorithm));
}

Algorithm::OptionEstimate paper_estimate(const Algorithm& algorithm, const Topology& topology,
                                         const ExchangeParameters& parameters, const AlgorithmOptions& options) {
  if (algorithm.estimate_for_options) return algorithm.estimate_for_options(topology, parameters, options);
  return {algorithm.estimate_cycles(topology, parameters), algorithm.estimate_formula, ""};
}

const Algorithm& find_algorithm(const std::string& name) {
  std::string known;
  for (const auto& a : algorithms()) {
    if (a.name == name) return a;
    known += (known.empty() ? "" : ", ") + a.name;
  }
  throw ConfigError("algorithm", name, "unknown algorithm; known: " + known);
}

}  // namespace meshmp
