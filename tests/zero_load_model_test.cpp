// The zero-load model of this machine (hw/network/zero_load_model.h, per-step prediction in Processor) against
// measured cycles. On a contention-free, synchronised schedule (the XOR pairwise exchange on a hypercube
// under e-cube routing: every step one message per node, no link shared, partners in lockstep) the
// measured completion time equals the model exactly, start-up t_s = 0 included, for single- and
// multi-packet messages; the paper's step formula (N-1)(t_s + m t_c) leaves out the network.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "firmware/api/algorithm_registry.h"
#include "hw/machine/machine.h"
#include "hw/network/zero_load_model.h"

#include "exchange_run.h"

namespace meshmp {
namespace {

TEST(ZeroLoadModel, MessageShape) {
  RouterParams params;  // 8-byte flits, at most 16 payload flits per packet
  EXPECT_EQ(message_packets(params, 0), 1u);
  EXPECT_EQ(message_flits(params, 0), 1u);
  EXPECT_EQ(message_flits(params, 1), 2u);
  EXPECT_EQ(message_flits(params, 128), 17u);
  EXPECT_EQ(message_packets(params, 129), 2u);
  EXPECT_EQ(message_flits(params, 200), 2u + 25u);
  // One packet, H hops: flits + H(d + L) + d + 1 from the first injected flit to the last ejected one.
  EXPECT_EQ(zero_load_transfer_cycles(params, 3, 64), 9u + 3 * (2 + 1) + 2 + 1);
}

using PairwiseCase = std::tuple<int, std::uint32_t, std::uint64_t>;  // hypercube dimension, m, t_s

class PairwiseOnTheHypercube : public ::testing::TestWithParam<PairwiseCase> {};

TEST_P(PairwiseOnTheHypercube, MeasuredEqualsTheZeroLoadModel) {
  const auto [dimension, block_bytes, startup] = GetParam();
  MachineConfig config;
  config.topology = "hypercube:" + std::to_string(dimension);
  config.algorithm = "pairwise";
  config.block_bytes = block_bytes;
  config.processor.startup_cycles = startup;
  Machine machine("machine", with_test_router_model(config), find_algorithm("pairwise"));
  const int n = machine.topology().num_nodes();
  for (int i = 0; i < n; ++i) fill_exchange_memory(machine.node(i).memory.bytes(), machine.layout(), i);
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  ASSERT_EQ(machine.network().header_blocking_cycles() + machine.network().body_stall_cycles(), 0u)
      << "the schedule must be contention-free for the model to be exact";
  // Written out: step k sends one block over popcount(k) hops after t_s; the own block is copied at rho.
  std::uint64_t by_hand = 0;
  for (int k = 1; k < n; ++k)
    by_hand += startup + 1 + zero_load_transfer_cycles(config.router, __builtin_popcount(k), block_bytes);
  by_hand += static_cast<std::uint64_t>(std::ceil(config.processor.copy_cycles_per_byte * block_bytes));
  EXPECT_EQ(machine.step_statistics().zero_load_prediction_cycles(), by_hand);
  EXPECT_EQ(result.completion_cycles, machine.step_statistics().zero_load_prediction_cycles());
}

INSTANTIATE_TEST_SUITE_P(Cases, PairwiseOnTheHypercube,
                         ::testing::Combine(::testing::Range(1, 7), ::testing::Values(1u, 8u, 64u, 200u),
                                            ::testing::Values(0u, 10u, 100u)));

}  // namespace
}  // namespace meshmp

namespace meshmp {
namespace {

// An asymmetric step: node 0 sends 200 bytes to node 1, which sends 8 bytes back; in the next step
// (after a barrier) node 1 waits for the large message. The receive completes when its own message
// arrives (the sender's model travels with it), not when the node's own small message does; and a
// send of an earlier step, waited for later, is not charged again to the later step.
TEST(ZeroLoadModel, AsymmetricStepIsExactWithBarriers) {
  MachineConfig config;
  config.topology = "ring:4";
  config.block_bytes = 256;
  Machine machine("machine", with_test_router_model(config), [](NodeApi& api) {
    const std::uint32_t in = api.layout().receive_base();
    Handle large = -1, small = -1;
    api.begin_step(1);
    if (api.id() == 0) {
      large = api.send(1, 0, 200, 1);
      small = api.receive(1, in, 8, 2);
      api.wait(small);
    }
    if (api.id() == 1) {
      large = api.receive(0, in, 200, 1);
      api.wait(large);
      small = api.send(0, 0, 8, 2);
      api.wait(small);
    }
    api.hardware_barrier();
    api.begin_step(2);
    api.hardware_barrier();
    if (api.id() == 0) api.wait(large);  // sent in step 1: nothing left to wait for
    api.compute(5);
  });
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  EXPECT_EQ(result.completion_cycles, machine.step_statistics().zero_load_prediction_cycles());
}

}  // namespace
}  // namespace meshmp
