// Who pays the start-up t_s (node.startup_on). On the processor (the default) a node's sends start one
// t_s after another even on all-port nodes; on the injection channel every channel of an all-port node
// runs its own t_s, so messages on different ports start together (003 §2's n-port communication); a
// one-port node's single channel still starts them one after another. The zero-load model agrees with
// the machine in every case.
#include <gtest/gtest.h>

#include "hw/machine/machine.h"

namespace meshmp {
namespace {

struct Arrivals {
  std::uint64_t first = 0, second = 0, completion = 0, zero_load = 0;
};

// Node 0 of hypercube:2 sends 64 bytes to nodes 1 and 2 (two ports) at once.
Arrivals two_sends(bool startup_on_channel, PortModel ports) {
  MachineConfig config;
  config.topology = "hypercube:2";
  config.port_model = ports;
  config.processor.startup_cycles = 100;
  config.processor.startup_on_channel = startup_on_channel;
  static std::uint64_t arrived[4];
  Machine machine("machine", config, [](NodeApi& api) {
    api.begin_step(0);
    if (api.id() == 0) {
      const Handle a = api.send(1, 0, 64, 0);
      const Handle b = api.send(2, 64, 64, 0);
      api.wait(a);
      api.wait(b);
    } else if (api.id() != 3) {
      api.wait(api.receive(0, 256, 64, 0));
      arrived[api.id()] = api.now_cycles();
    }
  });
  const RunResult result = machine.run();
  EXPECT_EQ(result.status, RunStatus::Completed) << result.message;
  return {arrived[1], arrived[2], result.completion_cycles, machine.step_statistics().zero_load_prediction_cycles()};
}

TEST(StartupOn, ProcessorStartsSendsOneAfterAnother) {
  const Arrivals a = two_sends(false, PortModel::AllPort);
  EXPECT_EQ(a.second - a.first, 100u);
  EXPECT_EQ(a.completion, a.zero_load);
}

TEST(StartupOn, ChannelsOfAnAllPortNodeStartTogether) {
  const Arrivals a = two_sends(true, PortModel::AllPort);
  EXPECT_EQ(a.second, a.first);
  EXPECT_GE(a.first, 100u);
  EXPECT_EQ(a.completion, a.zero_load);
}

TEST(StartupOn, TheOneChannelOfAOnePortNodeStartsThemOneAfterAnother) {
  const Arrivals a = two_sends(true, PortModel::OnePort);
  // The second message waits for the first's 8 payload flits and head, then its own start-up.
  EXPECT_EQ(a.second - a.first, 100u + 9u);
  EXPECT_EQ(a.completion, a.zero_load);
}

}  // namespace
}  // namespace meshmp
