// The multibus machine. See multibus_fabric.h.
#include "multibus_fabric.h"

#include <memory>
#include <string>

#include "hw/fabric/fabric.h"
#include "hw/fabric/fabric_interface.h"
#include "tlm/broadcast_bus.h"

namespace library_user {
namespace {

class Multibus : public meshmp::MachineFabric {
 public:
  explicit Multibus(const meshmp::FabricBuild& build)
      : nodes_(build.nodes),
        bus_("multibus", build.nodes, build.nodes,
             meshmp::FabricTiming{build.params.startup_cycles, build.params.bytes_per_cycle}, build.cycle) {}

  std::unique_ptr<meshmp::DmaEngine> make_engine(int node, std::size_t memory_bytes) override {
    return meshmp::make_bound_fabric_interface(bus_, node, nodes_, memory_bytes);
  }

  void add_statistics(nlohmann::json& fabric) const override {
    fabric["multibus"] = {{"transfers", bus_.statistics().transfers},
                          {"peak_concurrent_transfers", bus_.statistics().peak_concurrent_transfers}};
  }

 private:
  int nodes_;
  meshmp::BroadcastBus bus_;
};

}  // namespace

void register_multibus_fabric() {
  meshmp::FabricKind kind;
  kind.name = "multibus";
  kind.summary = "the multibus";
  kind.operations.broadcast = true;
  kind.make = [](const meshmp::FabricBuild& build) { return std::make_unique<Multibus>(build); };
  kind.describe = [](const meshmp::FabricParams& params, int nodes) {
    return meshmp::describe_fabric_timing("multibus", params) + ", a channel per node (" + std::to_string(nodes) +
           ")";
  };
  kind.describe_statistics = [](const nlohmann::json& fabric) {
    return "multibus: " + fabric["multibus"]["transfers"].dump() + " transfers, at most " +
           fabric["multibus"]["peak_concurrent_transfers"].dump() + " at once";
  };
  meshmp::register_fabric(std::move(kind));
}

}  // namespace library_user
