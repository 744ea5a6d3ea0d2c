// The packetizer and the depacketizer on their own (hw/network/packetizer.h, hw/network/depacketizer.h,
// hw/network/packet_records.h), no SystemC design. Rules checked (the headers, hw/router/flit.h and
// docs/architecture.md "One-port and all-port nodes", "Router microarchitecture"):
// - a message is cut into packets of at most max_packet_payload_flits payload flits of flit_bytes real
//   bytes behind a head flit whose packet_flits counts head + payload flits; the last flit carries the
//   remaining byte count and is the tail; an empty message is one header-only flit (head and tail);
// - every flit of a packet carries the wire tag of the host record opened for it (source, message id and
//   tag, the packet's byte offset in the message, the message length);
// - one flit per cycle as credits allow, each packet on the next VC with a credit (round robin), a
//   packet staying on its VC; a message waits for its ready cycle and its channel's start-up; the last
//   flit of a message reports the message's DMA descriptor;
// - the depacketizer reassembles each (channel, VC) stream into the same bytes, and reports a body flit
//   without a head, a head into an open packet, an interleaved flit and a wrong flit count as errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "hw/network/depacketizer.h"
#include "hw/network/packet_records.h"
#include "hw/network/packetizer.h"
#include "hw/router/router_params.h"

