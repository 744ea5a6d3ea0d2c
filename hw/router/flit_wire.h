// The flit wire format: the bits that cross a link in one cycle, shared bit for bit by the SystemC router
// and the RTL router (rtl/). hw/router/flit.h holds exactly these fields; everything else a simulation keeps about
// a packet (source, message fields, creation cycle, statistics) stays on the host, in the record its `tag`
// names (hw/network/packet_records.h).
//
// A flit is kWireBits bits, held little-endian in kWireWords 64-bit words (bit i of the flit is bit i % 64
// of word i / 64). Fields, as [first bit, width]:
//
//   every flit  valid [0,1]  head [1,1]  tail [2,1]  vc [3,4]  tag [7,32]
//   head flit   dst [39,16]  vc_class [55,1]  ring_dimension [56,5] (31 = none)  route_length [61,6]
//               route_position [67,6]  packet_flits [73,13] (head included)
//               route[k] [86 + 8k, 8], k = 0..31 (output ports of a source route; a head without one
//               carries the routers' own header field in route[0..2], flit.h)
//   body flit   payload_bytes [39,6]  payload byte b [45 + 8b, 8], b = 0..31
//
// A head flit carries no payload (001 §1: the header flit), a body flit no header fields.
#pragma once

#include <array>
#include <cstdint>

#include "hw/router/flit.h"

namespace meshmp::wire {

constexpr int kValid = 0;
constexpr int kHead = 1;
constexpr int kTail = 2;
constexpr int kVc = 3, kVcBits = 4;
constexpr int kTag = 7, kTagBits = 32;
// Head flit.
constexpr int kDst = 39, kDstBits = 16;
constexpr int kVcClass = 55;
constexpr int kRingDimension = 56, kRingDimensionBits = 5;
constexpr std::uint32_t kNoRingDimension = 31;
constexpr int kRouteLength = 61, kRouteLengthBits = 6;
constexpr int kRoutePosition = 67, kRoutePositionBits = 6;
constexpr int kPacketFlits = 73, kPacketFlitsBits = 13;
constexpr int kRoute = 86, kRouteEntryBits = 8;
// Body flit.
constexpr int kPayloadBytes = 39, kPayloadBytesBits = 6;
constexpr int kPayload = 45;

constexpr int kWireBits = kRoute + kMaxRouteHops * kRouteEntryBits;  // 342: the head layout is the wider
constexpr int kWireWords = (kWireBits + 63) / 64;

using WireFlit = std::array<std::uint64_t, kWireWords>;

// The wire bits of `flit` (valid set). The flit's fields must fit their widths (the router parameters'
// limits guarantee it).
WireFlit pack(const Flit& flit);
// The flit on the wire. Returns false when valid is clear (no flit).
bool unpack(const WireFlit& bits, Flit& flit);

}  // namespace meshmp::wire
