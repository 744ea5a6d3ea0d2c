// The registry of workloads. See workload.h.
#include "firmware/workloads/workload.h"

#include <utility>

#include "topology/config_error.h"
#include "topology/registry.h"

namespace meshmp {
namespace {

Registry<WorkloadKind>& registry() {
  static Registry<WorkloadKind> all("workload", "workload");
  return all;
}

}  // namespace

WorkloadFamilyRegistration::WorkloadFamilyRegistration(int list_position, std::vector<WorkloadKind> (*family)()) {
  registry().add_family(list_position, family);
}

const std::vector<WorkloadKind>& workload_kinds() { return registry().entries(); }

void register_workload(WorkloadKind kind) {
  if (const WorkloadKind* taken = registry().lookup(kind.name))
    throw ConfigError("workload", kind.name, "is registered already (" + taken->source + ")");
  if (!kind.name.empty() && !kind.make)
    throw ConfigError("workload", kind.name, "a registered workload needs make (it builds the workload)");
  registry().append(std::move(kind));
}

const WorkloadKind& find_workload_kind(const std::string& name) { return registry().find(name); }

AlgorithmOptions workload_options(const std::string& kind, const ExchangeParameters& parameters) {
  const WorkloadKind& w = find_workload_kind(kind);
  return AlgorithmOptions(w.name, w.options, parameters.workload_options, "workload", "workload_options");
}

std::unique_ptr<Workload> make_workload(const std::string& kind, const Topology& topology,
                                        const ExchangeParameters& parameters, std::uint64_t scratch_bytes) {
  return find_workload_kind(kind).make(topology, parameters, workload_options(kind, parameters), scratch_bytes);
}

}  // namespace meshmp
