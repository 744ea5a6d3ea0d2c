// Cycle counts follow from the hardware parameters: one message across an idle path of H hops arrives
// after exactly H * (pipeline_depth - 1 + link_latency) + pipeline_depth + 2 + P cycles (P payload
// flits; 1 cycle each for the injection and ejection channels, the DMA starts one cycle after its
// descriptor), and the firmware's start-up t_s comes on top.
#include <gtest/gtest.h>

#include "hw/machine.h"

namespace meshmp {
namespace {

struct Timing {
  int pipeline_depth;
  int link_latency;
  int hops;
  std::uint32_t bytes;
};

std::ostream& operator<<(std::ostream& os, const Timing& t) {
  return os << "depth " << t.pipeline_depth << " latency " << t.link_latency << " hops " << t.hops << " bytes "
            << t.bytes;
}

class ZeroLoadLatency : public ::testing::TestWithParam<Timing> {};

TEST_P(ZeroLoadLatency, MatchesTheFormula) {
  const Timing t = GetParam();
  MachineConfig config;
  config.topology = "mesh:" + std::to_string(t.hops + 1);
  config.block_bytes = 64;
  config.router.pipeline_depth = t.pipeline_depth;
  config.router.link_latency_cycles = t.link_latency;
  config.processor.startup_cycles = 37;
  ASSERT_FALSE(config.validate().has_value());
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
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  const std::uint64_t payload_flits = (bytes + 7) / 8;
  const std::uint64_t expected = static_cast<std::uint64_t>(t.hops) * (t.pipeline_depth - 1 + t.link_latency) +
                                 t.pipeline_depth + 2 + payload_flits;
  const auto& received = machine.node(last).dma.received_messages();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].latency_cycles, expected);
  EXPECT_EQ(received[0].blocked_cycles, 0u) << "an idle network has no header blocking";
  EXPECT_EQ(received_at, 37 + expected) << "start-up t_s, then the network latency";
  // The clock stops while the network is idle: it did not tick during the 37 cycles of t_s.
  EXPECT_LE(machine.network().cycles_stepped(), expected + t.link_latency + 1);
}

INSTANTIATE_TEST_SUITE_P(Parameters, ZeroLoadLatency,
                         ::testing::Values(Timing{1, 1, 1, 8}, Timing{1, 1, 7, 64}, Timing{2, 1, 7, 64},
                                           Timing{3, 2, 5, 100}, Timing{4, 3, 3, 1}, Timing{2, 1, 4, 0}));

}  // namespace
}  // namespace meshmp
