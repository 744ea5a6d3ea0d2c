// Flit wire format: packing and unpacking. See flit_wire.h.
#include "hw/router/flit_wire.h"

namespace meshmp::wire {
namespace {

// A field of up to 64 bits at bit `first`: it spans at most two words.
void put(WireFlit& bits, int first, int width, std::uint64_t value) {
  const std::uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
  value &= mask;
  const int word = first / 64, shift = first % 64;
  bits[word] |= value << shift;
  if (shift + width > 64) bits[word + 1] |= value >> (64 - shift);
}

std::uint64_t get(const WireFlit& bits, int first, int width) {
  const std::uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
  const int word = first / 64, shift = first % 64;
  std::uint64_t value = bits[word] >> shift;
  if (shift + width > 64) value |= bits[word + 1] << (64 - shift);
  return value & mask;
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
    for (int k = 0; k < route_entries_on_wire(flit); ++k)
      put(bits, kRoute + k * kRouteEntryBits, kRouteEntryBits, flit.route[k]);
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
    for (int k = 0; k < route_entries_on_wire(flit); ++k)
      flit.route[k] = static_cast<std::uint8_t>(get(bits, kRoute + k * kRouteEntryBits, kRouteEntryBits));
  } else {
    flit.payload_bytes = static_cast<std::uint16_t>(get(bits, kPayloadBytes, kPayloadBytesBits));
    for (int b = 0; b < flit.payload_bytes; ++b) flit.data[b] = static_cast<std::uint8_t>(get(bits, kPayload + 8 * b, 8));
  }
  return true;
}

}  // namespace meshmp::wire
