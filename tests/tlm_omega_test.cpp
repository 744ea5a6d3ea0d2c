// The Omega switch (tlm/omega_switch.h), paper 004 §2 (F): its wiring and destination-tag paths, which sets
// of transfers it passes at once (the identity and every uniform shift) and how many passes bit reversal
// needs under its arbitration (pure, no simulation); then simulations of real TLM-2.0 transfers between
// test nodes: a shift permutation in one pass of exactly 1 + tau + ceil(m / b) cycles with the bytes
// intact, conflicting transfers serialised in the documented round-robin order at exact times, the
// sender's one channel, requests at and between edges, error responses and the statistics. Each TEST
// elaborates at most one design and must run in a process of its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "tlm/message_transfer.h"
#include "tlm/omega_switch.h"

namespace meshmp {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

// ---------------------------------------------------------------------------------------------------------
// Pure: paths and passes.

int bit_reverse(int value, int bits) {
  int reversed = 0;
  for (int b = 0; b < bits; ++b)
    if ((value >> b) & 1) reversed |= 1 << (bits - 1 - b);
  return reversed;
}

std::vector<int> bit_reversal(int nodes) {
  const int n = OmegaSwitch::stage_count(nodes);
  std::vector<int> destination(nodes);
  for (int j = 0; j < nodes; ++j) destination[j] = bit_reverse(j, n);
  return destination;
}

std::vector<int> shift(int nodes, int by) {
  std::vector<int> destination(nodes);
  for (int j = 0; j < nodes; ++j) destination[j] = (j + by) % nodes;
  return destination;
}

int passes_of(const std::vector<int>& schedule) {
  return 1 + *std::max_element(schedule.begin(), schedule.end());
}

// The most paths of a set that share one link: no arbitration can pass the set in fewer passes.
int busiest_link_load(int nodes, const std::vector<int>& destination_of) {
  std::vector<int> load(static_cast<std::size_t>(OmegaSwitch::stage_count(nodes)) * nodes, 0);
  int most = 0;
  for (int s = 0; s < nodes; ++s)
    for (const OmegaLink& link : OmegaSwitch::path(nodes, s, destination_of[s]))
      most = std::max(most, ++load[static_cast<std::size_t>(link.stage) * nodes + link.line]);
  return most;
}

TEST(TlmOmegaPaths, NodeCountMustBeAPowerOfTwoAtLeastTwo) {
  EXPECT_EQ(OmegaSwitch::stage_count(2), 1);
  EXPECT_EQ(OmegaSwitch::stage_count(8), 3);
  EXPECT_EQ(OmegaSwitch::stage_count(64), 6);
  for (int bad : {-8, -1, 0, 1, 3, 6, 12, 48, 100}) {
    try {
      OmegaSwitch::stage_count(bad);
      ADD_FAILURE() << bad << " nodes accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("power of two >= 2"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("(got " + std::to_string(bad) + ")"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(OmegaSwitch::path(8, 8, 0), std::invalid_argument);
  EXPECT_THROW(OmegaSwitch::path(8, 0, -1), std::invalid_argument);
}

TEST(TlmOmegaPaths, ShuffleIsRotateLeftOfTheLineBits) {
  // K = 8: 0 1 2 3 4 5 6 7 -> 0 2 4 6 1 3 5 7.
  const std::vector<int> expected = {0, 2, 4, 6, 1, 3, 5, 7};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(OmegaSwitch::shuffle(8, i), expected[i]) << i;
  for (int nodes = 2; nodes <= 64; nodes *= 2) {
    const int n = OmegaSwitch::stage_count(nodes);
    for (int i = 0; i < nodes; ++i) {
      int line = i;
      for (int t = 0; t < n; ++t) line = OmegaSwitch::shuffle(nodes, line);
      EXPECT_EQ(line, i) << "n shuffles are the identity, K = " << nodes;
    }
  }
}

TEST(TlmOmegaPaths, EveryPathEndsAtItsDestinationInNLinks) {
  for (int nodes = 2; nodes <= 64; nodes *= 2) {
    const int n = OmegaSwitch::stage_count(nodes);
    for (int source = 0; source < nodes; ++source) {
      for (int destination = 0; destination < nodes; ++destination) {
        const std::vector<OmegaLink> links = OmegaSwitch::path(nodes, source, destination);
        ASSERT_EQ(static_cast<int>(links.size()), n) << nodes << ": " << source << " -> " << destination;
        EXPECT_EQ(links.back().line, destination) << nodes << ": " << source << " -> " << destination;
        int line = source;
        for (int s = 0; s < n; ++s) {
          EXPECT_EQ(links[s].stage, s);
          const int in = OmegaSwitch::shuffle(nodes, line);
          EXPECT_EQ(links[s].line / 2, in / 2) << "stays in the switch its shuffled line enters";
          EXPECT_EQ(links[s].line % 2, (destination >> (n - 1 - s)) & 1) << "destination tag bit n-1-s";
          line = links[s].line;
        }
      }
    }
  }
  // One path spelled out: K = 8, 5 (101) -> 2 (010): shuffle 011, upper (bit 2 of 2 is 0) -> line 2;
  // shuffle 100, lower (bit 1 is 1) -> line 5; shuffle 011, upper (bit 0 is 0) -> line 2.
  const std::vector<OmegaLink> expected = {{0, 2}, {1, 5}, {2, 2}};
  EXPECT_EQ(OmegaSwitch::path(8, 5, 2), expected);
}

TEST(TlmOmegaPaths, IdentityAndEveryUniformShiftPassAtOnce) {
  for (int nodes = 2; nodes <= 64; nodes *= 2) {
    for (int by = 0; by < nodes; ++by) {  // by = 0 is the identity; the powers of two are among them
      const std::vector<int> permutation = shift(nodes, by);
      EXPECT_TRUE(OmegaSwitch::conflict_free(nodes, permutation)) << "K = " << nodes << ", shift " << by;
      EXPECT_EQ(OmegaSwitch::pass_schedule(nodes, permutation), std::vector<int>(nodes, 0))
          << "K = " << nodes << ", shift " << by;
    }
  }
}

TEST(TlmOmegaPaths, BitReversalNeedsTwoToTheHalfNPasses) {
  // 2^floor(n/2) passes, each the busiest link's load, so no order of grants could do better.
  const std::vector<std::pair<int, int>> expected = {{2, 1}, {4, 2}, {8, 2}, {16, 4}, {32, 4}, {64, 8}};
  for (const auto& [nodes, passes] : expected) {
    const std::vector<int> permutation = bit_reversal(nodes);
    const std::vector<int> schedule = OmegaSwitch::pass_schedule(nodes, permutation);
    EXPECT_EQ(passes_of(schedule), passes) << "K = " << nodes;
    EXPECT_EQ(busiest_link_load(nodes, permutation), passes) << "K = " << nodes;
    EXPECT_EQ(OmegaSwitch::conflict_free(nodes, permutation), passes == 1) << "K = " << nodes;
  }
  // K = 8: 0..3 (to 0, 4, 2, 6) in the first pass; 4 (-> 1) meets 0 (-> 0) at link (0, 0), so 4..7 wait.
  EXPECT_EQ(OmegaSwitch::pass_schedule(8, bit_reversal(8)), (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
}

TEST(TlmOmegaPaths, PassScheduleFollowsTheRoundRobin) {
  // Three transfers to node 0 from 1, 2 and 5 (they share the last link): node 1 first (after the fresh
  // pointer at 7: 0 sends nothing), then the node after 1 among those left: 2, then 5.
  EXPECT_EQ(OmegaSwitch::pass_schedule(8, {-1, 0, 0, -1, -1, 0, -1, -1}),
            (std::vector<int>{-1, 0, 1, -1, -1, 2, -1, -1}));
  // 0 -> 0 and 4 -> 1 share link (0, 0); 6 -> 0 shares (1, 0) with both (and (2, 0) with 0 -> 0).
  EXPECT_EQ(OmegaSwitch::path(8, 0, 0), (std::vector<OmegaLink>{{0, 0}, {1, 0}, {2, 0}}));
  EXPECT_EQ(OmegaSwitch::path(8, 4, 1), (std::vector<OmegaLink>{{0, 0}, {1, 0}, {2, 1}}));
  EXPECT_EQ(OmegaSwitch::path(8, 6, 0), (std::vector<OmegaLink>{{0, 4}, {1, 0}, {2, 0}}));
  EXPECT_EQ(OmegaSwitch::path(8, 6, 7), (std::vector<OmegaLink>{{0, 5}, {1, 3}, {2, 7}}));
  // Pass 0: node 0; 4 and 6 wait. Pass 1 (from node 1 on): 4; 6 waits for (1, 0). Pass 2: 6.
  EXPECT_EQ(OmegaSwitch::pass_schedule(8, {0, -1, -1, -1, 1, -1, 0, -1}),
            (std::vector<int>{0, -1, -1, -1, 1, -1, 2, -1}));
  // With 6 -> 7 instead, 6 passes beside node 0 in pass 0.
  EXPECT_EQ(OmegaSwitch::pass_schedule(8, {0, -1, -1, -1, 1, -1, 7, -1}),
            (std::vector<int>{0, -1, -1, -1, 1, -1, 0, -1}));
  // Round-robin, not ascending: 0, 1 and 5 send to node 0, 2 -> 7, 3 -> 4. Pass 0 grants 0, 2 and 3; pass
  // 1 starts after node 3, so 5 goes before 1 (ascending order would take 1 first).
  EXPECT_EQ(OmegaSwitch::pass_schedule(8, {0, 0, 7, 4, -1, 0, -1, -1}),
            (std::vector<int>{0, 2, 0, 0, -1, 1, -1, -1}));
  // Two transfers to node 3, from 2 and 6: the fresh arbiter starts at node 0, so 2 goes first.
  EXPECT_EQ(OmegaSwitch::pass_schedule(8, {-1, -1, 3, -1, -1, -1, 3, -1}),
            (std::vector<int>{-1, -1, 0, -1, -1, -1, 1, -1}));
}

// ---------------------------------------------------------------------------------------------------------
// Simulations: test nodes on both sides of one switch.

constexpr std::uint64_t kTau = 10;
constexpr std::uint32_t kBytesPerCycle = 8;
const sc_time kCycle(10, SC_NS);

FabricTiming test_timing() {
  FabricTiming timing;
  timing.startup_cycles = kTau;
  timing.bytes_per_cycle = kBytesPerCycle;
  return timing;
}

std::uint64_t hold_cycles(std::uint64_t bytes) { return kTau + (bytes + kBytesPerCycle - 1) / kBytesPerCycle; }

sc_time at_cycle(double cycles) { return kCycle * cycles; }

struct Received {
  int source = -1;
  std::uint32_t tag = 0;
  std::uint32_t step = 0;
  std::vector<unsigned char> bytes;
  sc_time at;
};

struct TestNode : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<TestNode> out;
  tlm_utils::simple_target_socket<TestNode> in;
  std::vector<Received> received;

  explicit TestNode(sc_core::sc_module_name name) : sc_core::sc_module(name), out("out"), in("in") {
    in.register_b_transport(this, &TestNode::take);
  }
  void take(tlm::tlm_generic_payload& trans, sc_time& delay) {
    EXPECT_EQ(delay, sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(trans.is_write());
    Received r;
    MessageTransfer* transfer = nullptr;
    trans.get_extension(transfer);
    EXPECT_NE(transfer, nullptr);
    if (transfer) {
      r.source = transfer->source;
      r.tag = transfer->tag;
      r.step = transfer->step;
    }
    if (const unsigned char* data = trans.get_data_ptr()) r.bytes.assign(data, data + trans.get_data_length());
    r.at = sc_core::sc_time_stamp();
    received.push_back(r);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Message {
  int node = 0;                   // the binding it is sent on
  int source = -1;                // MessageTransfer::source; -1: node
  std::vector<int> destinations;
  std::uint32_t bytes = 64;
  std::uint32_t tag = 0;
  std::uint32_t step = 0;
  sc_time delay = sc_core::SC_ZERO_TIME;  // annotated on the call
  bool extension = true;
  bool byte_enables = false;
  tlm::tlm_command command = tlm::TLM_WRITE_COMMAND;
};

struct Outcome {
  bool finished = false;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  std::string error;
  sc_time returned;  // the time b_transport returned
  sc_time delay_back;
  std::vector<unsigned char> sent;
};

std::vector<unsigned char> pattern(int node, std::uint32_t tag, std::uint32_t bytes) {
  std::vector<unsigned char> data(bytes);
  for (std::uint32_t i = 0; i < bytes; ++i) data[i] = static_cast<unsigned char>(node * 31 + tag * 7 + i * 13 + 1);
  return data;
}

struct Bench {
  OmegaSwitch fabric;
  std::vector<std::unique_ptr<TestNode>> nodes;
  std::vector<std::unique_ptr<Outcome>> outcomes;

  explicit Bench(int k) : fabric("omega", k, test_timing(), kCycle) {
    for (int i = 0; i < k; ++i) {
      nodes.push_back(std::make_unique<TestNode>(("node" + std::to_string(i)).c_str()));
      nodes.back()->out.bind(fabric.nodes_in);
    }
    for (int i = 0; i < k; ++i) fabric.nodes_out.bind(nodes[i]->in);
  }

  // Sends `m` from a thread of its own started at `start`; the outcome fills in when b_transport returns.
  Outcome& send(const Message& m, sc_time start = sc_core::SC_ZERO_TIME) {
    outcomes.push_back(std::make_unique<Outcome>());
    Outcome* outcome = outcomes.back().get();
    outcome->sent = pattern(m.node, m.tag, m.bytes);
    TestNode* node = nodes[m.node].get();
    sc_core::sc_spawn([m, start, outcome, node] {
      if (start > sc_core::SC_ZERO_TIME) sc_core::wait(start);
      std::vector<unsigned char> data = outcome->sent;
      tlm::tlm_generic_payload trans;
      trans.set_command(m.command);
      trans.set_address(0);
      trans.set_data_ptr(data.data());
      trans.set_data_length(m.bytes);
      trans.set_streaming_width(m.bytes);
      unsigned char enables[4] = {0xff, 0xff, 0xff, 0xff};
      if (m.byte_enables) {
        trans.set_byte_enable_ptr(enables);
        trans.set_byte_enable_length(4);
      }
      MessageTransfer* transfer = nullptr;
      if (m.extension) {
        transfer = new MessageTransfer;  // the payload owns it
        transfer->source = m.source < 0 ? m.node : m.source;
        transfer->destinations = m.destinations;
        transfer->tag = m.tag;
        transfer->step = m.step;
        trans.set_extension(transfer);
      }
      trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_time delay = m.delay;
      node->out->b_transport(trans, delay);
      outcome->finished = true;
      outcome->status = trans.get_response_status();
      outcome->error = transfer ? transfer->error : "";
      outcome->returned = sc_core::sc_time_stamp();
      outcome->delay_back = delay;
    });
    return *outcome;
  }

  // The one message node `to` received from `from` with `tag`, checked byte for byte against what was sent.
  void expect_delivered(const Outcome& outcome, int from, int to, std::uint32_t tag, sc_time at) {
    EXPECT_TRUE(outcome.finished) << from << " -> " << to;
    EXPECT_EQ(outcome.status, tlm::TLM_OK_RESPONSE) << from << " -> " << to << ": " << outcome.error;
    EXPECT_EQ(outcome.returned, at) << from << " -> " << to;
    EXPECT_EQ(outcome.delay_back, sc_core::SC_ZERO_TIME);
    int found = 0;
    for (const Received& r : nodes[to]->received) {
      if (r.source != from || r.tag != tag) continue;
      ++found;
      EXPECT_EQ(r.at, at) << from << " -> " << to;
      EXPECT_EQ(r.bytes, outcome.sent) << from << " -> " << to;
    }
    EXPECT_EQ(found, 1) << from << " -> " << to;
  }
};

TEST(TlmOmegaSwitch, RefusesANodeCountThatIsNotAPowerOfTwo) {
  for (int bad : {0, 1, 3, 6, 12}) {
    try {
      OmegaSwitch fabric(("bad" + std::to_string(bad)).c_str(), bad, test_timing(), kCycle);
      ADD_FAILURE() << bad << " nodes accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("power of two >= 2"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(OmegaSwitch("zero_cycle", 4, test_timing(), sc_core::SC_ZERO_TIME), std::invalid_argument);
  FabricTiming no_bandwidth;
  no_bandwidth.bytes_per_cycle = 0;
  EXPECT_THROW(OmegaSwitch("no_bandwidth", 4, no_bandwidth, kCycle), std::invalid_argument);
  OmegaSwitch good("good", 4, test_timing(), kCycle);
  EXPECT_EQ(good.nodes(), 4);
  EXPECT_EQ(good.stages(), 2);
}

TEST(TlmOmegaSwitch, EndOfElaborationWantsOneBindingPerNode) {
  OmegaSwitch fabric("omega", 4, test_timing(), kCycle);
  std::vector<std::unique_ptr<TestNode>> nodes;
  for (int i = 0; i < 4; ++i) nodes.push_back(std::make_unique<TestNode>(("node" + std::to_string(i)).c_str()));
  for (int i = 0; i < 4; ++i) nodes[i]->out.bind(fabric.nodes_in);
  for (int i = 0; i < 3; ++i) fabric.nodes_out.bind(nodes[i]->in);  // node 3 receives from elsewhere
  struct Elsewhere : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Elsewhere> out;
    explicit Elsewhere(sc_core::sc_module_name name) : sc_core::sc_module(name), out("out") {}
  } elsewhere("elsewhere");
  elsewhere.out.bind(nodes[3]->in);
  try {
    sc_core::sc_start();
    ADD_FAILURE() << "elaborated with 3 receivers";
  } catch (const sc_core::sc_report& e) {
    EXPECT_NE(std::string(e.what()).find("needs 4 bindings of nodes_in and of nodes_out"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("it has 4 and 3"), std::string::npos) << e.what();
  }
}

TEST(TlmOmegaSim, ShiftPermutationTakesOnePassOfOnePlusTauPlusMOverB) {
  Bench bench(8);
  constexpr std::uint32_t kBytes = 100;  // ceil(100 / 8) = 13
  std::vector<Outcome*> outcomes;
  for (int j = 0; j < 8; ++j) {
    Message m;
    m.node = j;
    m.destinations = std::vector<int>{(j + 3) % 8};
    m.bytes = kBytes;
    m.tag = 40 + j;
    m.step = 2;
    outcomes.push_back(&bench.send(m));
  }
  sc_core::sc_start();
  const sc_time done = at_cycle(1 + kTau + 13);
  for (int j = 0; j < 8; ++j) bench.expect_delivered(*outcomes[j], j, (j + 3) % 8, 40 + j, done);
  const OmegaStatistics& stats = bench.fabric.statistics();
  EXPECT_EQ(stats.transfers, 8u);
  EXPECT_EQ(stats.bytes, 8u * kBytes);
  EXPECT_EQ(stats.conflicting_transfers, 0u);
  EXPECT_EQ(stats.wait_cycles, 0u);
  EXPECT_EQ(stats.passes, 1u);
  EXPECT_EQ(stats.peak_concurrent, 8u);
  EXPECT_EQ(stats.refused, 0u);
  ASSERT_EQ(stats.steps.size(), 1u);
  EXPECT_EQ(stats.steps.at(2).transfers, 8u);
  EXPECT_EQ(stats.steps.at(2).conflicting_transfers, 0u);
  EXPECT_EQ(stats.steps.at(2).passes, 1u);
}

TEST(TlmOmegaSim, ConflictingPairSerialisesLowerNodeFirstWhateverTheThreadOrder) {
  Bench bench(8);
  // 0 -> 0 and 4 -> 1 both need link (0, 0): the fresh arbiter considers node 0 first. Node 4's thread is
  // started first so SystemC runs it first; the outcome must not change.
  ASSERT_EQ(OmegaSwitch::path(8, 0, 0)[0], (OmegaLink{0, 0}));
  ASSERT_EQ(OmegaSwitch::path(8, 4, 1)[0], (OmegaLink{0, 0}));
  Message four;
  four.node = 4;
  four.destinations = std::vector<int>{1};
  four.bytes = 20;  // hold 10 + 3 = 13 cycles
  Message zero = four;
  zero.node = 0;
  zero.destinations = std::vector<int>{0};
  Outcome& from4 = bench.send(four);
  Outcome& from0 = bench.send(zero);
  sc_core::sc_start();
  const std::uint64_t hold = hold_cycles(20);
  // Node 0: granted at edge 1, delivered at 1 + 13 = 14, links free again from edge 15 (a release is seen
  // by the next edge), where node 4 is granted: delivered at 15 + 13 = 28.
  bench.expect_delivered(from0, 0, 0, 0, at_cycle(1 + hold));
  bench.expect_delivered(from4, 4, 1, 0, at_cycle(1 + hold + 1 + hold));
  const OmegaStatistics& stats = bench.fabric.statistics();
  EXPECT_EQ(stats.transfers, 2u);
  EXPECT_EQ(stats.bytes, 40u);
  EXPECT_EQ(stats.conflicting_transfers, 1u);
  EXPECT_EQ(stats.wait_cycles, hold + 1);
  EXPECT_EQ(stats.passes, 2u);
  EXPECT_EQ(stats.peak_concurrent, 1u);
}

TEST(TlmOmegaSim, RoundRobinStartsAfterTheLastNodeGranted) {
  Bench bench(8);
  // Node 2 -> 2 alone at time 0 (granted at edge 1; its path meets neither below), so the next arbitration
  // that sees both 0 -> 0 and 4 -> 1 (requested during cycle 3, considered at edge 4) starts from node 3:
  // node 4 goes first, node 0 waits for the link (0, 0).
  for (const OmegaLink& a : OmegaSwitch::path(8, 2, 2))
    for (int s : {0, 4})
      for (const OmegaLink& b : OmegaSwitch::path(8, s, s == 0 ? 0 : 1)) ASSERT_NE(a, b);
  Message two;
  two.node = 2;
  two.destinations = std::vector<int>{2};
  two.bytes = 8;  // hold 11
  Message zero;
  zero.node = 0;
  zero.destinations = std::vector<int>{0};
  zero.bytes = 8;
  Message four = zero;
  four.node = 4;
  four.destinations = std::vector<int>{1};
  Outcome& from2 = bench.send(two);
  Outcome& from0 = bench.send(zero, at_cycle(3.5));
  Outcome& from4 = bench.send(four, at_cycle(3.25));
  sc_core::sc_start();
  const std::uint64_t hold = hold_cycles(8);
  bench.expect_delivered(from2, 2, 2, 0, at_cycle(1 + hold));
  bench.expect_delivered(from4, 4, 1, 0, at_cycle(4 + hold));
  bench.expect_delivered(from0, 0, 0, 0, at_cycle(4 + hold + 1 + hold));
  EXPECT_EQ(bench.fabric.statistics().passes, 3u);
  EXPECT_EQ(bench.fabric.statistics().conflicting_transfers, 1u);
  EXPECT_EQ(bench.fabric.statistics().peak_concurrent, 2u);  // 2 -> 2 still holds its links at edge 4
}

TEST(TlmOmegaSim, ThreeWayConflictTakesTurnsInRoundRobin) {
  Bench bench(8);
  // 1, 2 and 5 all send to node 0 (the last link (2, 0) is shared): turns 1, 2, 5 as pass_schedule says.
  std::vector<Outcome*> outcomes;
  for (int s : {5, 2, 1}) {
    Message m;
    m.node = s;
    m.destinations = std::vector<int>{0};
    m.bytes = 16;  // hold 12
    m.tag = static_cast<std::uint32_t>(s);
    outcomes.push_back(&bench.send(m));
  }
  sc_core::sc_start();
  const std::uint64_t hold = hold_cycles(16);
  const std::vector<int> schedule = OmegaSwitch::pass_schedule(8, {-1, 0, 0, -1, -1, 0, -1, -1});
  int i = 0;
  for (int s : {5, 2, 1}) {
    const double done = 1 + static_cast<double>(schedule[s]) * (hold + 1) + hold;
    bench.expect_delivered(*outcomes[i++], s, 0, static_cast<std::uint32_t>(s), at_cycle(done));
  }
  EXPECT_EQ(bench.nodes[0]->received.size(), 3u);
  EXPECT_EQ(bench.nodes[0]->received[0].source, 1);
  EXPECT_EQ(bench.nodes[0]->received[1].source, 2);
  EXPECT_EQ(bench.nodes[0]->received[2].source, 5);
  EXPECT_EQ(bench.fabric.statistics().wait_cycles, (hold + 1) + 2 * (hold + 1));
}

TEST(TlmOmegaSim, BitReversalOnEightNodesTakesTwoPasses) {
  Bench bench(8);
  const std::vector<int> permutation = bit_reversal(8);
  const std::vector<int> schedule = OmegaSwitch::pass_schedule(8, permutation);
  ASSERT_EQ(passes_of(schedule), 2);
  std::vector<Outcome*> outcomes;
  for (int j = 7; j >= 0; --j) {  // started in reverse node order
    Message m;
    m.node = j;
    m.destinations = std::vector<int>{permutation[j]};
    m.bytes = 33;  // hold 10 + 5 = 15
    m.tag = static_cast<std::uint32_t>(100 + j);
    outcomes.push_back(&bench.send(m));
  }
  sc_core::sc_start();
  const std::uint64_t hold = hold_cycles(33);
  for (int j = 7; j >= 0; --j) {
    const double done = 1 + static_cast<double>(schedule[j]) * (hold + 1) + hold;
    bench.expect_delivered(*outcomes[7 - j], j, permutation[j], static_cast<std::uint32_t>(100 + j), at_cycle(done));
  }
  const OmegaStatistics& stats = bench.fabric.statistics();
  EXPECT_EQ(stats.transfers, 8u);
  EXPECT_EQ(stats.passes, 2u);
  EXPECT_EQ(stats.conflicting_transfers, 4u);
  EXPECT_EQ(stats.wait_cycles, 4 * (hold + 1));
  EXPECT_EQ(stats.peak_concurrent, 4u);
}

TEST(TlmOmegaSim, RequestsAreArbitratedAtTheEdgeAfterTheirCycle) {
  Bench bench(8);
  // A request made at 4.5 cycles (annotated delay) is considered at edge 5; one made exactly at edge 5
  // belongs to cycle 5 and waits for edge 6, even though the arbiter runs at edge 5 and its links are free.
  Message early;
  early.node = 1;
  early.destinations = std::vector<int>{1};
  early.bytes = 0;  // hold tau = 10
  early.delay = at_cycle(4.5);
  Message at_edge = early;
  at_edge.node = 6;
  at_edge.destinations = {6};
  at_edge.delay = sc_core::SC_ZERO_TIME;
  for (const OmegaLink& a : OmegaSwitch::path(8, 1, 1))
    for (const OmegaLink& b : OmegaSwitch::path(8, 6, 6)) ASSERT_NE(a, b);
  Outcome& on_edge = bench.send(at_edge, at_cycle(5));  // this thread is started (and run) first
  Outcome& mid = bench.send(early);
  sc_core::sc_start();
  bench.expect_delivered(mid, 1, 1, 0, at_cycle(5 + kTau));
  bench.expect_delivered(on_edge, 6, 6, 0, at_cycle(6 + kTau));
  EXPECT_EQ(bench.fabric.statistics().passes, 2u);
  EXPECT_EQ(bench.fabric.statistics().conflicting_transfers, 0u);
  EXPECT_EQ(bench.fabric.statistics().peak_concurrent, 2u);
}

TEST(TlmOmegaSim, ASendersTransfersLeaveItOneAtATime) {
  Bench bench(8);
  // Node 0 to 0 and to 7 from two threads at once: the paths share no link, but node 0 has one channel
  // into the network. Same request time: the lower destination first.
  for (const OmegaLink& a : OmegaSwitch::path(8, 0, 0))
    for (const OmegaLink& b : OmegaSwitch::path(8, 0, 7)) ASSERT_NE(a, b);
  Message to7;
  to7.node = 0;
  to7.destinations = {7};
  to7.bytes = 24;  // hold 13
  to7.tag = 7;
  Message to0 = to7;
  to0.destinations = {0};
  to0.tag = 0;
  Outcome& seven = bench.send(to7);
  Outcome& zero = bench.send(to0);
  sc_core::sc_start();
  const std::uint64_t hold = hold_cycles(24);
  bench.expect_delivered(zero, 0, 0, 0, at_cycle(1 + hold));
  bench.expect_delivered(seven, 0, 7, 7, at_cycle(2 + 2 * hold));
  EXPECT_EQ(bench.fabric.statistics().conflicting_transfers, 1u);
}

TEST(TlmOmegaSim, ErrorResponsesSayWhy) {
  Bench bench(4);
  struct Case {
    Message m;
    tlm::tlm_response_status status;
    std::string reason;
  };
  std::vector<Case> cases;
  Message base;
  base.node = 1;
  base.destinations = std::vector<int>{2};
  base.bytes = 16;
  base.delay = at_cycle(2);
  {
    Case c{base, tlm::TLM_GENERIC_ERROR_RESPONSE, "no hardware broadcast"};
    c.m.destinations = {0, 2, 3};
    cases.push_back(c);
  }
  {
    Case c{base, tlm::TLM_GENERIC_ERROR_RESPONSE, "names 0 destinations"};
    c.m.destinations = {};
    cases.push_back(c);
  }
  {
    Case c{base, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, "byte enables"};
    c.m.byte_enables = true;
    cases.push_back(c);
  }
  {
    Case c{base, tlm::TLM_ADDRESS_ERROR_RESPONSE, "destination 4, not a node 0..3"};
    c.m.destinations = {4};
    cases.push_back(c);
  }
  {
    Case c{base, tlm::TLM_ADDRESS_ERROR_RESPONSE, "destination -1, not a node 0..3"};
    c.m.destinations = {-1};
    cases.push_back(c);
  }
  {
    Case c{base, tlm::TLM_GENERIC_ERROR_RESPONSE, "node 1's binding names source 3"};
    c.m.source = 3;
    cases.push_back(c);
  }
  {
    Case c{base, tlm::TLM_COMMAND_ERROR_RESPONSE, "not a write command"};
    c.m.command = tlm::TLM_READ_COMMAND;
    cases.push_back(c);
  }
  {
    Case c{base, tlm::TLM_GENERIC_ERROR_RESPONSE, ""};
    c.m.extension = false;
    cases.push_back(c);
  }
  std::vector<Outcome*> outcomes;
  for (const Case& c : cases) outcomes.push_back(&bench.send(c.m));
  Outcome& good = bench.send(base);  // and a good one among them still goes through
  sc_core::sc_start();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i) + ": " + cases[i].reason);
    EXPECT_TRUE(outcomes[i]->finished);
    EXPECT_EQ(outcomes[i]->status, cases[i].status);
    EXPECT_NE(outcomes[i]->error.find(cases[i].reason), std::string::npos) << outcomes[i]->error;
    if (cases[i].m.extension) {
      EXPECT_NE(outcomes[i]->error.find("omega"), std::string::npos);
    }
    EXPECT_EQ(outcomes[i]->returned, at_cycle(2)) << "the annotated delay is waited out";
    EXPECT_EQ(outcomes[i]->delay_back, sc_core::SC_ZERO_TIME);
  }
  bench.expect_delivered(good, 1, 2, 0, at_cycle(3 + hold_cycles(16)));
  for (int n : {0, 1, 3}) EXPECT_TRUE(bench.nodes[n]->received.empty()) << n;
  const OmegaStatistics& stats = bench.fabric.statistics();
  EXPECT_EQ(stats.refused, cases.size());
  EXPECT_EQ(stats.transfers, 1u);
  EXPECT_EQ(stats.bytes, 16u);
}

TEST(TlmOmegaSim, StatisticsPerStep) {
  Bench bench(8);
  // Step 1: the shift by 1 (one pass). Step 2, once step 1 is done: bit reversal (two passes, 4 waits).
  // Step 3: 3 -> 5 alone, overlapping step 2's second pass (its path misses theirs).
  const std::uint64_t hold = hold_cycles(40);  // 15
  const std::vector<int> reversal = bit_reversal(8);
  std::vector<Outcome*> step1, step2;
  for (int j = 0; j < 8; ++j) {
    Message m;
    m.node = j;
    m.destinations = std::vector<int>{(j + 1) % 8};
    m.bytes = 40;
    m.step = 1;
    step1.push_back(&bench.send(m));
  }
  const double second = 1 + static_cast<double>(hold);  // step 2 requested during cycle 16
  for (int j = 0; j < 8; ++j) {
    Message m;
    m.node = j;
    m.destinations = std::vector<int>{reversal[j]};
    m.bytes = 40;
    m.step = 2;
    m.tag = 2;
    step2.push_back(&bench.send(m, at_cycle(second)));
  }
  // Step 3 from node 3 while its step-2 transfer is in flight: it waits for node 3's channel.
  Message lone;
  lone.node = 3;
  lone.destinations = std::vector<int>{5};
  lone.bytes = 8;
  lone.step = 3;
  lone.tag = 3;
  Outcome& three = bench.send(lone, at_cycle(second + 2));
  sc_core::sc_start();
  for (int j = 0; j < 8; ++j) bench.expect_delivered(*step1[j], j, (j + 1) % 8, 0, at_cycle(1 + hold));
  // Step 2: edges 17 (nodes 0..3) and 17 + 16 = 33 (nodes 4..7).
  for (int j = 0; j < 8; ++j)
    bench.expect_delivered(*step2[j], j, reversal[j], 2, at_cycle(second + 1 + (j < 4 ? 0 : hold + 1) + hold));
  // Step 3: requested during cycle 18; node 3's channel is free from edge 17 + 15 + 1 = 33, where the
  // arbiter starts after node 3 (the last granted at edge 17): 4..7 are granted first and 5 -> 5 takes the
  // last link (2, 5) of 3 -> 5, which is granted when it is free, at edge 33 + 16 = 49 (hold 11).
  ASSERT_EQ(OmegaSwitch::path(8, 3, 5).back(), OmegaSwitch::path(8, 5, reversal[5]).back());
  bench.expect_delivered(three, 3, 5, 3, at_cycle(49 + hold_cycles(8)));
  const OmegaStatistics& stats = bench.fabric.statistics();
  EXPECT_EQ(stats.transfers, 17u);
  EXPECT_EQ(stats.bytes, 16u * 40 + 8);
  ASSERT_EQ(stats.steps.size(), 3u);
  EXPECT_EQ(stats.steps.at(1).transfers, 8u);
  EXPECT_EQ(stats.steps.at(1).bytes, 320u);
  EXPECT_EQ(stats.steps.at(1).conflicting_transfers, 0u);
  EXPECT_EQ(stats.steps.at(1).passes, 1u);
  EXPECT_EQ(stats.steps.at(2).transfers, 8u);
  EXPECT_EQ(stats.steps.at(2).conflicting_transfers, 4u);
  EXPECT_EQ(stats.steps.at(2).wait_cycles, 4 * (hold + 1));
  EXPECT_EQ(stats.steps.at(2).passes, 2u);
  EXPECT_EQ(stats.steps.at(3).transfers, 1u);
  EXPECT_EQ(stats.steps.at(3).conflicting_transfers, 1u);
  EXPECT_EQ(stats.steps.at(3).wait_cycles, 49u - 19u);
  EXPECT_EQ(stats.steps.at(3).passes, 1u);
  EXPECT_EQ(stats.passes, 4u);
  EXPECT_EQ(stats.conflicting_transfers, 5u);
  EXPECT_EQ(stats.wait_cycles, 4 * (hold + 1) + 30);
  EXPECT_EQ(stats.peak_concurrent, 8u);
}

}  // namespace
}  // namespace meshmp
