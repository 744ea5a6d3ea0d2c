// Flit wire format: packing and unpacking. See flit_wire.h.
#include "hw/flit_wire.h"

namespace meshmp::wire {
namespace {

void put(WireFlit& bits, int first, int width, std::uint64_t value) {
  for (int i = 0; i < width; ++i)
    if ((value >> i) & 1) bits[(first + i) / 64] |= std::uint64_t{1} << ((first + i) % 64);
}

std::uint64_t get(const WireFlit& bits, int first, int width) {
  std::uint64_t value = 0;
  for (int i = 0; i < width; ++i) value |= ((bits[(first + i) / 64] >> ((first + i) % 64)) & 1) << i;
  return value;
}

}  // namespace

WireFlit pack(const Flit& flit) {
  WireFlit bits{};
  put(bits, kValid, 1, 1);
  put(bits, kHead, 1, flit.head);
  put(bits, kTail, 1, flit.tail);
  put(bits, kVc, kVcBits, flit.vc);
  put(bits, kTag, kTagBits, flit.tag);
  if (flit.head) {
    put(bits, kDst, kDstBits, static_cast<std::uint32_t>(flit.dst));
    put(bits, kVcClass, 1, flit.vc_class);
    put(bits, kRingDimension, kRingDimensionBits, flit.ring_dimension == kNoPort ? kNoRingDimension : flit.ring_dimension);
    put(bits, kRouteLength, kRouteLengthBits, flit.route_length);
    put(bits, kRoutePosition, kRoutePositionBits, flit.route_position);
    put(bits, kPacketFlits, kPacketFlitsBits, flit.packet_flits);
    for (int k = 0; k < flit.route_length; ++k) put(bits, kRoute + k * kRouteEntryBits, kRouteEntryBits, flit.route[k]);
  } else {
    put(bits, kPayloadBytes, kPayloadBytesBits, flit.payload_bytes);
    for (int b = 0; b < flit.payload_bytes; ++b) put(bits, kPayload + 8 * b, 8, flit.data[b]);
  }
  return bits;
}

bool unpack(const WireFlit& bits, Flit& flit) {
  if (!get(bits, kValid, 1)) return false;
  flit = Flit{};
  flit.head = get(bits, kHead, 1);
  flit.tail = get(bits, kTail, 1);
  flit.vc = static_cast<std::uint8_t>(get(bits, kVc, kVcBits));
  flit.tag = static_cast<std::uint32_t>(get(bits, kTag, kTagBits));
  if (flit.head) {
    flit.dst = static_cast<std::int32_t>(get(bits, kDst, kDstBits));
    flit.vc_class = static_cast<std::uint8_t>(get(bits, kVcClass, 1));
    const auto ring = static_cast<std::uint8_t>(get(bits, kRingDimension, kRingDimensionBits));
    flit.ring_dimension = ring == kNoRingDimension ? kNoPort : ring;
    flit.route_length = static_cast<std::uint8_t>(get(bits, kRouteLength, kRouteLengthBits));
    flit.route_position = static_cast<std::uint8_t>(get(bits, kRoutePosition, kRoutePositionBits));
    flit.packet_flits = static_cast<std::uint16_t>(get(bits, kPacketFlits, kPacketFlitsBits));
    for (int k = 0; k < flit.route_length; ++k)
      flit.route[k] = static_cast<std::uint8_t>(get(bits, kRoute + k * kRouteEntryBits, kRouteEntryBits));
  } else {
    flit.payload_bytes = static_cast<std::uint16_t>(get(bits, kPayloadBytes, kPayloadBytesBits));
    for (int b = 0; b < flit.payload_bytes; ++b) flit.data[b] = static_cast<std::uint8_t>(get(bits, kPayload + 8 * b, 8));
  }
  return true;
}

}  // namespace meshmp::wire
