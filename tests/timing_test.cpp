// Cycle counts follow from the hardware parameters. A flit written into a router's buffer at cycle t
// leaves on its output link at t + d (d = pipeline_depth) and is written into the next router's buffer
// L cycles later (L = link latency): d + L per hop. End to end, one packet of F = 1 + P flits (P payload
// flits) across an idle path of H links (H + 1 routers) arrives, under wormhole switching,
//     H * (d + L) + d + 3 + P
// cycles after its descriptor is written: the DMA starts one cycle later, the injection and ejection
// channels take one cycle each, the destination router d cycles, and the tail follows the head by P
// cycles. Under store-and-forward every router forwards a packet only when its tail is in the buffer and
// then still takes its pipeline: F - 1 cycles more in each of the H + 1 routers. The firmware's start-up
// t_s comes on top. Header blocking is zero on an idle network in every switching mode. (The formula
// assumes the buffers cover the credit round trip; with long links and short buffers a long packet's body
// waits for credits, which the body-flit stall statistic counts.)
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <vector>

#include "exchange_run.h"
#include "hw/machine/machine.h"

namespace meshmp {
namespace {

struct Timing {
  int pipeline_depth;
  int link_latency;
  int hops;
  std::uint32_t bytes;
  SwitchingMode switching = SwitchingMode::Wormhole;
};

std::ostream& operator<<(std::ostream& os, const Timing& t) {
  return os << to_string(t.switching) << " depth " << t.pipeline_depth << " latency " << t.link_latency << " hops "
            << t.hops << " bytes " << t.bytes;
}

// The documented formula, written out independently of the model.
std::uint64_t expected_latency(const Timing& t) {
  const std::uint64_t payload_flits = (t.bytes + 7) / 8;
  const std::uint64_t h = static_cast<std::uint64_t>(t.hops);
  std::uint64_t cycles = h * (t.pipeline_depth + t.link_latency) + t.pipeline_depth + 3 + payload_flits;
  if (t.switching == SwitchingMode::StoreAndForward) cycles += (h + 1) * payload_flits;  // F - 1 = P per router
  return cycles;
}

class ZeroLoadLatency : public ::testing::TestWithParam<Timing> {};

TEST_P(ZeroLoadLatency, MatchesTheFormula) {
  const Timing t = GetParam();
  MachineConfig config;
  config.topology = "mesh:" + std::to_string(t.hops + 1);
  config.block_bytes = 64;
  config.router.pipeline_depth = t.pipeline_depth;
  config.router.link_latency_cycles = t.link_latency;
  config.router.switching = t.switching;
  config.router.max_packet_payload_flits = 16;
  if (t.switching != SwitchingMode::Wormhole) config.router.buffer_flits = 17;
  config.processor.startup_cycles = 37;
  ASSERT_FALSE(config.validate().has_value()) << *config.validate();
  config = with_test_router_model(config);  // the rtl/ pass: the verilated routers
  const int last = t.hops;
  const std::uint32_t bytes = t.bytes;
  static std::uint64_t received_at = 0;
  Machine machine("machine", config, [last, bytes](NodeApi& api) {
    if (api.id() == 0) api.wait(api.send(last, 0, bytes, 1));
    if (api.id() == last) {
      api.wait(api.receive(0, 0, bytes, 1));
      received_at = api.now_cycles();
    }
  });
  machine.messages().keep_log();
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  const std::uint64_t expected = expected_latency(t);
  const auto received = machine.messages().received_by(last);
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].latency_cycles, expected);
  EXPECT_EQ(received[0].blocked_cycles, 0u) << "an idle network has no header blocking";
  EXPECT_EQ(machine.network().header_blocking_cycles(), 0u);
  EXPECT_EQ(received_at, 37 + expected) << "start-up t_s, then the network latency";
  // The clock stops while the network is idle: it did not tick during the 37 cycles of t_s.
  EXPECT_LE(machine.network().cycles_stepped(), expected + t.link_latency + 1);
}

INSTANTIATE_TEST_SUITE_P(Wormhole, ZeroLoadLatency,
                         ::testing::Values(Timing{1, 1, 1, 8}, Timing{1, 1, 7, 64}, Timing{2, 1, 7, 64},
                                           Timing{3, 2, 5, 100}, Timing{4, 3, 3, 1}, Timing{2, 1, 4, 0},
                                           Timing{4, 1, 2, 24}, Timing{5, 1, 3, 64}, Timing{5, 4, 2, 48}));

