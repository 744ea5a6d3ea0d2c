// A run's energy and area as its result reports them (statistics.energy, statistics.area; docs/energy.md):
// the router network's energy by component (its power model's dynamic terms are energies per event or per
// cycle, whatever the clock; its leakage is power over the run's time), the nodes' and the fabric's energy
// by event, the total, the average power at the run's clock, the energy per delivered bit and the
// energy-delay product.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "hw/power/network_power.h"
#include "hw/power/node_energy.h"

namespace meshmp {

// What a run did and how long it took.
struct RunEnergy {
  std::uint64_t cycles = 0;
  double clock_hz = 0;                     // the run's clock: a cycle is 1 / clock_hz seconds
  const NetworkPower* network = nullptr;   // none: a transaction-level network, or 004's fabrics
  double network_clock_hz = 0;             // the clock `network`'s watts were priced at
  NodeEnergy nodes;
  bool has_fabric = false;                 // one of 004's fabrics joins the nodes
  std::uint64_t delivered_bytes = 0;       // written into receivers' memories

  double seconds() const { return static_cast<double>(cycles) / clock_hz; }
  // The network's energy: dynamic (per event or per cycle) and leakage (over seconds()).
  double network_dynamic_joules() const;
  double network_leakage_joules() const;
  double total_joules() const;
};

nlohmann::json energy_report(const RunEnergy& run);
// statistics.area: the network's routers (their input buffers, crossbars and output stages) and channels.
nlohmann::json area_report(const NetworkPower& network, std::size_t routers);

}  // namespace meshmp
