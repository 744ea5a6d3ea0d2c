// The fabrics by name. See fabric.h.
#include "hw/fabric/fabric.h"

#include <utility>

#include "topology/config_error.h"
#include "topology/registry.h"
#include "topology/topology.h"

namespace meshmp {
namespace {

Registry<FabricKind>& registry() {
  static Registry<FabricKind> all("fabric", "fabric");
  return all;
}

void register_spelling(const FabricKind& kind) {
  register_fabric_spelling(FabricSpelling{kind.name, kind.nodes_power_of_two, kind.power_of_two_reason});
}

}  // namespace

FabricRegistration::FabricRegistration(int list_position, FabricKind (*describe)()) {
  register_spelling(describe());
  registry().add_family(list_position, [describe] { return std::vector<FabricKind>{describe()}; });
}

void register_fabric(FabricKind kind) {
  if (kind.name.empty()) throw ConfigError("fabric", kind.name, "a registered fabric needs a name");
  if ((!kind.make || !kind.describe || !kind.describe_statistics))
    throw ConfigError("fabric", kind.name, "a registered fabric needs make, describe and describe_statistics");
  if (registry().lookup(kind.name)) throw ConfigError("fabric", kind.name, "is registered already");
  register_spelling(kind);
  registry().append(std::move(kind));
}

const FabricKind& find_fabric(const std::string& name) { return registry().find(name); }

std::string fabrics_offering(bool NodeOperations::*operation) {
  std::string list;
  for (const FabricKind& kind : registry().entries())
    if (kind.operations.*operation) list += (list.empty() ? "" : "; ") + kind.summary + ", " + kind.name + ":K";
  return list;
}

std::string fabric_topologies() {
  std::string list;
  for (const FabricKind& kind : registry().entries()) list += (list.empty() ? "" : ", ") + kind.name + ":K";
  return list;
}

std::string describe_fabric_timing(const std::string& name, const FabricParams& params) {
  return name + ": tau = " + std::to_string(params.startup_cycles) + " cycles, b = " +
         std::to_string(params.bytes_per_cycle) + " bytes/cycle per node";
}

}  // namespace meshmp
