// The environment of the routers a worker thread steps (hw/network/router_step_pool.h): what they send in one
// cycle (flits, credits, protocol errors) is held here and replayed, in the order it was sent, into the
// network on the simulation thread, after the routers of the chunks before it. Replaying through the
// network's own send_flit / send_credit keeps its statistics (header blocking, flit-hops) in one place.
#pragma once

#include <string>
#include <vector>

#include "hw/router/router_model.h"

namespace meshmp {

class StagedRouterEnvironment final : public RouterEnvironment {
 public:
  explicit StagedRouterEnvironment(RouterEnvironment& network) : network_(&network) {}

  void send_flit(int router, int out_port, const Flit& flit) override { flits_.push_back({router, out_port, flit}); }
  void send_credit(int router, int in_port, int vc) override { credits_.push_back({router, in_port, vc}); }
  // Asked only by waveform probes, which a run on several host threads does not have (the simulation
  // thread opens and closes packet records while the workers step).
  int packet_source(std::uint32_t tag) const override { return network_->packet_source(tag); }
  void protocol_error(const std::string& what) override { errors_.push_back(what); }

  // Hands everything staged to the network, in order, and empties the stage.
  void replay() {
    for (const StagedFlit& f : flits_) network_->send_flit(f.router, f.out_port, f.flit);
    for (const StagedCredit& c : credits_) network_->send_credit(c.router, c.in_port, c.vc);
    for (const std::string& what : errors_) network_->protocol_error(what);
    flits_.clear();
    credits_.clear();
    errors_.clear();
  }

 private:
  struct StagedFlit {
    int router;
    int out_port;
    Flit flit;
  };
  struct StagedCredit {
    int router;
    int in_port;
    int vc;
  };
  RouterEnvironment* network_;
  std::vector<StagedFlit> flits_;
  std::vector<StagedCredit> credits_;
  std::vector<std::string> errors_;
};

}  // namespace meshmp
