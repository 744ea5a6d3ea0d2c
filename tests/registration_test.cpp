// Registration by API call (docs/library.md): a program built on the library adds algorithms and router
// models without editing a table; names that are taken, empty or incomplete entries are refused naming
// the field and the rule. (The installed package and the out-of-tree project: library_install_test.sh.)
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "firmware/api/algorithm_registry.h"
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

}  // namespace
}  // namespace meshmp
