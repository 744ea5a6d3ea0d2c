// The registry of exchange algorithms. See algorithm_registry.h.
#include "firmware/algorithm_registry.h"

#include "topology/config_error.h"

namespace meshmp {

double step_cost_cycles(const ExchangeParameters& parameters, double bytes) {
  return static_cast<double>(parameters.startup_cycles) + bytes / parameters.flit_bytes;
}

namespace {

std::vector<Algorithm>& registry() {
  static std::vector<Algorithm> all = [] {
    std::vector<Algorithm> list;
    for (auto& a : baseline_exchange_algorithms()) list.push_back(std::move(a));
    for (auto& a : bruck_exchange_algorithms()) list.push_back(std::move(a));
    for (auto& a : tseng_exchange_algorithms()) list.push_back(std::move(a));
    for (auto& a : suh_mesh_exchange_algorithms()) list.push_back(std::move(a));
    for (auto& a : dima_exchange_algorithms()) list.push_back(std::move(a));
    for (auto& a : transpose_direct_algorithms()) list.push_back(std::move(a));
    for (auto& a : jh_exchange_algorithms()) list.push_back(std::move(a));
    for (auto& a : jh_tree_algorithms()) list.push_back(std::move(a));
    for (auto& a : jh_path_algorithms()) list.push_back(std::move(a));
    for (auto& a : jh_gray_permute_algorithms()) list.push_back(std::move(a));
    for (auto& a : saad_algorithms()) list.push_back(std::move(a));
    return list;
  }();
  return all;
}

}  // namespace

const std::vector<Algorithm>& algorithms() { return registry(); }

void register_algorithm(Algorithm algorithm) {
  const std::string& name = algorithm.name;
  if (name.empty()) throw ConfigError("algorithm", name, "a registered algorithm needs a name");
  for (const Algorithm& a : registry())
    if (a.name == name) throw ConfigError("algorithm", name, "is registered already (" + a.source + ")");
  if (!algorithm.firmware) throw ConfigError("algorithm", name, "a registered algorithm needs its firmware");
  if (!algorithm.supports)
    throw ConfigError("algorithm", name, "a registered algorithm needs supports (which machines it runs on)");
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
