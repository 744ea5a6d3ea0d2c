// Paper 004's broadcast bus (tlm/broadcast_bus.h) as a TLM-2.0 interconnect: test initiators (a SystemC
// user's own modules with simple_initiator_sockets, one per node) send messages through it to test targets
// (one per node) that record when and what arrived. Times are exact: cycle 10 ns, tau = 5 cycles,
// b = 8 bytes per cycle, so a transfer of m bytes holds the bus n = 5 + ceil(m / 8) cycles and an
// uncontended one made at an edge completes 1 (arbitration) + n cycles later.
//
// SystemC elaborates one design per process: every TEST builds its own modules and calls sc_start, and
// must run alone (ctest runs each in its own process; by hand: --gtest_filter=TlmBus.<name>).
#include <gtest/gtest.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlm/broadcast_bus.h"
#include "tlm/message_transfer.h"

namespace meshmp {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;

constexpr double kCycleNs = 10;
sc_time cycles(std::uint64_t n) { return sc_time(kCycleNs * static_cast<double>(n), SC_NS); }
sc_time ns(double v) { return sc_time(v, SC_NS); }
FabricTiming test_timing() {
  FabricTiming timing;
  timing.startup_cycles = 5;
  timing.bytes_per_cycle = 8;
  return timing;
}

std::vector<std::uint8_t> pattern(std::size_t length, int seed) {
  std::vector<std::uint8_t> bytes(length);
  for (std::size_t i = 0; i < length; ++i) bytes[i] = static_cast<std::uint8_t>(seed * 37 + i * 11 + 1);
  return bytes;
}

// What a sender saw when its b_transport returned.
struct Outcome {
  bool returned = false;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  sc_time finished;
  sc_time returned_delay;
  std::string error;
};

// A node's sending DMA engine as a SystemC user would write it: an initiator of its own, bound to the
// bus's nodes_in. send() builds the payload message_transfer.h asks for; `tweak` lets a test break it.
struct TestInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<TestInitiator> socket;
  const int node;

  TestInitiator(sc_core::sc_module_name name, int node_id)
      : sc_core::sc_module(name), socket("socket"), node(node_id) {}

  Outcome send(const std::vector<int>& destinations, std::vector<std::uint8_t> bytes, std::uint32_t tag,
               sc_time annotated = SC_ZERO_TIME, bool attach_extension = true,
               const std::function<void(tlm::tlm_generic_payload&, MessageTransfer&)>& tweak = {}) {
    tlm::tlm_generic_payload trans;
    MessageTransfer ext;
    ext.source = node;
    ext.destinations = destinations;
    ext.tag = tag;
    trans.set_command(tlm::TLM_WRITE_COMMAND);
    trans.set_address(0);
    trans.set_data_ptr(bytes.empty() ? nullptr : bytes.data());
    trans.set_data_length(static_cast<unsigned>(bytes.size()));
    trans.set_streaming_width(static_cast<unsigned>(bytes.size()));
    trans.set_byte_enable_ptr(nullptr);
    trans.set_byte_enable_length(0);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    if (attach_extension) trans.set_extension(&ext);
    if (tweak) tweak(trans, ext);
    sc_time delay = annotated;
    socket->b_transport(trans, delay);
    Outcome outcome;
    outcome.returned = true;
    outcome.status = trans.get_response_status();
    outcome.finished = sc_core::sc_time_stamp();
    outcome.returned_delay = delay;
    outcome.error = ext.error;
    if (attach_extension) trans.clear_extension(&ext);  // ext lives on this stack, not the payload's
    return outcome;
  }
};

// One delivery a receiver took.
struct Delivery {
  int receiver = 0;
  sc_time at;
  int source = 0;
  std::uint32_t tag = 0;
  std::vector<std::uint8_t> bytes;
};

