// A flit: the unit that crosses a link in one cycle (wormhole switching, 001 §1, 000 §2). A packet is a
// head flit carrying the header (destination, source, message fields, optional source route) followed by
// payload flits of `flit_bytes` real bytes each; the last one is marked tail. A header-only packet (a null
// message, 001 §7.2) is one flit that is both head and tail.
#pragma once

#include <array>
#include <cstdint>

namespace meshmp {

constexpr int kMaxFlitBytes = 32;
constexpr int kMaxRouteHops = 32;
constexpr std::uint8_t kNoPort = 0xff;

struct Flit {
  std::uint64_t packet_id = 0;
  std::int32_t src = 0;
  std::int32_t dst = 0;
  bool head = false;
  bool tail = false;
  std::uint8_t vc = 0;             // the virtual channel the flit occupies on the link it is crossing
  // Header fields (meaningful in the head flit only).
  std::uint8_t vc_class = 0;       // dateline class on the current ring: 0 before the wrap link, 1 after
  std::uint8_t ring_dimension = kNoPort;  // dimension the class refers to
  std::uint8_t route_length = 0;   // source route: number of output ports; 0 = routed by the routers
  std::uint8_t route_position = 0; // next entry of `route` to use
  std::uint16_t payload_bytes = 0; // valid bytes in `data` (payload flits)
  std::uint16_t packet_flits = 0;  // head + payload flits (cut-through needs the length up front)
  std::uint32_t message_id = 0;    // per-source message number
  std::uint32_t tag = 0;
  std::uint32_t message_offset = 0;  // byte offset of this packet's payload within its message
  std::uint32_t message_bytes = 0;   // whole message length
  std::uint32_t blocked_cycles = 0;  // header blocking accumulated on the way (statistics)
  std::uint64_t created_cycle = 0;   // when the message was handed to the DMA engine (statistics)
  std::array<std::uint8_t, kMaxRouteHops> route{};
  std::array<std::uint8_t, kMaxFlitBytes> data{};
};

}  // namespace meshmp