// Store-and-forward: 1, 2 and 5 hops x depths 1..4 x packets of F = 3, 9 and 17 flits.
std::vector<Timing> store_and_forward_cases() {
  std::vector<Timing> cases;
  for (int hops : {1, 2, 5})
    for (int depth = 1; depth <= 4; ++depth)
      for (std::uint32_t bytes : {16u, 64u, 128u}) cases.push_back({depth, 1, hops, bytes, SwitchingMode::StoreAndForward});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(StoreAndForward, ZeroLoadLatency, ::testing::ValuesIn(store_and_forward_cases()));

// Cut-through on an idle network behaves like wormhole.
INSTANTIATE_TEST_SUITE_P(CutThrough, ZeroLoadLatency,
                         ::testing::Values(Timing{2, 1, 3, 64, SwitchingMode::VirtualCutThrough},
                                           Timing{4, 1, 5, 128, SwitchingMode::VirtualCutThrough}));

// The credit loop (hw/router/router_params.h). A router frees a buffer slot when the flit in it crosses the
// switch; the credit is on its wire Lc cycles (the link latency by default) and the upstream output unit
// registers it Cp cycles more before the slot can be allocated again. With buffers of B flits per VC
// shallower than that round trip, a packet longer than the buffer waits for credits. The formula, flit
// by flit over the line NI -> router 0 -> ... -> router H -> NI: every flit leaves a stage at the latest
// of (a) its buffer write plus its pipeline (d for the head, min(d, 2) for a body flit), (b) one cycle
// after the flit ahead of it, and (c) the cycle the credit of the flit B ahead of it is counted there:
// Lc + Cp after the next router sent that flit on, 1 + Cp after the interface took it off the ejection
// channel, and 1 cycle (no output unit) for the interface's own injection credits.
struct CreditLoop {
  int pipeline_depth;
  int link_latency;
  int credit_latency;     // 0: the link latency
  int credit_processing;  // Cp
  int buffer_flits;       // B
  int hops;               // H
  int payload_flits;
};

std::ostream& operator<<(std::ostream& os, const CreditLoop& c) {
  return os << "depth " << c.pipeline_depth << " link " << c.link_latency << " credit wire " << c.credit_latency
            << " processing " << c.credit_processing << " buffer " << c.buffer_flits << " hops " << c.hops
            << " payload " << c.payload_flits;
}

std::uint64_t expected_credit_limited_latency(const CreditLoop& c) {
  const int flits = 1 + c.payload_flits, routers = c.hops + 1, b = c.buffer_flits;
  const std::uint64_t wire = static_cast<std::uint64_t>(c.credit_latency > 0 ? c.credit_latency : c.link_latency);
  const std::uint64_t cp = static_cast<std::uint64_t>(c.credit_processing);
  std::vector<std::uint64_t> inject(flits), eject(flits);
  std::vector<std::vector<std::uint64_t>> leave(routers, std::vector<std::uint64_t>(flits));  // switch traversal
  for (int k = 0; k < flits; ++k) {
    inject[k] = k == 0 ? 1 : inject[k - 1] + 1;  // the DMA starts the cycle after the descriptor
    if (k >= b) inject[k] = std::max(inject[k], leave[0][k - b] + 1);
    for (int r = 0; r < routers; ++r) {
      const std::uint64_t written = r == 0 ? inject[k] + 1 : leave[r - 1][k] + c.link_latency;
      std::uint64_t t = written + (k == 0 ? c.pipeline_depth : std::min(c.pipeline_depth, 2));
      if (k > 0) t = std::max(t, leave[r][k - 1] + 1);
      if (k >= b) t = std::max(t, r + 1 < routers ? leave[r + 1][k - b] + wire + cp : eject[k - b] + 1 + cp);
      leave[r][k] = t;
    }
    eject[k] = leave[routers - 1][k] + 1;
  }
  return eject[flits - 1];
}

class CreditLimitedLatency : public ::testing::TestWithParam<CreditLoop> {};

TEST_P(CreditLimitedLatency, MatchesTheRoundTripAgainstTheBufferDepth) {
  const CreditLoop c = GetParam();
  MachineConfig config;
  config.topology = "mesh:" + std::to_string(c.hops + 1);
  config.block_bytes = 8 * static_cast<std::uint32_t>(c.payload_flits);
  config.router.pipeline_depth = c.pipeline_depth;
  config.router.link_latency_cycles = c.link_latency;
  config.router.credit_latency_cycles = c.credit_latency;
  config.router.credit_processing_cycles = c.credit_processing;
  config.router.buffer_flits = c.buffer_flits;
  config.router.max_packet_payload_flits = c.payload_flits;  // one packet
  ASSERT_FALSE(config.validate().has_value()) << *config.validate();
  config = with_test_router_model(config);
  const int last = c.hops;
  const std::uint32_t bytes = config.block_bytes;
  Machine machine("machine", config, [last, bytes](NodeApi& api) {
    if (api.id() == 0) api.wait(api.send(last, 0, bytes, 1));
    if (api.id() == last) api.wait(api.receive(0, 0, bytes, 1));
  });
  machine.messages().keep_log();
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  const auto received = machine.messages().received_by(last);
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].latency_cycles, expected_credit_limited_latency(c));
  const CreditLoop deep{c.pipeline_depth, c.link_latency, c.credit_latency, c.credit_processing, 1 + c.payload_flits,
                        c.hops, c.payload_flits};
  if (c.buffer_flits < 4) {  // shallower than every round trip here: the credits cost cycles
    EXPECT_GT(received[0].latency_cycles, expected_credit_limited_latency(deep));
  }
}

std::vector<CreditLoop> credit_loop_cases() {
  std::vector<CreditLoop> cases;
  for (int depth : {2, 4})
    for (int link : {1, 3})
      for (int buffer : {1, 2, 3, 4, 6})
        for (auto [wire, processing] : {std::pair{0, 1}, std::pair{0, 0}, std::pair{2, 2}})
          cases.push_back({depth, link, wire, processing, buffer, 1, 15});
  cases.push_back({4, 1, 0, 1, 4, 3, 7});  // BookSim2's router, 8-flit packets, 3 hops
  cases.push_back({4, 2, 0, 1, 3, 2, 7});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(TwoRouterLine, CreditLimitedLatency, ::testing::ValuesIn(credit_loop_cases()));

}  // namespace
}  // namespace meshmp
