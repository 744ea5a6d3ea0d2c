// The router models by name. See router_model.h. A new model of meshmp's own is a class implementing
// RouterModel plus one line in the registry's first entries; a program built on the library calls
// register_router_model().
#include <string>
#include <utility>
#include <vector>

#include "topology/config_error.h"
#include "hw/dual_router.h"
#include "hw/router.h"
#include "hw/rtl_router.h"
#include "hw/router_model.h"

namespace meshmp {
namespace {

std::unique_ptr<RouterModel> make_cpp_router(int node, const Topology& topology, const RouterParams& params,
                                             PortModel port_model, RoutingFunction routing,
                                             RouterEnvironment* environment) {
  return std::make_unique<Router>(node, topology, params, port_model, routing, environment);
}

std::unique_ptr<RouterModel> make_rtl_router(int node, const Topology& topology, const RouterParams& params,
                                             PortModel port_model, RoutingFunction routing,
                                             RouterEnvironment* environment) {
  return std::make_unique<RtlRouter>(node, topology, params, port_model, routing, environment);
}

std::unique_ptr<RouterModel> make_dual_router(int node, const Topology& topology, const RouterParams& params,
                                              PortModel port_model, RoutingFunction routing,
                                              RouterEnvironment* environment) {
  return std::make_unique<DualRouter>(node, topology, params, port_model, routing, environment);
}

std::vector<std::pair<std::string, RouterModelFactory>>& router_models() {
  static std::vector<std::pair<std::string, RouterModelFactory>> models{
      {"cpp", &make_cpp_router},    // the cycle-level SystemC router (hw/router.h)
      {"rtl", &make_rtl_router},    // the RTL router of rtl/, verilated (hw/rtl_router.h)
      {"dual", &make_dual_router},  // both in lockstep, stopping at the first difference (hw/dual_router.h)
  };
  return models;
}

}  // namespace

void register_router_model(const std::string& name, RouterModelFactory make) {
  if (name.empty()) throw ConfigError("router.model", name, "a registered router model needs a name");
  for (const auto& [known, factory] : router_models())
    if (known == name) throw ConfigError("router.model", name, "is registered already");
  if (!make) throw ConfigError("router.model", name, "a registered router model needs a factory");
  router_models().emplace_back(name, std::move(make));
}

std::vector<std::string> router_model_names() {
  std::vector<std::string> names;
  for (const auto& [name, make] : router_models()) names.push_back(name);
  return names;
}

std::optional<std::string> router_model_unsupported(const std::string& model, const Topology& topology,
                                                    const RouterParams& params, PortModel port_model) {
  if (model != "rtl" && model != "dual") return std::nullopt;
  if (auto why = RtlRouter::unsupported(topology, params, port_model))
    return std::string(ConfigError("router.model", model, *why).what());
  return std::nullopt;
}

std::unique_ptr<RouterModel> make_router(const std::string& model, int node, const Topology& topology,
                                         const RouterParams& params, PortModel port_model, RoutingFunction routing,
                                         RouterEnvironment* environment) {
  for (const auto& [name, make] : router_models())
    if (model == name) return make(node, topology, params, port_model, routing, environment);
  std::string known;
  for (const auto& name : router_model_names()) known += (known.empty() ? "" : ", ") + name;
  throw ConfigError("router.model", model, "unknown router model; known: " + known);
}

}  // namespace meshmp
