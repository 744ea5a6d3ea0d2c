// 004 §2 F's switch as a machine's fabric: an Omega network of 2x2 switches routed by destination tags
// (tlm/omega_switch.h), each transfer tau_S + m / b_S once its path is free; no broadcast; every node's
// engine a FabricInterface.
#include <memory>
#include <string>

#include "hw/fabric/fabric.h"
#include "hw/fabric/fabric_interface.h"
#include "tlm/omega_switch.h"

namespace meshmp {
namespace {

class OmegaFabric : public MachineFabric {
 public:
  explicit OmegaFabric(const FabricBuild& build)
      : nodes_(build.nodes),
        switch_("omega", build.nodes, FabricTiming{build.params.startup_cycles, build.params.bytes_per_cycle},
                build.cycle) {}

  std::unique_ptr<DmaEngine> make_engine(int node, std::size_t memory_bytes) override {
    return make_bound_fabric_interface(switch_, node, nodes_, memory_bytes);
  }

  void add_statistics(nlohmann::json& fabric) const override {
    const OmegaStatistics& s = switch_.statistics();
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& [step, st] : s.steps)
      steps.push_back({{"step", step},
                       {"transfers", st.transfers},
                       {"conflicting_transfers", st.conflicting_transfers},
                       {"passes", st.passes},
                       {"wait_cycles", st.wait_cycles}});
    fabric["switch"] = {{"stages", switch_.stages()},
                        {"transfers", s.transfers},
                        {"bytes", s.bytes},
                        {"conflicting_transfers", s.conflicting_transfers},
                        {"wait_cycles", s.wait_cycles},
                        {"passes", s.passes},
                        {"peak_concurrent_transfers", s.peak_concurrent},
                        {"steps", steps}};
  }

 private:
  int nodes_;
  OmegaSwitch switch_;
};

FabricKind omega_fabric() {
  FabricKind kind;
  kind.name = "omega";
  kind.summary = "the Omega switch";
  kind.nodes_power_of_two = true;
  kind.power_of_two_reason = "log2 K stages of 2x2 switches";
  kind.make = [](const FabricBuild& build) { return std::make_unique<OmegaFabric>(build); };
  kind.describe = [](const FabricParams& params, int nodes) {
    return describe_fabric_timing("omega", params) + ", " + std::to_string(OmegaSwitch::stage_count(nodes)) +
           " stages of 2x2 switches (destination tags)";
  };
  kind.describe_statistics = [](const nlohmann::json& fabric) {
    auto n = [](const nlohmann::json& v) { return std::to_string(v.get<std::uint64_t>()); };
    const auto& s = fabric["switch"];
    return "switch: " + n(s["transfers"]) + " transfers in " + n(s["passes"]) + " passes, " +
           n(s["conflicting_transfers"]) + " waited for a link (" + n(s["wait_cycles"]) + " cycles)";
  };
  return kind;
}

const FabricRegistration kRegistration{30, omega_fabric};

}  // namespace
}  // namespace meshmp
