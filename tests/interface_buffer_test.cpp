// The network interface's bounded buffer for unexpected messages: when it is full, arriving packets wait
// in the network (the interface withholds its ejection credits) until a posted receive drains them; a
// run in which nothing will ever post the receive is reported by the watchdog, naming the node and the
// waiting message.
#include <gtest/gtest.h>

#include "hw/machine/machine.h"

namespace meshmp {
namespace {

// Node 0 sends four 64-byte messages to node 1, which posts their receives only after 2000 cycles.
TEST(InterfaceBuffer, FullBufferPushesBackIntoTheNetwork) {
  MachineConfig config;
  config.topology = "mesh:2";
  config.processor.startup_cycles = 0;
  config.unexpected_buffer_bytes = 100;  // room for one 64-byte message, not two
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 0)
      for (std::uint32_t k = 0; k < 4; ++k) api.send(1, 64 * k, 64, k + 1);
    if (api.id() == 1) {
      api.compute(2000);
      for (std::uint32_t k = 0; k < 4; ++k) api.receive(0, 64 * k, 64, k + 1);
    }
    api.wait_all();
  });
  auto& sent = machine.node(0).memory.bytes();
  for (std::size_t b = 0; b < 256; ++b) sent[b] = static_cast<std::uint8_t>(3 * b + 1);
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  const auto& received = machine.node(1).memory.bytes();
  for (std::size_t b = 0; b < 256; ++b) ASSERT_EQ(received[b], static_cast<std::uint8_t>(3 * b + 1)) << "byte " << b;
  EXPECT_EQ(machine.node(1).network_interface().peak_buffered_bytes(), 64u) << "only one message fitted the buffer";
  EXPECT_GT(machine.network().header_blocking_cycles(), 1000u) << "the later messages waited in the network";
  EXPECT_GT(result.completion_cycles, 2000u);
}

// Node 1 waits for tag 2, but tag 1 arrives first, has no receive, and does not fit the buffer: it blocks
// the ejection channel, and tag 2 can never arrive.
TEST(InterfaceBuffer, MessageNobodyReceivesIsNamedByTheWatchdog) {
  MachineConfig config;
  config.topology = "mesh:2";
  config.processor.startup_cycles = 0;
  config.unexpected_buffer_bytes = 32;
  config.watchdog_cycles = 100;
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 0) {
      api.send(1, 0, 64, 1);
      api.send(1, 64, 64, 2);
    }
    if (api.id() == 1) api.wait(api.receive(0, 0, 64, 2));
  });
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::NetworkFailure) << result.message;
  EXPECT_NE(result.message.find("deadlock"), std::string::npos) << result.message;
  bool named = false;
  for (const auto& line : result.details)
    named |= line.find("node 1 DMA: ejection channel 0 holds a packet of message 0 from node 0 tag 1 (64 bytes) that no "
                       "posted receive matches and the unexpected-message buffer cannot take (0 of 32 bytes in use)") !=
             std::string::npos;
  EXPECT_TRUE(named) << "the report must name the node and the waiting message";
}

}  // namespace
}  // namespace meshmp
