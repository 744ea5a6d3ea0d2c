// A flit: the unit that crosses a link in one cycle (wormhole switching, 001 §1, 000 §2), as the fields of
// the wire format (hw/router/flit_wire.h) and nothing else. A packet is a head flit carrying the header
// (destination, routing state, length, optional source route) followed by payload flits of `flit_bytes`
// real bytes each; the last one is marked tail. A header-only packet (a null message, 001 §7.2) is one
// flit that is both head and tail. What the simulation knows beyond the wire (source, message fields,
// statistics) is in the host record the tag names (hw/network/packet_records.h).
#pragma once

#include <array>
#include <cstdint>

namespace meshmp {

constexpr int kMaxFlitBytes = 32;
constexpr int kMaxRouteHops = 32;
constexpr std::uint8_t kNoPort = 0xff;

struct Flit {
  bool head = false;
  bool tail = false;
  std::uint8_t vc = 0;             // the virtual channel the flit occupies on the link it is crossing
  std::uint32_t tag = 0;           // names the packet's host record (every flit of a packet carries it)
  // Header fields (head flit only).
  std::int32_t dst = 0;
  std::uint8_t vc_class = 0;       // dateline class on the current ring: 0 before the wrap link, 1 after
  std::uint8_t ring_dimension = kNoPort;  // dimension the class refers to
  std::uint8_t route_length = 0;   // source route: number of output ports; 0 = routed by the routers
  std::uint8_t route_position = 0; // next entry of `route` to use
  std::uint16_t packet_flits = 0;  // head + payload flits (cut-through needs the length up front)
  // Payload flits only.
  std::uint16_t payload_bytes = 0; // valid bytes in `data`
  // A head flit carries its route where a payload flit carries its bytes (as on the wire).
  union {
    std::array<std::uint8_t, kMaxRouteHops> route{};  // head: output ports of a source route
    std::array<std::uint8_t, kMaxFlitBytes> data;     // payload flit: the bytes
  };
};

// A two-phase oblivious function's header (hw/router/two_phase_routing.h) rides in the route field of a
// head the routers route (route_length 0, so the field is free): its intermediate node in route[0..1]
// (little-endian, 16 bits as dst) and its phase (0: to the intermediate node, 1: on to dst) in route[2].
inline int two_phase_intermediate(const Flit& head) { return head.route[0] | head.route[1] << 8; }
inline int two_phase_phase(const Flit& head) { return head.route[2]; }
inline void set_two_phase_header(Flit& head, int intermediate, int phase) {
  head.route[0] = static_cast<std::uint8_t>(intermediate & 0xff);
  head.route[1] = static_cast<std::uint8_t>(intermediate >> 8);
  head.route[2] = static_cast<std::uint8_t>(phase);
}

// A head an adaptive function routes carries its source router's coordinate in dimension 0 in the same
// free field, route[0..1] (little-endian), written by that router: odd-even offers a north or south turn
// of an eastbound packet in an even column only in its source's column (Chiu 2000), which a router reads
// here (the RTL router's meshmp_route_compute; the SystemC router has the source at hand).
inline int source_column(const Flit& head) { return head.route[0] | head.route[1] << 8; }
inline void set_source_column(Flit& head, int column) {
  head.route[0] = static_cast<std::uint8_t>(column & 0xff);
  head.route[1] = static_cast<std::uint8_t>(column >> 8);
}

// The route entries a head carries on the wire: its source route, or the routers' own field above (route[0..2]).
constexpr int kRoutersRouteField = 3;
inline int route_entries_on_wire(const Flit& head) {
  return head.route_length > kRoutersRouteField ? head.route_length : kRoutersRouteField;
}

}  // namespace meshmp
