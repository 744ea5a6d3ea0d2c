// The router models by name. See router_model.h: each model of meshmp's own registers its description
// from its own file; a program built on the library calls register_router_model().
#include <string>
#include <utility>
#include <vector>

#include "hw/router/router_model.h"
#include "topology/config_error.h"
#include "topology/registry.h"

namespace meshmp {
namespace {

Registry<RouterModelDescription>& registry() {
  static Registry<RouterModelDescription> all("router.model", "router model");
  return all;
}

}  // namespace

RouterModelRegistration::RouterModelRegistration(int list_position, RouterModelDescription (*describe)()) {
  registry().add_family(list_position, [describe] { return std::vector<RouterModelDescription>{describe()}; });
}

void register_router_model(RouterModelDescription description) {
  if (!description.name.empty() && !description.make)
    throw ConfigError("router.model", description.name, "a registered router model needs a factory");
  registry().append(std::move(description));
}

void register_router_model(const std::string& name, RouterModelFactory make) {
  RouterModelDescription description;
  description.name = name;
  description.make = std::move(make);
  register_router_model(std::move(description));
}

const RouterModelDescription& find_router_model(const std::string& name) { return registry().find(name); }

std::vector<std::string> router_model_names() { return registry().names(); }

std::optional<std::string> router_model_unsupported(const std::string& model, const Topology& topology,
                                                    const RouterParams& params, PortModel port_model) {
  const RouterModelDescription& description = find_router_model(model);
  if (!description.unsupported) return std::nullopt;
  return description.unsupported(topology, params, port_model);
}

std::unique_ptr<RouterModel> make_router(const std::string& model, int node, const Topology& topology,
                                         const RouterParams& params, PortModel port_model, RoutingFunction routing,
                                         RouterEnvironment* environment) {
  return find_router_model(model).make(node, topology, params, port_model, routing, environment);
}

}  // namespace meshmp
