// The power and area of a router network from the events that happened in it: the model of Balfour and
// Dally (ICS 2006, "Design tradeoffs for tiled CMP on-chip networks") as BookSim2's power module prices
// it, component by component, with one technology (hw/power/technology.h). Power is each component's
// switched capacitance times Vdd^2 times the clock, weighted by its activity (events per cycle over the
// cycles counted), plus leakage; area sums cell footprints in metal pitches. docs/energy.md gives every
// equation.
//
//   channels: repeated wires (K-sized repeaters, N per pipeline stage, M stages, chosen per length for
//     the least M^4 x power that meets 0.8 of the clock period), their clock, retiming flip-flops, leakage;
//   input buffers: an SRAM of vcs x buffer_flits words of the channel's width, wordline and bitline
//     energy per read and per write, bitline leakage;
//   crossbar: a matrix of ports x ports, wire and cross-point capacitance per traversal (half the wires
//     for the nearer half of the ports), its control, its leakage;
//   outputs: a flip-flop per bit per traversal, its clock, an enable.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/power/technology.h"
#include "hw/router/router_activity.h"

namespace meshmp {

// One channel: its length in link-latency cycles (its wire is that times the technology's wire_length)
// and the flits it carried.
struct ChannelActivity {
  int latency_cycles = 1;
  std::uint64_t flits = 0;
};

// What the network did over `cycles` cycles, and its shape.
struct NetworkActivity {
  std::uint64_t cycles = 0;
  int channel_width_bits = 128;  // a flit's width (BookSim2's channel_width)
  int vcs = 1;
  int buffer_flits = 1;          // per VC
  std::vector<ChannelActivity> channels;  // every channel: injection, ejection and between routers
  std::uint64_t ejected_flits = 0;        // what the ejection channels carried: the flits delivered
  std::vector<RouterActivity> routers;
};

// Average power [W] by component, and area [mm^2]; and the clock the technology implies.
struct NetworkPower {
  double clock_hz = 0;  // 1 / (20 FO4)
  double channel_wire = 0, channel_clock = 0, channel_retiming = 0, channel_leakage = 0;
  double input_read = 0, input_write = 0, input_leakage = 0;
  double switch_traversal = 0, switch_control = 0, switch_leakage = 0;
  double output_dff = 0, output_clock = 0, output_control = 0;
  double channel_area = 0, switch_area = 0, input_area = 0, output_area = 0;

  double total_power() const {
    return channel_wire + channel_clock + channel_retiming + channel_leakage + input_read + input_write +
           input_leakage + switch_traversal + switch_control + switch_leakage + output_dff + output_clock +
           output_control;
  }
  double leakage_power() const { return channel_leakage + input_leakage + switch_leakage; }
  double total_area() const { return channel_area + switch_area + input_area + output_area; }
};

// The network's power over its activity's cycles (at least one), and its area.
NetworkPower network_power(const Technology& technology, const NetworkActivity& activity);

}  // namespace meshmp
