// What a router did, counted event by event for the network's power model (hw/power/network_power.h):
// flits written into and read out of each input port's buffers, and crossbar traversals from each input
// port to each output port. Ports are numbered as the router's (network ports, then local ports).
#pragma once

#include <cstdint>
#include <vector>

namespace meshmp {

struct RouterActivity {
  explicit RouterActivity(int num_ports)
      : ports(num_ports),
        buffer_writes(static_cast<std::size_t>(num_ports), 0),
        buffer_reads(static_cast<std::size_t>(num_ports), 0),
        crossbar(static_cast<std::size_t>(num_ports) * static_cast<std::size_t>(num_ports), 0) {}

  int ports;
  std::vector<std::uint64_t> buffer_writes;  // per input port
  std::vector<std::uint64_t> buffer_reads;   // per input port
  std::vector<std::uint64_t> crossbar;       // [in_port * ports + out_port]

  std::uint64_t traversals(int in_port, int out_port) const {
    return crossbar[static_cast<std::size_t>(in_port) * static_cast<std::size_t>(ports) + static_cast<std::size_t>(out_port)];
  }
  void count_write(int in_port) { ++buffer_writes[static_cast<std::size_t>(in_port)]; }
  void count_traversal(int in_port, int out_port) {
    ++buffer_reads[static_cast<std::size_t>(in_port)];
    ++crossbar[static_cast<std::size_t>(in_port) * static_cast<std::size_t>(ports) + static_cast<std::size_t>(out_port)];
  }
};

}  // namespace meshmp
