// The "counting" router model. See counting_router.h.
#include "counting_router.h"

#include <memory>

#include "hw/router/router_model.h"

namespace library_user {
namespace {

std::uint64_t steps = 0, flits = 0;

class CountingRouter : public meshmp::RouterModel {
 public:
  explicit CountingRouter(std::unique_ptr<meshmp::RouterModel> inner) : inner_(std::move(inner)) {}

  int node() const override { return inner_->node(); }
  int num_ports() const override { return inner_->num_ports(); }
  void receive_flit(int in_port, const meshmp::Flit& flit, std::uint64_t cycle) override {
    ++flits;
    inner_->receive_flit(in_port, flit, cycle);
  }
  void receive_credit(int out_port, int vc) override { inner_->receive_credit(out_port, vc); }
  void step(std::uint64_t cycle) override {
    ++steps;
    inner_->step(cycle);
  }
  int buffered_flits() const override { return inner_->buffered_flits(); }
  std::uint64_t flits_sent(int out_port) const override { return inner_->flits_sent(out_port); }
  std::uint64_t body_stall_cycles() const override { return inner_->body_stall_cycles(); }
  std::vector<std::string> describe_blocked(std::uint64_t cycle) const override {
    return inner_->describe_blocked(cycle);
  }
  void set_probes_enabled(bool enabled) override { inner_->set_probes_enabled(enabled); }
  const meshmp::OutputPortProbe& probe(int out_port) const override { return inner_->probe(out_port); }
  const int* credit_counter(int out_port, int vc) const override { return inner_->credit_counter(out_port, vc); }

 private:
  std::unique_ptr<meshmp::RouterModel> inner_;
};

}  // namespace

void register_counting_router() {
  meshmp::register_router_model(
      "counting", [](int node, const meshmp::Topology& topology, const meshmp::RouterParams& params,
                     meshmp::PortModel port_model, meshmp::RoutingFunction routing, meshmp::RouterEnvironment* environment) {
        return std::make_unique<CountingRouter>(
            meshmp::make_router("cpp", node, topology, params, port_model, routing, environment));
      });
}

std::uint64_t counted_steps() { return steps; }
std::uint64_t counted_flits() { return flits; }

}  // namespace library_user
