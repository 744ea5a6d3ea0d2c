// 004 §2 A's broadcast bus as a machine's fabric (tlm/broadcast_bus.h): k* transfers at once, each
// tau_B + m / b_B, a transfer to every other node as one broadcast; every node's engine a FabricInterface.
#include <algorithm>
#include <memory>
#include <string>

#include "hw/fabric/fabric.h"
#include "hw/fabric/fabric_interface.h"
#include "tlm/broadcast_bus.h"

namespace meshmp {
namespace {

class BusFabric : public MachineFabric {
 public:
  explicit BusFabric(const FabricBuild& build)
      : nodes_(build.nodes),
        bus_("bus", build.nodes, build.params.concurrent_transfers,
             FabricTiming{build.params.startup_cycles, build.params.bytes_per_cycle}, build.cycle) {}

  std::unique_ptr<DmaEngine> make_engine(int node, std::size_t memory_bytes) override {
    return make_bound_fabric_interface(bus_, node, nodes_, memory_bytes);
  }

  void add_statistics(nlohmann::json& fabric) const override {
    const BusStatistics& s = bus_.statistics();
    fabric["concurrent_transfers"] = bus_.concurrent_transfers();
    fabric["bus"] = {{"transfers", s.transfers},
                     {"bytes", s.bytes},
                     {"broadcasts", s.broadcasts},
                     {"peak_concurrent_transfers", s.peak_concurrent_transfers},
                     {"arbitration_wait_cycles", s.wait_cycles},
                     {"busy_cycles", s.busy_cycles}};
  }

 private:
  int nodes_;
  BroadcastBus bus_;
};

FabricKind bus_fabric() {
  FabricKind kind;
  kind.name = "bus";
  kind.summary = "the broadcast bus";
  kind.operations.broadcast = true;
  kind.shared_slots = true;
  kind.make = [](const FabricBuild& build) { return std::make_unique<BusFabric>(build); };
  kind.describe = [](const FabricParams& params, int) {
    return describe_fabric_timing("bus", params) + ", k* = " + std::to_string(params.concurrent_transfers);
  };
  kind.describe_statistics = [](const nlohmann::json& fabric) {
    auto n = [](const nlohmann::json& v) { return std::to_string(v.get<std::uint64_t>()); };
    const auto& b = fabric["bus"];
    return "bus: " + n(b["transfers"]) + " transfers (" + n(b["broadcasts"]) + " broadcasts), at most " +
           n(b["peak_concurrent_transfers"]) + " at once, " + n(b["arbitration_wait_cycles"]) +
           " cycles waited for the bus, busy " + n(b["busy_cycles"]) + " cycles";
  };
  return kind;
}

const FabricRegistration kRegistration{10, bus_fabric};

}  // namespace
}  // namespace meshmp
