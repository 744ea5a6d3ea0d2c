// The power, energy and area of a network's activity as a result reports them (docs/energy.md): the
// model's components in watts averaged over the window, the energy in joules at the technology's clock,
// energy per delivered flit and bit, and the area in mm^2.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "hw/power/network_power.h"

namespace meshmp {

// `power` of `activity` (over its cycles), priced with the technology of `technology_file` (empty: the
// built-in one); energy per delivered flit counts the flits its ejection channels carried.
nlohmann::json power_report(const NetworkPower& power, const NetworkActivity& activity, const std::string& technology_file);

}  // namespace meshmp
