// The power, energy and area of a network's activity as a result reports them (docs/energy.md): the
// model's components in watts averaged over the window, the energy in joules at the technology's clock,
// energy per delivered flit and bit, and the area in mm^2.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "hw/power/network_power.h"

namespace meshmp {

// `power` of `activity` (over its cycles, in which `delivered_flits` reached their destinations), priced
// with the technology of `technology_file` (empty: the built-in one).
nlohmann::json power_report(const NetworkPower& power, const NetworkActivity& activity, const std::string& technology_file,
                            std::uint64_t delivered_flits);

}  // namespace meshmp
