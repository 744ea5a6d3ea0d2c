// MPI's non-overtaking rule: messages from one source to one destination with one tag are matched to
// receives in the order they were sent, whatever order their packets arrive in. Here a third of the
// messages take a 3-hop source route around the ring while the others take the 1-hop direct link, so
// later messages arrive before earlier ones; other nodes load the network meanwhile.
#include <gtest/gtest.h>

#include <numeric>

#include "hw/machine/machine.h"

namespace meshmp {
namespace {

constexpr int kMessages = 100;

std::uint32_t message_size(int k) { return 1 + static_cast<std::uint32_t>(k * 37) % 300; }
std::uint8_t message_byte(int k, std::uint32_t i) { return static_cast<std::uint8_t>(k * 31 + i * 7 + 1); }

std::vector<std::uint32_t> message_offsets() {
  std::vector<std::uint32_t> offsets(kMessages + 1, 0);
  for (int k = 0; k < kMessages; ++k) offsets[k + 1] = offsets[k] + message_size(k);
  return offsets;
}

void run(PortModel model) {
  MachineConfig config;
  config.topology = "torus:4x4";
  config.block_bytes = 400;
  config.port_model = model;
  config.processor.startup_cycles = 1;
  const auto offsets = message_offsets();
  // 20 KB of scratch memory per node: room for the 100 messages and the background load's buffers.
  Machine machine("machine", config, [&offsets](NodeApi& api) {
    const int me = api.id();
    const int minus = api.topology().port_of(0, -1);
    if (me == 0)
      for (int k = 0; k < kMessages; ++k) {
        std::vector<int> route;
        if (k % 3 == 0) route = {minus, minus, minus};  // 0 -> 3 -> 2 -> 1
        api.send(1, offsets[k], message_size(k), 7, route);
      }
    if (me == 1)
      for (int k = 0; k < kMessages; ++k) api.receive(0, offsets[k], message_size(k), 7);
    if (me >= 2) {
      // Background load among nodes 2..15: ten 256-byte messages to the next one.
      const int next = me == 15 ? 2 : me + 1, previous = me == 2 ? 15 : me - 1;
      for (int k = 0; k < 10; ++k) api.receive(previous, 14000 + 256 * (k % 4), 256, 9);
      for (int k = 0; k < 10; ++k) api.send(next, 0, 256, 9);
    }
    api.wait_all();
  }, AlgorithmOptions{}, 20000);
  auto& sent = machine.node(0).memory.bytes();
  for (int k = 0; k < kMessages; ++k)
    for (std::uint32_t i = 0; i < message_size(k); ++i) sent[offsets[k] + i] = message_byte(k, i);
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  const auto& received = machine.node(1).memory.bytes();
  int wrong = 0;
  for (int k = 0; k < kMessages; ++k)
    for (std::uint32_t i = 0; i < message_size(k); ++i)
      if (received[offsets[k] + i] != message_byte(k, i)) {
        ADD_FAILURE() << "receive " << k << " byte " << i << " does not hold message " << k << "'s data";
        if (++wrong > 5) return;
        break;
      }
  EXPECT_GT(machine.node(1).network_interface().out_of_order_messages(), 10u) << "the test needs messages that overtake";
  // The host keeps a record per packet only while it is in the network.
  EXPECT_EQ(machine.cycle_network().packets().open_records(), 0u) << "every packet's record is closed at its ejection";
  EXPECT_LT(machine.cycle_network().packets().table_size(), 100u) << "records are reused, not one per packet ever sent";
}

TEST(MessageOrder, SameTagMessagesMatchInSendingOrderOnePort) { run(PortModel::OnePort); }
TEST(MessageOrder, SameTagMessagesMatchInSendingOrderAllPort) { run(PortModel::AllPort); }

}  // namespace
}  // namespace meshmp