namespace meshmp {
namespace {

std::vector<std::uint8_t> message_bytes(int length) {
  std::vector<std::uint8_t> bytes(length);
  for (int i = 0; i < length; ++i) bytes[i] = static_cast<std::uint8_t>(i * 7 + 1);
  return bytes;
}

struct ExpectedPacket {
  int payload_flits;
  int last_flit_bytes;        // bytes in the tail flit (0: header-only packet)
  std::uint32_t offset;       // byte offset of its payload in the message
};

struct CuttingCase {
  std::string name;
  int flit_bytes;
  int max_payload_flits;
  int length;  // message bytes
  std::vector<ExpectedPacket> packets;
};

TEST(Packetizer, CutsMessagesIntoPacketsTableOfCases) {
  const std::vector<CuttingCase> cases = {
      {"a 1-byte message: head + one flit of 1 byte", 8, 16, 1, {{1, 1, 0}}},
      {"exactly one flit", 8, 16, 8, {{1, 8, 0}}},
      {"a length that is not a multiple of the flit width: 21 = 8 + 8 + 5", 8, 16, 21, {{3, 5, 0}}},
      {"exactly one packet: 4 flits x 8 bytes", 8, 4, 32, {{4, 8, 0}}},
      {"one byte more than a packet: a second packet of 1 byte", 8, 4, 33, {{4, 8, 0}, {1, 1, 32}}},
      {"exactly three packets", 8, 4, 96, {{4, 8, 0}, {4, 8, 32}, {4, 8, 64}}},
      {"several packets, the last short with a partial flit: 115 = 3 x 32 + 8 + 8 + 3", 8, 4, 115,
       {{4, 8, 0}, {4, 8, 32}, {4, 8, 64}, {3, 3, 96}}},
      {"the defaults (8-byte flits, 16 payload flits): 200 = 128 + 72", 8, 16, 200, {{16, 8, 0}, {9, 8, 128}}},
      {"the widest flit, 32 bytes: 70 = 2 x 32 + 6", 32, 2, 70, {{2, 32, 0}, {1, 6, 64}}},
      {"one payload flit per packet, 4-byte flits: 10 = 4 + 4 + 2", 4, 1, 10, {{1, 4, 0}, {1, 4, 4}, {1, 2, 8}}},
      {"an empty message is one header-only flit, head and tail", 8, 16, 0, {{0, 0, 0}}},
  };

  for (const CuttingCase& c : cases) {
    SCOPED_TRACE(c.name);
    RouterParams params;
    params.vcs = 2;
    params.buffer_flits = 4;
    params.flit_bytes = c.flit_bytes;
    params.max_packet_payload_flits = c.max_payload_flits;
    PacketRecords records;
    Packetizer packetizer(params, records);
    OutgoingMessage message;
    message.src = 3;
    message.dst = 9;
    message.tag = 0xabc;
    message.message_id = 42;
    message.payload = message_bytes(c.length);
    message.descriptor = 17;
    const std::vector<std::uint8_t> original = message.payload;
    packetizer.enqueue(std::move(message));
    EXPECT_EQ(packetizer.bytes_remaining(), static_cast<std::uint32_t>(c.length));

    // Inject, returning each flit's credit at once (the router drains it): one flit per cycle.
    std::vector<Flit> flits;
    std::vector<int> finished;
    int total_flits = 0;
    for (const ExpectedPacket& p : c.packets) total_flits += 1 + p.payload_flits;
    for (std::uint64_t cycle = 0; !packetizer.idle() && cycle < 1000; ++cycle) {
      Flit flit;
      int descriptor = -100;
      ASSERT_TRUE(packetizer.next_flit(cycle, flit, descriptor)) << "cycle " << cycle;
      flits.push_back(flit);
      finished.push_back(descriptor);
      packetizer.return_credit(flit.vc);
    }
    ASSERT_EQ(static_cast<int>(flits.size()), total_flits);
    EXPECT_EQ(packetizer.bytes_remaining(), 0u);

    // The packets, flit by flit.
    std::size_t f = 0;
    std::set<std::uint32_t> tags;
    for (std::size_t k = 0; k < c.packets.size(); ++k) {
      SCOPED_TRACE("packet " + std::to_string(k));
      const ExpectedPacket& p = c.packets[k];
      const Flit& head = flits[f];
      EXPECT_TRUE(head.head);
      EXPECT_EQ(head.tail, p.payload_flits == 0);
      EXPECT_EQ(head.dst, 9);
      EXPECT_EQ(head.packet_flits, 1 + p.payload_flits);
      EXPECT_EQ(head.route_length, 0);
      EXPECT_EQ(head.vc, static_cast<int>(k % 2)) << "packets take the VCs in turn";
      EXPECT_TRUE(tags.insert(head.tag).second) << "tags of packets in flight are distinct";
      ASSERT_TRUE(records.contains(head.tag));
      const PacketRecord& record = records.at(head.tag);
      EXPECT_EQ(record.src, 3);
      EXPECT_EQ(record.message_id, 42u);
      EXPECT_EQ(record.message_tag, 0xabcu);
      EXPECT_EQ(record.message_offset, p.offset);
      EXPECT_EQ(record.message_bytes, static_cast<std::uint32_t>(c.length));
      for (int b = 1; b <= p.payload_flits; ++b) {
        const Flit& body = flits[f + b];
        const bool last = b == p.payload_flits;
        EXPECT_FALSE(body.head);
        EXPECT_EQ(body.tail, last);
        EXPECT_EQ(body.tag, head.tag);
        EXPECT_EQ(body.vc, head.vc);
        EXPECT_EQ(body.payload_bytes, last ? p.last_flit_bytes : c.flit_bytes) << "payload flit " << b;
        for (int i = 0; i < body.payload_bytes; ++i)
          EXPECT_EQ(body.data[i], original[p.offset + (b - 1) * c.flit_bytes + i]) << "payload flit " << b;
      }
      f += 1 + p.payload_flits;
    }
    EXPECT_EQ(records.open_records(), c.packets.size());
    // Only the message's last flit reports its descriptor.
    for (std::size_t i = 0; i < finished.size(); ++i)
      EXPECT_EQ(finished[i], i + 1 == finished.size() ? 17 : -100) << "flit " << i;

    // Reassembly: the same bytes, packet by packet at their offsets.
    Depacketizer depacketizer(1, params.vcs, records);
    std::vector<std::uint8_t> reassembled(c.length, 0);
    std::size_t completed = 0;
    for (const Flit& flit : flits) {
      ReceivedPacket packet;
      std::string error;
      const bool done = depacketizer.accept(0, flit, packet, error);
      EXPECT_EQ(error, "");
      EXPECT_EQ(done, flit.tail);
      if (!done) continue;
      ASSERT_LT(completed, c.packets.size());
      EXPECT_EQ(packet.header.tag, flit.tag);
      const PacketRecord& record = records.at(packet.header.tag);
      ASSERT_LE(record.message_offset + packet.payload.size(), reassembled.size());
      std::copy(packet.payload.begin(), packet.payload.end(), reassembled.begin() + record.message_offset);
      const ExpectedPacket& expected = c.packets[completed];
      const int expected_bytes =
          expected.payload_flits == 0 ? 0 : (expected.payload_flits - 1) * c.flit_bytes + expected.last_flit_bytes;
      EXPECT_EQ(packet.payload.size(), static_cast<std::size_t>(expected_bytes));
      ++completed;
    }
    EXPECT_EQ(completed, c.packets.size());
    EXPECT_EQ(reassembled, original);
  }
}

// Injection: one token per cycle, "-" when no flit; otherwise H (head), HT (header-only), B (body), T (tail)
// followed by the VC, and "#d" when the flit finished the message of descriptor d.
struct Message {
  int length;
  std::uint64_t ready_cycle;
  std::uint64_t startup_cycles;
  int descriptor;
};

struct CreditBack {
  std::uint64_t cycle;  // returned before the packetizer acts at this cycle
  int vc;
};

struct InjectionCase {
  std::string name;
  int vcs;
  int buffer_flits;
  int max_payload_flits;  // 8-byte flits
  std::vector<Message> messages;
  std::vector<CreditBack> credits_back;
  std::string trace;
};

TEST(Packetizer, InjectionTableOfCases) {
  const std::vector<InjectionCase> cases = {
      {"one flit per cycle while credits allow; a packet stays on one VC, the next takes the next VC",
       2, 8, 2, {{24, 0, 0, 7}}, {},
       "H0 B0 T0 H1 T1#7"},
      {"a packet waits for a credit of its own VC (it does not move to a VC that has credits)",
       2, 2, 2, {{16, 0, 0, 1}}, {{4, 0}},
       "H0 B0 - - T0#1"},
      {"a packet starts on the next VC with a credit, round robin, skipping VCs without",
       3, 2, 1, {{32, 0, 0, 4}}, {{7, 1}, {9, 1}},
       // Each VC holds one 2-flit packet; the fourth waits for a credit; VC 0 has none when VC 1's comes
       // back, so it goes on VC 1, and its tail waits for VC 1's next credit.
       "H0 T0 H1 T1 H2 T2 - H1 - T1#4"},
      {"a message waits for its ready cycle", 2, 8, 16, {{8, 2, 0, 3}}, {},
       "- - H0 T0#3"},
      {"a channel start-up runs before the first flit", 2, 8, 16, {{8, 0, 3, 5}}, {},
       "- - - H0 T0#5"},
      {"messages go one after the other, the VC turn carries over, each last flit names its descriptor",
       2, 8, 16, {{8, 0, 0, 5}, {8, 0, 0, 6}}, {},
       "H0 T0#5 H1 T1#6"},
      {"an empty message is one header-only flit", 2, 8, 16, {{0, 0, 0, 9}, {8, 0, 0, 10}}, {},
       "HT0#9 H1 T1#10"},
      {"the next message's start-up (here 1 cycle) begins when it reaches the front", 2, 8, 16,
       {{8, 0, 0, 1}, {8, 0, 1, 2}}, {},
       "H0 T0#1 - H1 T1#2"},
  };

  for (const InjectionCase& c : cases) {
    SCOPED_TRACE(c.name);
    RouterParams params;
    params.vcs = c.vcs;
    params.buffer_flits = c.buffer_flits;
    params.flit_bytes = 8;
    params.max_packet_payload_flits = c.max_payload_flits;
    PacketRecords records;
    Packetizer packetizer(params, records);
    for (const Message& m : c.messages) {
      OutgoingMessage message;
      message.payload = message_bytes(m.length);
      message.ready_cycle = m.ready_cycle;
      message.startup_cycles = m.startup_cycles;
      message.descriptor = m.descriptor;
      packetizer.enqueue(std::move(message));
    }
    std::string trace;
    for (std::uint64_t cycle = 0; !packetizer.idle() && cycle < 100; ++cycle) {
      for (const CreditBack& back : c.credits_back)
        if (back.cycle == cycle) packetizer.return_credit(back.vc);
      Flit flit;
      int descriptor = -100;
      std::string token = "-";
      if (packetizer.next_flit(cycle, flit, descriptor)) {
        token = flit.head ? (flit.tail ? "HT" : "H") : (flit.tail ? "T" : "B");
        token += std::to_string(flit.vc);
      }
      if (descriptor != -100) token += "#" + std::to_string(descriptor);
      trace += (trace.empty() ? "" : " ") + token;
    }
    EXPECT_EQ(trace, c.trace);
  }
}

// The depacketizer's streams: one step per flit, what it answers.
struct Step {
  int channel;
  Flit flit;
  bool completes;
  std::string error;                  // a fragment the error must contain; "" for no error
  std::vector<std::uint8_t> payload;  // of the completed packet
};

struct DepacketizerCase {
  std::string name;
  std::vector<Step> steps;
};

Flit head(std::uint32_t tag, int vc, int packet_flits) {
  Flit f;
  f.head = true;
  f.tail = packet_flits == 1;
  f.tag = tag;
  f.vc = static_cast<std::uint8_t>(vc);
  f.dst = 2;
  f.packet_flits = static_cast<std::uint16_t>(packet_flits);
  return f;
}

Flit body(std::uint32_t tag, int vc, const std::vector<std::uint8_t>& bytes, bool tail) {
  Flit f;
  f.tail = tail;
  f.tag = tag;
  f.vc = static_cast<std::uint8_t>(vc);
  f.payload_bytes = static_cast<std::uint16_t>(bytes.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) f.data[i] = bytes[i];
  return f;
}

TEST(Depacketizer, StreamTableOfCases) {
  const std::vector<std::uint8_t> a = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<std::uint8_t> b = {9, 10, 11};
  const std::vector<std::uint8_t> ab = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const std::vector<DepacketizerCase> cases = {
      {"a packet: head, body, short tail; the bytes in order",
       {{0, head(0, 0, 3), false, "", {}},
        {0, body(0, 0, a, false), false, "", {}},
        {0, body(0, 0, b, true), true, "", ab}}},
      {"a header-only packet completes on its one flit, no bytes",
       {{0, head(1, 1, 1), true, "", {}}}},
      {"packets on different VCs of a channel interleave flit by flit",
       {{0, head(0, 0, 2), false, "", {}}, {0, head(1, 1, 2), false, "", {}}, {0, body(1, 1, b, true), true, "", b},
        {0, body(0, 0, a, true), true, "", a}}},
      {"the same VC on two channels is two streams",
       {{0, head(0, 2, 2), false, "", {}}, {1, head(1, 2, 2), false, "", {}}, {0, body(0, 2, a, true), true, "", a},
        {1, body(1, 2, b, true), true, "", b}}},
      {"a body flit without a head is an error naming channel, VC, tag and source",
       {{1, body(1, 2, a, false), false,
         "ejection channel 1 vc 2, packet tag 1 from node 5: body flit without a head", {}}}},
      {"a flit with an unknown tag is named as such",
       {{0, body(7, 0, a, true), false, "packet tag 7 (unknown): body flit without a head", {}}}},
      {"a head while a packet is open on the VC is an error",
       {{0, head(0, 0, 3), false, "", {}},
        {0, head(1, 0, 2), false, "head flit arrived while packet 0 was still open", {}}}},
      {"a flit of another packet on the VC is an error",
       {{0, head(0, 0, 3), false, "", {}}, {0, body(2, 0, a, false), false, "flit interleaved into packet 0", {}}}},
      {"fewer flits than the header says is an error at the tail; the VC takes the next packet",
       {{0, head(0, 0, 3), false, "", {}}, {0, body(0, 0, a, true), false, "2 flits received, header says 3", {}},
        {0, head(1, 0, 2), false, "", {}}, {0, body(1, 0, b, true), true, "", b}}},
      {"more flits than the header says is an error at the tail",
       {{0, head(0, 0, 2), false, "", {}}, {0, body(0, 0, a, false), false, "", {}},
        {0, body(0, 0, b, true), false, "3 flits received, header says 2", {}}}},
  };

  for (const DepacketizerCase& c : cases) {
    SCOPED_TRACE(c.name);
    PacketRecords records;
    for (int src : {4, 5, 6}) {  // tags 0, 1, 2 from nodes 4, 5, 6
      PacketRecord record;
      record.src = src;
      records.open(record);
    }
    Depacketizer depacketizer(2, 4, records);
    for (std::size_t s = 0; s < c.steps.size(); ++s) {
      SCOPED_TRACE("flit " + std::to_string(s));
      const Step& step = c.steps[s];
      ReceivedPacket packet;
      std::string error;
      const bool completed = depacketizer.accept(step.channel, step.flit, packet, error);
      EXPECT_EQ(completed, step.completes);
      if (step.error.empty())
        EXPECT_EQ(error, "");
      else
        EXPECT_NE(error.find(step.error), std::string::npos) << "error: " << error;
      if (completed) {
        EXPECT_EQ(packet.header.tag, step.flit.tag);
        EXPECT_TRUE(packet.header.head);
        EXPECT_EQ(packet.payload, step.payload);
      }
    }
  }
}

}  // namespace
}  // namespace meshmp
