// The registry of workloads. See workload.h.
#include "firmware/workload.h"

#include "firmware/saad_workloads.h"
#include "topology/config_error.h"

namespace meshmp {

const std::vector<WorkloadKind>& workload_kinds() {
  static const std::vector<WorkloadKind> all = [] {
    std::vector<WorkloadKind> list;
    for (auto& w : block_workload_kinds()) list.push_back(std::move(w));
    for (auto& w : transpose_workload_kinds()) list.push_back(std::move(w));
    for (auto& w : permutation_workload_kinds()) list.push_back(std::move(w));
    for (auto& w : saad_workload_kinds()) list.push_back(std::move(w));
    return list;
  }();
  return all;
}

const WorkloadKind& find_workload_kind(const std::string& name) {
  std::string known;
  for (const auto& w : workload_kinds()) {
    if (w.name == name) return w;
    known += (known.empty() ? "" : ", ") + w.name;
  }
  throw ConfigError("workload", name, "unknown workload; known: " + known);
}

AlgorithmOptions workload_options(const std::string& kind, const ExchangeParameters& parameters) {
  const WorkloadKind& w = find_workload_kind(kind);
  return AlgorithmOptions(w.name, w.options, parameters.workload_options, "workload", "workload_options");
}

std::unique_ptr<Workload> make_workload(const std::string& kind, const Topology& topology,
                                        const ExchangeParameters& parameters, std::uint64_t scratch_bytes) {
  return find_workload_kind(kind).make(topology, parameters, workload_options(kind, parameters), scratch_bytes);
}

}  // namespace meshmp
