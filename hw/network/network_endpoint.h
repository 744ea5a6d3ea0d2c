// What the network sees of a node's network interface: something that injects flits through the
// router's injection channels and takes flits out of its ejection channels. Implemented by the DMA
// engine's network interface (firmware traffic) and by the synthetic traffic source (benchmarks).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/router/flit.h"

namespace meshmp {

class NetworkEndpoint {
 public:
  virtual ~NetworkEndpoint() = default;
  // One cycle of injection; returns true while the endpoint still has work (keeps the clock running).
  virtual bool step(std::uint64_t cycle) = 0;
  // After step(cycle): the first cycle at which step() can do anything, provided no flit or credit
  // arrives and nothing new is posted before (the network then skips the cycles between: a channel's
  // start-up, for instance).
  virtual std::uint64_t next_work_cycle(std::uint64_t cycle) const { return cycle + 1; }
  // A flit left the router through ejection channel `channel`. The endpoint returns its slot with
  // Network::return_ejection_credit() once it has consumed it (at once, or later: back-pressure).
  virtual void eject(int channel, const Flit& flit, std::uint64_t cycle) = 0;
  // The router freed a slot of injection channel `channel`, virtual channel `vc`.
  virtual void injection_credit(int channel, int vc) = 0;
  // Human-readable state for deadlock and stall reports (empty when idle).
  virtual std::vector<std::string> describe_pending() const { return {}; }
};

}  // namespace meshmp
