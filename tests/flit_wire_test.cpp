// The flit wire format (hw/router/flit_wire.h): every field survives pack and unpack at its full width, fields
// do not overlap, the layout fits its words, and an invalid word unpacks to nothing.
#include <gtest/gtest.h>

#include <random>

#include "hw/router/flit_wire.h"

namespace meshmp {
namespace {

Flit random_flit(std::mt19937_64& rng, bool head) {
  Flit f;
  f.head = head;
  f.tail = rng() & 1;
  f.vc = static_cast<std::uint8_t>(rng() % 16);
  f.tag = static_cast<std::uint32_t>(rng());
  if (head) {
    f.dst = static_cast<std::int32_t>(rng() % 65536);
    f.vc_class = static_cast<std::uint8_t>(rng() & 1);
    f.ring_dimension = rng() % 4 == 0 ? kNoPort : static_cast<std::uint8_t>(rng() % 16);
    f.route_length = static_cast<std::uint8_t>(rng() % (kMaxRouteHops + 1));
    f.route_position = static_cast<std::uint8_t>(rng() % (f.route_length + 1));
    f.packet_flits = static_cast<std::uint16_t>(1 + rng() % 4097);
    for (int k = 0; k < f.route_length; ++k) f.route[k] = static_cast<std::uint8_t>(rng() % 255);
  } else {
    f.payload_bytes = static_cast<std::uint16_t>(rng() % (kMaxFlitBytes + 1));
    for (int b = 0; b < f.payload_bytes; ++b) f.data[b] = static_cast<std::uint8_t>(rng());
  }
  return f;
}

void expect_same_wire_fields(const Flit& a, const Flit& b) {
  EXPECT_EQ(a.head, b.head);
  EXPECT_EQ(a.tail, b.tail);
  EXPECT_EQ(a.vc, b.vc);
  EXPECT_EQ(a.tag, b.tag);
  if (a.head) {
    EXPECT_EQ(a.dst, b.dst);
    EXPECT_EQ(a.vc_class, b.vc_class);
    EXPECT_EQ(a.ring_dimension, b.ring_dimension);
    EXPECT_EQ(a.route_length, b.route_length);
    EXPECT_EQ(a.route_position, b.route_position);
    EXPECT_EQ(a.packet_flits, b.packet_flits);
    for (int k = 0; k < a.route_length; ++k) EXPECT_EQ(a.route[k], b.route[k]) << "route entry " << k;
  } else {
    EXPECT_EQ(a.payload_bytes, b.payload_bytes);
    for (int i = 0; i < a.payload_bytes; ++i) EXPECT_EQ(a.data[i], b.data[i]) << "payload byte " << i;
  }
}

TEST(FlitWire, RandomFlitsRoundTrip) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const Flit f = random_flit(rng, i % 2 == 0);
    Flit back;
    ASSERT_TRUE(wire::unpack(wire::pack(f), back));
    expect_same_wire_fields(f, back);
    if (HasFailure()) return;
  }
}

TEST(FlitWire, FieldsAtTheirLimitsDoNotSpill) {
  Flit head;
  head.head = head.tail = true;
  head.vc = 15;
  head.dst = 65535;
  head.vc_class = 1;
  head.ring_dimension = 30;
  head.route_length = kMaxRouteHops;
  head.route_position = kMaxRouteHops;
  head.packet_flits = 4097;
  head.tag = 0xffffffffu;
  head.route.fill(0xfe);
  Flit back;
  ASSERT_TRUE(wire::unpack(wire::pack(head), back));
  expect_same_wire_fields(head, back);
  // The top bits beyond kWireBits stay clear.
  const wire::WireFlit bits = wire::pack(head);
  for (int b = wire::kWireBits; b < 64 * wire::kWireWords; ++b) EXPECT_EQ((bits[b / 64] >> (b % 64)) & 1, 0u) << b;
}

TEST(FlitWire, EmptyWireIsNoFlit) {
  Flit f;
  EXPECT_FALSE(wire::unpack(wire::WireFlit{}, f));
}

}  // namespace
}  // namespace meshmp
