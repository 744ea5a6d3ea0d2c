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

#include "exchange_run.h"
#include "hw/machine.h"

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
  config = with_test_router_model(config);  // the rtl/ pass: the verilated routers where the matrix has them
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

}  // namespace
}  // namespace meshmp
