// Per-link utilisation of a `meshmp traffic` point: the flits each link between two routers carried during
// the measurement window (the difference of two snapshots of Interconnect::link_counts(), taken at the ends
// of the warm-up and of the window), per cycle of the window, as the result's JSON holds them; and the heat
// map of them `meshmp traffic --link-heatmap` draws (sims/plot_link_heatmap.py).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/network/interconnect.h"
#include "sims/output_file.h"
#include "topology/topology.h"

namespace meshmp {

// The result's link_utilisation, max_link_utilisation and average_link_utilisation, set in `result`:
// `after` less `before` (snapshots of the same network, links in one order) over `measure_cycles`. Ejection
// channels (dst -1) are left out.
void add_link_utilisation(nlohmann::json& result, const std::vector<LinkCount>& before,
                          const std::vector<LinkCount>& after, std::uint64_t measure_cycles);

// "max link utilisation 0.1234 flits/cycle (5->6), average 0.0456" of a result's link_utilisation; empty
// when the network has no link.
std::string link_utilisation_text(const nlohmann::json& result);

// Draws the result's link_utilisation on `topology` into `png` (titled `title`): 2-D meshes and tori as
// their nodes at (x, y) with each directed link an offset arrow, every other topology as a source x
// destination matrix. Prints "plot: PNG"; a failed script is an OutputError (run_plot_script).
void draw_link_heatmap(const std::string& self_path, const Topology& topology, const nlohmann::json& result,
                       const std::string& title, OutputFile& png, std::ostream& out);

}  // namespace meshmp