// A node's receiving DMA engine: a target bound to the bus's nodes_out; it copies the bytes into the
// shared log, or answers with the error a test set.
struct TestTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<TestTarget> socket;
  const int node;
  std::vector<Delivery>& log;
  tlm::tlm_response_status answer = tlm::TLM_OK_RESPONSE;
  std::string answer_text;
  sc_time annotate = SC_ZERO_TIME;  // added to the annotated delay it returns

  TestTarget(sc_core::sc_module_name name, int node_id, std::vector<Delivery>& shared_log)
      : sc_core::sc_module(name), socket("socket"), node(node_id), log(shared_log) {
    socket.register_b_transport(this, &TestTarget::b_transport);
  }

  void b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    EXPECT_EQ(delay, SC_ZERO_TIME);
    delay += annotate;
    MessageTransfer* ext = trans.get_extension<MessageTransfer>();
    ASSERT_NE(ext, nullptr);
    EXPECT_EQ(trans.get_command(), tlm::TLM_WRITE_COMMAND);
    Delivery d;
    d.receiver = node;
    d.at = sc_core::sc_time_stamp();
    d.source = ext->source;
    d.tag = ext->tag;
    d.bytes.assign(trans.get_data_ptr(), trans.get_data_ptr() + trans.get_data_length());
    log.push_back(std::move(d));
    if (answer != tlm::TLM_OK_RESPONSE) ext->error = answer_text;
    trans.set_response_status(answer);
  }
};

// K test initiators and K test targets around one bus, bound in node order (`bound` of them, to test
// the elaboration check).
struct Bench {
  BroadcastBus bus;
  std::vector<Delivery> log;
  std::vector<std::unique_ptr<TestInitiator>> senders;
  std::vector<std::unique_ptr<TestTarget>> receivers;

  Bench(int nodes, int concurrent, int bound = -1) : bus("bus", nodes, concurrent, test_timing(), cycles(1)) {
    if (bound < 0) bound = nodes;
    for (int i = 0; i < bound; ++i) {
      senders.push_back(std::make_unique<TestInitiator>(("sender" + std::to_string(i)).c_str(), i));
      receivers.push_back(std::make_unique<TestTarget>(("receiver" + std::to_string(i)).c_str(), i, log));
      senders.back()->socket.bind(bus.nodes_in);
      bus.nodes_out.bind(receivers.back()->socket);
    }
  }

  // Node `node` sends at time `at` (its thread starts then); the outcome lands in `out`.
  void send_at(int node, sc_time at, std::vector<int> destinations, std::vector<std::uint8_t> bytes, Outcome& out,
               std::uint32_t tag = 0) {
    TestInitiator* sender = senders[static_cast<std::size_t>(node)].get();
    sc_core::sc_spawn([=, &out] {
      sc_core::wait(at);
      out = sender->send(destinations, bytes, tag);
    });
  }

  std::vector<Delivery> deliveries_to(int node) const {
    std::vector<Delivery> to;
    for (const auto& d : log)
      if (d.receiver == node) to.push_back(d);
    return to;
  }
};

