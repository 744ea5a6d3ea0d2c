// The schedule statistics (statistics.schedule) the machine measures from the step marks and the
// messages each step carried: the papers' counts (synchronized steps, the sum of each step's largest
// message in blocks, start-ups and local copies of the busiest node) and the steps with and without
// header blocking, attributed to the step each message was sent in.
#include <gtest/gtest.h>

#include <numeric>

#include "firmware/api/algorithm_registry.h"
#include "hw/machine/machine.h"
#include "hw/machine/run_statistics.h"
#include "hw/machine/schedule_summary.h"

#include "exchange_run.h"

namespace meshmp {
namespace {

ScheduleSummary schedule_of(const Machine& machine) {
  const int n = machine.topology().num_nodes();
  std::vector<std::uint64_t> startups(n), copied(n);
  for (int i = 0; i < n; ++i) {
    startups[i] = machine.node(i).cpu.startups();
    copied[i] = machine.node(i).cpu.copied_bytes();
  }
  return summarize_schedule(machine.step_statistics(), machine.network().header_blocking_by_step(),
                            machine.layout().block_bytes, startups, copied);
}

TEST(Schedule, PairwiseOnTheHypercubeIsContentionFree) {
  MachineConfig config;
  config.topology = "hypercube:4";
  config.algorithm = "pairwise";
  config.block_bytes = 40;
  Machine machine("machine", with_test_router_model(config), find_algorithm("pairwise"));
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  const ScheduleSummary s = schedule_of(machine);
  EXPECT_EQ(s.synchronized_steps, 15u);
  EXPECT_EQ(s.step_max_blocks, std::vector<std::uint64_t>(15, 1));
  EXPECT_EQ(s.sum_of_step_max_blocks, 15u);
  EXPECT_EQ(s.max_messages_per_node, 15u);
  EXPECT_EQ(s.rearrangement_bytes_max_per_node, 40u) << "each node copies its own block";
  EXPECT_EQ(s.contention_free_steps, 15u);
  EXPECT_EQ(s.steps_with_blocking, 0u);
  // The same figures reach the stats JSON.
  const nlohmann::json stats = collect_statistics(machine, result);
  EXPECT_EQ(stats["schedule"]["synchronized_steps"], 15);
  EXPECT_EQ(stats["schedule"]["contention_free_steps"], 15);
}

TEST(Schedule, BlockingIsChargedToTheStepThatSentTheMessage) {
  // Every node sends to node 0, then 1, ... with no start-up cost: the headers queue at each target.
  MachineConfig config;
  config.topology = "torus:4x4";
  config.algorithm = "direct";
  config.algorithm_options = {{"order", "ascending"}};
  config.processor.startup_cycles = 0;
  Machine machine("machine", with_test_router_model(config), find_algorithm("direct"));
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  const auto& by_step = machine.network().header_blocking_by_step();
  EXPECT_EQ(std::accumulate(by_step.begin(), by_step.end(), std::uint64_t{0}),
            machine.network().header_blocking_cycles());
  const ScheduleSummary s = schedule_of(machine);
  EXPECT_EQ(s.synchronized_steps, 15u);
  EXPECT_EQ(s.steps_with_blocking + s.contention_free_steps, 15u);
  EXPECT_GT(s.steps_with_blocking, 0u);
}

TEST(Schedule, CountsTheLargestMessageOfEachStepInBlocks) {
  // Step 1: node 0 sends 3 blocks and node 1 one block; step 2: node 1 sends 2 blocks plus a
  // partial one (rounded up), node 0 a null message; step 5 marks but sends nothing (not synchronized).
  MachineConfig config;
  config.topology = "ring:4";
  config.block_bytes = 32;
  Machine machine("machine", with_test_router_model(config), [](NodeApi& api) {
    const std::uint32_t scratch = api.layout().receive_base();
    if (api.id() == 0) {
      api.begin_step(1);
      api.wait(api.send(2, 0, 96, 1));
      api.begin_step(2);
      api.signal(3, 2);
      api.begin_step(5);
      api.local_copy(scratch, 0, 20);
    }
    if (api.id() == 1) {
      api.begin_step(1);
      api.wait(api.send(3, 0, 32, 1));
      api.begin_step(2);
      api.wait(api.send(2, 0, 80, 2));
    }
    if (api.id() == 2) {
      api.wait(api.receive(0, scratch, 96, 1));
      api.wait(api.receive(1, scratch, 80, 2));
      api.local_copy(scratch + 96, scratch, 30);
    }
    if (api.id() == 3) {
      api.wait(api.receive(1, scratch, 32, 1));
      api.wait_signal(0, 2);
    }
  });
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  const ScheduleSummary s = schedule_of(machine);
  EXPECT_EQ(s.synchronized_steps, 2u) << "steps 0 and 5 started no message";
  EXPECT_EQ(s.step_max_blocks, (std::vector<std::uint64_t>{3, 3}));
  EXPECT_EQ(s.sum_of_step_max_blocks, 6u);
  EXPECT_EQ(s.max_messages_per_node, 2u);
  EXPECT_EQ(s.rearrangement_bytes_max_per_node, 30u);
}

}  // namespace
}  // namespace meshmp
