// Registration by API call (docs/library.md): a program built on the library adds algorithms, workloads,
// router models and fabrics without editing a table; names that are taken, empty or incomplete entries
// are refused naming the field and the rule. (The installed package and the out-of-tree project: library_install_test.sh.)
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "firmware/api/algorithm_registry.h"
#include "firmware/workloads/workload.h"
#include "hw/fabric/fabric.h"
#include "hw/router/router_model.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

std::string refusal(const std::function<void()>& registration) {
  try {
    registration();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

Algorithm complete_algorithm(const std::string& name) {
  Algorithm a;
  a.name = name;
  a.why_unsupported = [](const Topology&, const ExchangeParameters&) -> std::optional<std::string> { return std::nullopt; };
  a.firmware = [](NodeApi&) {};
  a.estimate_cycles = [](const Topology&, const ExchangeParameters&) { return 1.0; };
  return a;
}

TEST(Registration, AnAlgorithmIsFoundByNameOnceRegistered) {
  EXPECT_THROW(find_algorithm("mine"), ConfigError);
  register_algorithm(complete_algorithm("mine"));
  EXPECT_EQ(find_algorithm("mine").name, "mine");
  EXPECT_EQ(algorithms().back().name, "mine");
}

TEST(Registration, AnAlgorithmTakenEmptyOrIncompleteIsRefused) {
  EXPECT_EQ(refusal([] { register_algorithm(complete_algorithm("direct")); }),
            "algorithm = 'direct': is registered already (002 §1 (total exchange))");
  EXPECT_EQ(refusal([] { register_algorithm(complete_algorithm("")); }),
            "algorithm = '': a registered algorithm needs a name");
  Algorithm no_firmware = complete_algorithm("x");
  no_firmware.firmware = nullptr;
  EXPECT_EQ(refusal([&] { register_algorithm(no_firmware); }), "algorithm = 'x': a registered algorithm needs its firmware");
  Algorithm no_estimate = complete_algorithm("x");
  no_estimate.estimate_cycles = nullptr;
  EXPECT_NE(refusal([&] { register_algorithm(no_estimate); }).find("needs estimate_cycles"), std::string::npos);
}

TEST(Registration, ARouterModelIsNamedByRouterModelOnceRegistered) {
  const Topology torus = Topology::parse("torus:4x4");
  RouterParams params;
  params.model = "mine";
  EXPECT_NE(params.validate(torus).value_or("").find("router.model = 'mine': unknown router model"), std::string::npos);
  register_router_model("mine", [](int node, const Topology& topology, const RouterParams& p, PortModel port_model,
                                   RoutingFunction routing, RouterEnvironment* environment) {
    return make_router("cpp", node, topology, p, port_model, routing, environment);
  });
  const auto names = router_model_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "mine"), names.end());
  EXPECT_FALSE(params.validate(torus).has_value()) << *params.validate(torus);
  EXPECT_EQ(refusal([] { register_router_model("cpp", [](int, const Topology&, const RouterParams&, PortModel,
                                                         RoutingFunction, RouterEnvironment*) {
              return std::unique_ptr<RouterModel>();
            }); }),
            "router.model = 'cpp': is registered already");
  EXPECT_EQ(refusal([] { register_router_model("empty", nullptr); }),
            "router.model = 'empty': a registered router model needs a factory");
}

TEST(Registration, AWorkloadIsFoundByNameOnceRegisteredAndATakenOrIncompleteOneIsRefused) {
  WorkloadKind mine;
  mine.name = "mine";
  mine.source = "a test";
  mine.make = [](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions& options,
                 std::uint64_t scratch) { return find_workload_kind("complete-exchange").make(topology, parameters, options, scratch); };
  EXPECT_THROW(find_workload_kind("mine"), ConfigError);
  register_workload(mine);
  EXPECT_EQ(find_workload_kind("mine").name, "mine");
  EXPECT_EQ(workload_kinds().back().name, "mine");
  EXPECT_EQ(refusal([&] { register_workload(mine); }), "workload = 'mine': is registered already (a test)");
  WorkloadKind no_make = mine;
  no_make.name = "x";
  no_make.make = nullptr;
  EXPECT_EQ(refusal([&] { register_workload(no_make); }),
            "workload = 'x': a registered workload needs make (it builds the workload)");
  no_make.name = "";
  EXPECT_EQ(refusal([&] { register_workload(no_make); }), "workload = '': a registered workload needs a name");
}

TEST(Registration, AFabricIsSpeltAsATopologyOnceRegisteredAndATakenOrIncompleteOneIsRefused) {
  EXPECT_THROW(Topology::parse("mine:8"), ConfigError);
  FabricKind mine = find_fabric("bus");
  mine.name = "mine";
  register_fabric(mine);
  EXPECT_EQ(find_fabric("mine").name, "mine");
  EXPECT_EQ(Topology::parse("mine:8").fabric(), "mine");
  EXPECT_EQ(Topology::parse("mine:8").num_nodes(), 8);
  EXPECT_EQ(refusal([&] { register_fabric(mine); }), "fabric = 'mine': is registered already");
  FabricKind torus = mine;
  torus.name = "torus";
  EXPECT_EQ(refusal([&] { register_fabric(torus); }), "topology = 'torus': names a topology already");
  FabricKind incomplete = mine;
  incomplete.name = "x";
  incomplete.describe = nullptr;
  EXPECT_EQ(refusal([&] { register_fabric(incomplete); }),
            "fabric = 'x': a registered fabric needs make, describe and describe_statistics");
  // The built-in kinds offer what their machines have, and errors name them.
  EXPECT_TRUE(find_fabric("bus").operations.broadcast);
  EXPECT_TRUE(find_fabric("shared-memory").operations.global_memory);
  EXPECT_FALSE(find_fabric("omega").operations.broadcast);
  EXPECT_EQ(fabrics_offering(&NodeOperations::global_memory), "the shared-memory machine, shared-memory:K");
}

}  // namespace
}  // namespace meshmp