TEST(TlmBus, SingleTransferTakesArbitrationTauAndWords) {
  Bench bench(4, 1);
  Outcome at_edge, mid_cycle;
  const auto bytes = pattern(100, 1);  // n = 5 + ceil(100 / 8) = 18 cycles
  bench.send_at(0, SC_ZERO_TIME, {2}, bytes, at_edge, 7);
  // Made at 523 ns, in cycle 52: considered at edge 53, granted there, delivered at edge 53 + n = 71.
  const auto later = pattern(3, 2);  // n = 5 + 1 = 6
  bench.send_at(3, ns(523), {1}, later, mid_cycle, 8);
  sc_core::sc_start();

  ASSERT_TRUE(at_edge.returned);
  EXPECT_EQ(at_edge.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(at_edge.finished, cycles(1 + 5 + 13));
  EXPECT_EQ(at_edge.returned_delay, SC_ZERO_TIME);
  EXPECT_EQ(at_edge.error, "");
  ASSERT_TRUE(mid_cycle.returned);
  EXPECT_EQ(mid_cycle.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(mid_cycle.finished, cycles(53 + 6));

  const auto to2 = bench.deliveries_to(2);
  ASSERT_EQ(to2.size(), 1u);
  EXPECT_EQ(to2[0].at, cycles(19));
  EXPECT_EQ(to2[0].source, 0);
  EXPECT_EQ(to2[0].tag, 7u);
  EXPECT_EQ(to2[0].bytes, bytes);
  const auto to1 = bench.deliveries_to(1);
  ASSERT_EQ(to1.size(), 1u);
  EXPECT_EQ(to1[0].at, cycles(59));
  EXPECT_EQ(to1[0].bytes, later);
  EXPECT_TRUE(bench.deliveries_to(0).empty());
  EXPECT_TRUE(bench.deliveries_to(3).empty());
}

TEST(TlmBus, AnnotatedDelayIsWaitedOutFirstAndReturnedZero) {
  Bench bench(2, 1);
  Outcome outcome;
  const auto bytes = pattern(8, 3);  // n = 6
  TestInitiator* sender = bench.senders[0].get();
  // Called at 0 with 37 ns annotated: the request is made at 37 ns (cycle 3), considered at edge 4.
  sc_core::sc_spawn([&] { outcome = sender->send({1}, bytes, 1, ns(37)); });
  sc_core::sc_start();
  ASSERT_TRUE(outcome.returned);
  EXPECT_EQ(outcome.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(outcome.finished, cycles(4 + 6));
  EXPECT_EQ(outcome.returned_delay, SC_ZERO_TIME);
  ASSERT_EQ(bench.log.size(), 1u);
  EXPECT_EQ(bench.log[0].bytes, bytes);
}

// k* = 1: four senders at the same instant, each sending twice (its second message as soon as its first
// returns). The threads are spawned in reverse node order: the result must not depend on it.
TEST(TlmBus, OneSlotSerialisesFourSendersRoundRobin) {
  Bench bench(4, 1);
  std::vector<Outcome> first(4), second(4);
  for (int node = 3; node >= 0; --node) {
    TestInitiator* sender = bench.senders[static_cast<std::size_t>(node)].get();
    const int to = (node + 1) % 4;
    sc_core::sc_spawn([=, &first, &second] {
      first[static_cast<std::size_t>(node)] = sender->send({to}, pattern(16, node), static_cast<std::uint32_t>(node));
      second[static_cast<std::size_t>(node)] =
          sender->send({to}, pattern(16, node + 10), static_cast<std::uint32_t>(node + 10));
    });
  }
  sc_core::sc_start();
  // n = 5 + 2 = 7; a slot released at edge g + 7 is free from edge g + 8. Grants at edges 1, 9, 17, ...:
  // nodes 0, 1, 2, 3 (round-robin from node 0), then 0, 1, 2, 3 again (each second request is made when
  // its first returns; node 0's, considered at edge 9, is granted at 33, after 1, 2 and 3 had their turn).
  for (int node = 0; node < 4; ++node) {
    const auto k = static_cast<std::uint64_t>(node);
    EXPECT_EQ(first[k].status, tlm::TLM_OK_RESPONSE) << node;
    EXPECT_EQ(first[k].finished, cycles(8 * (k + 1))) << node;
    EXPECT_EQ(second[k].status, tlm::TLM_OK_RESPONSE) << node;
    EXPECT_EQ(second[k].finished, cycles(8 * (k + 5))) << node;
  }
  ASSERT_EQ(bench.log.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) {
    const int node = static_cast<int>(i % 4);
    EXPECT_EQ(bench.log[i].source, node) << i;
    EXPECT_EQ(bench.log[i].receiver, (node + 1) % 4) << i;
    EXPECT_EQ(bench.log[i].at, cycles(8 * (i + 1))) << i;
    EXPECT_EQ(bench.log[i].bytes, pattern(16, i < 4 ? node : node + 10)) << i;
  }
  EXPECT_EQ(bench.bus.peak_concurrent_transfers(), 1u);
  EXPECT_EQ(bench.bus.busy_cycles(), 8u * 7u);
  // Waits, first-considered edge to grant: first round 1->1, 1->9, 1->17, 1->25; second round 9->33,
  // 17->41, 25->49, 33->57.
  EXPECT_EQ(bench.bus.wait_cycles(0), 0u + 24u);
  EXPECT_EQ(bench.bus.wait_cycles(1), 8u + 24u);
  EXPECT_EQ(bench.bus.wait_cycles(2), 16u + 24u);
  EXPECT_EQ(bench.bus.wait_cycles(3), 24u + 24u);
  EXPECT_EQ(bench.bus.wait_cycles(), 144u);
}

// After node 2 is granted, free slots go to the nodes after it: 3, then 0, then 1.
TEST(TlmBus, RoundRobinStartsAfterTheLastGrantedNode) {
  Bench bench(4, 1);
  std::vector<Outcome> out(4);
  bench.send_at(2, SC_ZERO_TIME, {0}, pattern(16, 2), out[2]);  // alone at edge 1: granted, done at 8
  for (int node : {1, 0, 3}) bench.send_at(node, ns(15), {2}, pattern(16, node), out[static_cast<std::size_t>(node)]);
  sc_core::sc_start();
  EXPECT_EQ(out[2].finished, cycles(8));
  EXPECT_EQ(out[3].finished, cycles(16));
  EXPECT_EQ(out[0].finished, cycles(24));
  EXPECT_EQ(out[1].finished, cycles(32));
  ASSERT_EQ(bench.log.size(), 4u);
  EXPECT_EQ(bench.log[0].source, 2);
  EXPECT_EQ(bench.log[1].source, 3);
  EXPECT_EQ(bench.log[2].source, 0);
  EXPECT_EQ(bench.log[3].source, 1);
}

// A request made exactly at an edge, and a slot released exactly at an edge, count from the next edge.
TEST(TlmBus, RequestsAndReleasesAtAnEdgeCountFromTheNextEdge) {
  Bench bench(3, 1);
  std::vector<Outcome> out(3);
  bench.send_at(0, SC_ZERO_TIME, {1}, pattern(16, 0), out[0]);  // granted at 1, released at 8 (80 ns)
  bench.send_at(2, ns(75), {0}, pattern(16, 2), out[2]);        // cycle 7: considered at edge 8
  bench.send_at(1, ns(80), {0}, pattern(16, 1), out[1]);        // cycle 8: considered at edge 9
  sc_core::sc_start();
  // Edge 8: no free slot (node 0's is free from edge 9). Edge 9: 1 and 2 considered, 1 follows 0.
  EXPECT_EQ(out[0].finished, cycles(8));
  EXPECT_EQ(out[1].finished, cycles(9 + 7));
  EXPECT_EQ(out[2].finished, cycles(17 + 7));
  EXPECT_EQ(bench.bus.wait_cycles(2), 9u);  // considered at 8, granted at 17
  EXPECT_EQ(bench.bus.wait_cycles(1), 0u);
}

// k* = 2: two transfers hold the bus at once; slots free independently.
TEST(TlmBus, TwoSlotsRunTwoTransfersAtOnce) {
  Bench bench(4, 2);
  std::vector<Outcome> out(4);
  bench.send_at(3, SC_ZERO_TIME, {0}, pattern(16, 3), out[3]);  // n = 7
  bench.send_at(2, SC_ZERO_TIME, {3}, pattern(16, 2), out[2]);  // n = 7
  bench.send_at(1, SC_ZERO_TIME, {2}, pattern(80, 1), out[1]);  // n = 15
  bench.send_at(0, SC_ZERO_TIME, {1}, pattern(16, 0), out[0]);  // n = 7
  sc_core::sc_start();
  // Edge 1: 0 and 1. Node 0's slot is free from edge 9: 2 (done 16). Node 1's (and 2's) free from 17: 3.
  EXPECT_EQ(out[0].finished, cycles(1 + 7));
  EXPECT_EQ(out[1].finished, cycles(1 + 15));
  EXPECT_EQ(out[2].finished, cycles(9 + 7));
  EXPECT_EQ(out[3].finished, cycles(17 + 7));
  for (const auto& o : out) EXPECT_EQ(o.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(bench.bus.peak_concurrent_transfers(), 2u);
  EXPECT_EQ(bench.bus.busy_cycles(), 15u + 7u);  // cycles 1..15 and 17..23
  EXPECT_EQ(bench.bus.wait_cycles(2), 8u);
  EXPECT_EQ(bench.bus.wait_cycles(3), 16u);
  EXPECT_EQ(bench.bus.wait_cycles(), 24u);
}

// A receiver's returned annotated delay is waited out before the sender returns and the slot is freed.
TEST(TlmBus, ReceiverDelayIsHonouredBeforeTheSlotIsReleased) {
  Bench bench(3, 1);
  bench.receivers[1]->annotate = ns(25);
  bench.receivers[2]->annotate = ns(12);
  std::vector<Outcome> out(3);
  bench.send_at(0, SC_ZERO_TIME, {1, 2}, pattern(16, 0), out[0]);  // n = 7: delivered at 80 ns
  bench.send_at(1, SC_ZERO_TIME, {0}, pattern(16, 1), out[1]);
  sc_core::sc_start();
  // Node 0 returns at 80 + 25 = 105 ns (cycle 10): its slot is free from edge 11, where node 1 is granted.
  EXPECT_EQ(out[0].finished, ns(105));
  EXPECT_EQ(out[0].returned_delay, SC_ZERO_TIME);
  EXPECT_EQ(out[1].finished, cycles(11 + 7));
  ASSERT_EQ(bench.log.size(), 3u);
  EXPECT_EQ(bench.log[0].at, cycles(8));
  EXPECT_EQ(bench.log[1].at, cycles(8));
  EXPECT_EQ(bench.bus.wait_cycles(1), 10u);
  EXPECT_EQ(bench.bus.busy_cycles(), 14u);  // the statistics count the n cycles a transfer holds the bus
}

// A broadcast reaches every listed node at the same time, ascending, and costs what one transfer costs.
TEST(TlmBus, BroadcastReachesEveryListedNodeAtOnce) {
  Bench bench(5, 2);
  Outcome broadcast, single;
  const auto bytes = pattern(40, 4);  // n = 5 + 5 = 10
  bench.send_at(1, SC_ZERO_TIME, {4, 0, 2}, bytes, broadcast, 77);
  bench.send_at(3, SC_ZERO_TIME, {1}, pattern(40, 5), single, 78);
  sc_core::sc_start();
  EXPECT_EQ(broadcast.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(broadcast.finished, cycles(11));
  EXPECT_EQ(single.finished, cycles(11));
  std::vector<int> order;
  for (const auto& d : bench.log)
    if (d.source == 1) {
      order.push_back(d.receiver);
      EXPECT_EQ(d.at, cycles(11));
      EXPECT_EQ(d.tag, 77u);
      EXPECT_EQ(d.bytes, bytes);
    }
  EXPECT_EQ(order, (std::vector<int>{0, 2, 4}));
  EXPECT_TRUE(bench.deliveries_to(3).empty());
  EXPECT_EQ(bench.bus.transfers(), 2u);
  EXPECT_EQ(bench.bus.broadcasts(), 1u);
  EXPECT_EQ(bench.bus.bytes(), 80u);
}

// Every statistic on one small run: two at once, one waiting, an idle gap, a zero-byte message, a refusal.
TEST(TlmBus, StatisticsCountTransfersBytesWaitsAndBusyCycles) {
  Bench bench(3, 2);
  std::vector<Outcome> out(5);
  bench.send_at(0, SC_ZERO_TIME, {1}, pattern(16, 0), out[0]);     // n = 7: edge 1, done 8
  bench.send_at(1, SC_ZERO_TIME, {0, 2}, pattern(24, 1), out[1]);  // n = 8: edge 1, done 9 (broadcast)
  bench.send_at(2, SC_ZERO_TIME, {0}, pattern(8, 2), out[2]);      // n = 6: edge 9 (waits 8), done 15
  bench.send_at(0, ns(500), {2}, {}, out[3]);                      // n = 5: edge 51, done 56
  TestInitiator* sender = bench.senders[1].get();
  sc_core::sc_spawn([&, sender] {
    sc_core::wait(ns(700));
    out[4] = sender->send({0}, pattern(4, 9), 0, SC_ZERO_TIME, true,
                          [](tlm::tlm_generic_payload&, MessageTransfer& ext) { ext.source = 2; });
  });
  sc_core::sc_start();
  EXPECT_EQ(out[0].finished, cycles(8));
  EXPECT_EQ(out[1].finished, cycles(9));
  EXPECT_EQ(out[2].finished, cycles(15));
  EXPECT_EQ(out[3].finished, cycles(56));
  EXPECT_EQ(out[3].status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(out[4].status, tlm::TLM_GENERIC_ERROR_RESPONSE);

  const BusStatistics& s = bench.bus.statistics();
  EXPECT_EQ(s.transfers, 4u);
  EXPECT_EQ(s.bytes, 48u);
  EXPECT_EQ(s.broadcasts, 1u);
  EXPECT_EQ(s.peak_concurrent_transfers, 2u);
  EXPECT_EQ(s.wait_cycles, 8u);
  EXPECT_EQ(s.node_wait_cycles, (std::vector<std::uint64_t>{0, 0, 8}));
  EXPECT_EQ(s.busy_cycles, 8u + 6u + 5u);  // 1..8, 9..14, 51..55
  EXPECT_EQ(s.refused, 1u);
  EXPECT_EQ(bench.bus.transfers(), s.transfers);
  EXPECT_EQ(bench.bus.bytes(), s.bytes);
  EXPECT_EQ(bench.bus.broadcasts(), s.broadcasts);
  EXPECT_EQ(bench.bus.wait_cycles(), s.wait_cycles);
  EXPECT_EQ(bench.bus.busy_cycles(), s.busy_cycles);
  EXPECT_EQ(bench.bus.refused(), s.refused);
  const auto zero = bench.deliveries_to(2);
  ASSERT_EQ(zero.size(), 2u);  // node 1's broadcast, then node 0's empty message
  EXPECT_EQ(zero[1].at, cycles(56));
  EXPECT_TRUE(zero[1].bytes.empty());
}

// A malformed transaction is answered at once (after its annotated delay), with no bus time; nothing is
// delivered. `tweak` breaks the payload; `attach` false leaves the extension off.
void expect_refused(tlm::tlm_response_status expected, const std::string& error_part, bool attach,
                    const std::function<void(tlm::tlm_generic_payload&, MessageTransfer&)>& tweak,
                    std::vector<int> destinations = {2}) {
  Bench bench(4, 1);
  Outcome outcome;
  TestInitiator* sender = bench.senders[1].get();
  sc_core::sc_spawn([&] {
    sc_core::wait(ns(25));
    outcome = sender->send(destinations, pattern(16, 1), 0, ns(3), attach, tweak);
  });
  sc_core::sc_start();
  ASSERT_TRUE(outcome.returned);
  EXPECT_EQ(outcome.status, expected);
  EXPECT_EQ(outcome.finished, ns(28));
  EXPECT_EQ(outcome.returned_delay, SC_ZERO_TIME);
  EXPECT_NE(outcome.error.find(error_part), std::string::npos) << outcome.error;
  EXPECT_TRUE(bench.log.empty());
  EXPECT_EQ(bench.bus.transfers(), 0u);
  EXPECT_EQ(bench.bus.refused(), 1u);
}

TEST(TlmBusErrors, ByteEnablesAreRefused) {
  static unsigned char enables[16];
  expect_refused(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, "byte enables", true,
                 [](tlm::tlm_generic_payload& trans, MessageTransfer&) {
                   trans.set_byte_enable_ptr(enables);
                   trans.set_byte_enable_length(16);
                 });
}

TEST(TlmBusErrors, MissingExtensionIsAGenericError) {
  expect_refused(tlm::TLM_GENERIC_ERROR_RESPONSE, "", false, {});
}

TEST(TlmBusErrors, DestinationOutOfRangeIsAnAddressError) {
  expect_refused(tlm::TLM_ADDRESS_ERROR_RESPONSE, "destination 4 is not a node (0..3)", true, {}, {0, 4});
}

TEST(TlmBusErrors, NegativeDestinationIsAnAddressError) {
  expect_refused(tlm::TLM_ADDRESS_ERROR_RESPONSE, "destination -1 is not a node", true, {}, {-1});
}

TEST(TlmBusErrors, WrongSourceIsAGenericError) {
  expect_refused(tlm::TLM_GENERIC_ERROR_RESPONSE, "through node 1's binding: the extension names source 3", true,
                 [](tlm::tlm_generic_payload&, MessageTransfer& ext) { ext.source = 3; });
}

TEST(TlmBusErrors, NoDestinationIsAGenericError) {
  expect_refused(tlm::TLM_GENERIC_ERROR_RESPONSE, "no destination", true, {}, {});
}

TEST(TlmBusErrors, DestinationListedTwiceIsAGenericError) {
  expect_refused(tlm::TLM_GENERIC_ERROR_RESPONSE, "destination 2 is listed twice", true, {}, {2, 0, 2});
}

TEST(TlmBusErrors, ReadIsACommandError) {
  expect_refused(tlm::TLM_COMMAND_ERROR_RESPONSE, "TLM_WRITE_COMMAND", true,
                 [](tlm::tlm_generic_payload& trans, MessageTransfer&) { trans.set_command(tlm::TLM_READ_COMMAND); });
}

TEST(TlmBusErrors, StreamingNarrowerThanLengthIsABurstError) {
  expect_refused(tlm::TLM_BURST_ERROR_RESPONSE, "streaming width 4", true,
                 [](tlm::tlm_generic_payload& trans, MessageTransfer&) { trans.set_streaming_width(4); });
}

// A receiver's error response reaches the sender (status and reason); the other receivers of the
// broadcast still take the bytes, at the usual time.
TEST(TlmBusErrors, ReceiverErrorReachesTheSender) {
  Bench bench(4, 1);
  bench.receivers[2]->answer = tlm::TLM_ADDRESS_ERROR_RESPONSE;
  bench.receivers[2]->answer_text = "no receive posted";
  Outcome outcome;
  const auto bytes = pattern(16, 6);
  bench.send_at(0, SC_ZERO_TIME, {3, 2, 1}, bytes, outcome);
  sc_core::sc_start();
  EXPECT_EQ(outcome.status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(outcome.error, "node 2 answered TLM_ADDRESS_ERROR_RESPONSE: no receive posted");
  EXPECT_EQ(outcome.finished, cycles(8));
  ASSERT_EQ(bench.log.size(), 3u);
  for (const auto& d : bench.log) {
    EXPECT_EQ(d.at, cycles(8));
    EXPECT_EQ(d.bytes, bytes);
  }
  EXPECT_EQ(bench.bus.transfers(), 1u);
}

// The bus checks at end of elaboration that each socket has one binding per node.
TEST(TlmBusErrors, MissingBindingIsAnElaborationError) {
  Bench bench(4, 1, 3);
  try {
    sc_core::sc_start();
    FAIL() << "elaboration accepted a bus of 4 nodes with 3 bindings";
  } catch (const sc_core::sc_report& report) {
    EXPECT_NE(std::string(report.get_msg()).find("a bus of 4 nodes needs nodes_in and nodes_out each bound once per "
                                                 "node, in node order; nodes_in has 3 binding(s), nodes_out 3"),
              std::string::npos)
        << report.get_msg();
  }
}

// One node: nodes_out bound, nodes_in not. SystemC itself refuses it (the socket's backward port is
// unbound) before the bus's own check runs.
TEST(TlmBusErrors, SingleNodeWithoutSenderIsAnElaborationError) {
  BroadcastBus bus("bus", 1, 1, test_timing(), cycles(1));
  std::vector<Delivery> log;
  TestTarget receiver("receiver", 0, log);
  bus.nodes_out.bind(receiver.socket);
  try {
    sc_core::sc_start();
    FAIL() << "elaboration accepted a bus without its sender";
  } catch (const sc_core::sc_report& report) {
    EXPECT_NE(std::string(report.get_msg()).find("port not bound: port 'bus.nodes_in"), std::string::npos)
        << report.get_msg();
  }
}

TEST(TlmBusErrors, BadParametersAreRefused) {
  EXPECT_THROW(BroadcastBus("no_nodes", 0, 1, test_timing(), cycles(1)), std::invalid_argument);
  EXPECT_THROW(BroadcastBus("no_slots", 2, 0, test_timing(), cycles(1)), std::invalid_argument);
  FabricTiming no_bandwidth = test_timing();
  no_bandwidth.bytes_per_cycle = 0;
  EXPECT_THROW(BroadcastBus("no_bandwidth", 2, 1, no_bandwidth, cycles(1)), std::invalid_argument);
  EXPECT_THROW(BroadcastBus("no_cycle", 2, 1, test_timing(), SC_ZERO_TIME), std::invalid_argument);
}

// How a SystemC user attaches their own initiator: any module with a TLM-2.0 initiator socket bound to
// nodes_in (in node order) whose thread calls b_transport with the payload of message_transfer.h; here
// a module with its own SC_THREAD that sends a message to every other node, then one to node 0 alone.
struct UserProcessor : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<UserProcessor> socket;
  std::vector<std::uint8_t> buffer = pattern(32, 42);
  std::vector<sc_time> finished;
  std::vector<tlm::tlm_response_status> statuses;

  SC_HAS_PROCESS(UserProcessor);
  explicit UserProcessor(sc_core::sc_module_name name) : sc_core::sc_module(name), socket("socket") {
    SC_THREAD(run);
  }

  void transfer(std::vector<int> destinations) {
    tlm::tlm_generic_payload trans;
    MessageTransfer ext;
    ext.source = 1;  // this module is bound second: node 1
    ext.destinations = std::move(destinations);
    trans.set_command(tlm::TLM_WRITE_COMMAND);
    trans.set_address(0);
    trans.set_data_ptr(buffer.data());
    trans.set_data_length(static_cast<unsigned>(buffer.size()));
    trans.set_streaming_width(static_cast<unsigned>(buffer.size()));
    trans.set_extension(&ext);
    sc_time delay = ns(5);  // e.g. the processor's own time before the DMA engine starts
    socket->b_transport(trans, delay);
    trans.clear_extension(&ext);
    statuses.push_back(trans.get_response_status());
    finished.push_back(sc_core::sc_time_stamp() + delay);
  }
  void run() {
    transfer({0, 2});
    transfer({0});
  }
};

TEST(TlmBus, UserBindsTheirOwnInitiator) {
  BroadcastBus bus("bus", 3, 1, test_timing(), cycles(1));
  std::vector<Delivery> log;
  TestInitiator node0("node0", 0), node2("node2", 2);
  UserProcessor user("user");
  TestTarget r0("r0", 0, log), r1("r1", 1, log), r2("r2", 2, log);
  node0.socket.bind(bus.nodes_in);
  user.socket.bind(bus.nodes_in);
  node2.socket.bind(bus.nodes_in);
  bus.nodes_out.bind(r0.socket);
  bus.nodes_out.bind(r1.socket);
  bus.nodes_out.bind(r2.socket);
  sc_core::sc_start();
  // n = 5 + 4 = 9. Request at 5 ns (cycle 0): edge 1, done at 10; the next at 105 ns (cycle 10): edge 11,
  // done at 20.
  ASSERT_EQ(user.statuses.size(), 2u);
  EXPECT_EQ(user.statuses[0], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(user.statuses[1], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(user.finished[0], cycles(10));
  EXPECT_EQ(user.finished[1], cycles(20));
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].receiver, 0);
  EXPECT_EQ(log[1].receiver, 2);
  EXPECT_EQ(log[2].receiver, 0);
  for (const auto& d : log) {
    EXPECT_EQ(d.source, 1);
    EXPECT_EQ(d.bytes, user.buffer);
  }
  EXPECT_EQ(bus.busy_cycles(), 18u);
}

}  // namespace
}  // namespace meshmp
