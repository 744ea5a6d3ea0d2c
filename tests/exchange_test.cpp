// Both baseline complete exchanges on the whole machine (processors, DMA engines over TLM-2.0, routers),
// byte-exact on every node, with the exact start-up counts the algorithms imply: N-1 messages per node,
// one block per step.
#include <gtest/gtest.h>

#include <tuple>

#include "firmware/api/algorithm_registry.h"
#include "firmware/api/exchange_verifier.h"
#include "hw/machine/machine.h"
#include "hw/machine/run_statistics.h"

#include "exchange_run.h"

namespace meshmp {
namespace {

struct ExchangeCase {
  const char* topology;
  const char* algorithm;
  SwitchingMode switching = SwitchingMode::Wormhole;
  PortModel port_model = PortModel::OnePort;
  std::uint32_t block_bytes = 40;
};

std::ostream& operator<<(std::ostream& os, const ExchangeCase& c) {
  return os << c.topology << " " << c.algorithm << " " << to_string(c.switching) << " " << to_string(c.port_model);
}

class BaselineExchange : public ::testing::TestWithParam<ExchangeCase> {};

TEST_P(BaselineExchange, EveryByteInPlace) {
  const ExchangeCase& c = GetParam();
  MachineConfig config;
  config.topology = c.topology;
  config.algorithm = c.algorithm;
  config.block_bytes = c.block_bytes;
  config.router.switching = c.switching;
  config.port_model = c.port_model;
  config.router.max_packet_payload_flits = 4;  // blocks of 40 bytes become two packets
  if (c.switching != SwitchingMode::Wormhole) config.router.buffer_flits = 5;
  ASSERT_FALSE(config.validate().has_value()) << *config.validate();
  Machine machine("machine", with_test_router_model(config), find_algorithm(c.algorithm));
  const int n = machine.topology().num_nodes();
  for (int i = 0; i < n; ++i) fill_exchange_memory(machine.node(i).memory.bytes(), machine.layout(), i);
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  const VerificationReport report = verify_exchange(
      machine.layout(), [&](int i) -> const std::vector<std::uint8_t>& { return machine.node(i).memory.bytes(); });
  ASSERT_TRUE(report.ok()) << report.errors.front();
  EXPECT_EQ(report.units_checked, static_cast<std::uint64_t>(n) * n);

  // Exact counts: every node starts N-1 messages of one block each, one per step 1..N-1.
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(machine.node(i).cpu.startups(), static_cast<std::uint64_t>(n - 1)) << "node " << i;
  const auto& steps = machine.step_statistics().steps();
  ASSERT_EQ(steps.size(), static_cast<std::size_t>(n));
  for (int k = 1; k < n; ++k) {
    // Every node marked the step; no node sent more than one message of one block in it, and all of them
    // together sent N: so each sent exactly one.
    EXPECT_EQ(steps[k].nodes, static_cast<std::uint64_t>(n)) << "step " << k;
    EXPECT_EQ(steps[k].messages_max, 1u) << "step " << k;
    EXPECT_EQ(steps[k].messages_total, static_cast<std::uint64_t>(n)) << "step " << k;
    EXPECT_EQ(steps[k].bytes_max, c.block_bytes) << "step " << k;
    EXPECT_EQ(steps[k].bytes_total, static_cast<std::uint64_t>(n) * c.block_bytes) << "step " << k;
  }

  // Completion takes at least the N-1 start-ups of one node.
  EXPECT_GE(result.completion_cycles, static_cast<std::uint64_t>(n - 1) * config.processor.startup_cycles);
  const nlohmann::json stats = collect_statistics(machine, result);
  EXPECT_EQ(stats["startups"]["total"].get<std::uint64_t>(), static_cast<std::uint64_t>(n) * (n - 1));
  EXPECT_EQ(stats["messages"]["received"].get<std::uint64_t>(), static_cast<std::uint64_t>(n) * (n - 1));
}

std::vector<ExchangeCase> cases() {
  std::vector<ExchangeCase> list;
  for (const char* algorithm : {"direct", "pairwise"}) {
    for (const char* topology : {"mesh:3x5", "torus:4x4", "torus:5x3", "torus:3x3x3", "hypercube:1", "hypercube:2",
                                 "hypercube:3", "hypercube:4", "hypercube:5", "hypercube:6", "ghc:3x4", "ring:6"})
      list.push_back({topology, algorithm});
    list.push_back({"mesh:3x5", algorithm, SwitchingMode::StoreAndForward});
    list.push_back({"torus:4x4", algorithm, SwitchingMode::VirtualCutThrough});
    list.push_back({"torus:5x3", algorithm, SwitchingMode::Wormhole, PortModel::AllPort});
    list.push_back({"hypercube:4", algorithm, SwitchingMode::Wormhole, PortModel::AllPort, 1});
  }
  return list;
}

std::string case_name(const ::testing::TestParamInfo<ExchangeCase>& info) {
  std::string name = std::string(info.param.algorithm) + "_" + info.param.topology + "_" +
                     to_string(info.param.switching) + "_" + to_string(info.param.port_model) + "_m" +
                     std::to_string(info.param.block_bytes);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Machines, BaselineExchange, ::testing::ValuesIn(cases()), case_name);

// 000 §2 cost model: every pairwise step costs at least t_s + m t_c, so N-1 steps cannot beat the
// estimate; on the hypercube the XOR steps are contention-free under e-cube routing, so the measured time
// exceeds it only by what the model leaves out (head flits, router pipelines, link hops).
TEST(PaperCostModel, PairwiseOnTheHypercubeFollowsTheStepEstimate) {
  MachineConfig config;
  config.topology = "hypercube:6";
  config.algorithm = "pairwise";
  config.block_bytes = 256;
  const Algorithm& algorithm = find_algorithm("pairwise");
  Machine machine("machine", with_test_router_model(config), algorithm);
  for (int i = 0; i < 64; ++i) fill_exchange_memory(machine.node(i).memory.bytes(), machine.layout(), i);
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  const double estimate = algorithm.estimate_cycles(machine.topology(), exchange_parameters(config));
  EXPECT_DOUBLE_EQ(estimate, 63 * (100 + 256 / 8));
  const double ratio = result.completion_cycles / estimate;
  EXPECT_GE(ratio, 1.0);
  EXPECT_LE(ratio, 1.15);
  EXPECT_EQ(machine.network().header_blocking_cycles(), 0u) << "XOR steps under e-cube routing never contend";
  EXPECT_EQ(machine.network().body_stall_cycles(), 0u) << "XOR steps under e-cube routing never share a link";
  // Bookkeeping follows what is pending, not what was ever sent: one receive pending per step, one record.
  EXPECT_EQ(machine.messages().received(), 64u * 63u);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(machine.node(i).network_interface().receive_records_allocated(), 1u) << "node " << i;
  EXPECT_EQ(machine.cycle_network().packets().table_size(), 64u * 2u)
      << "packet records: at most one message (two packets of 16 flits) per node in flight";
}

// A message nobody receives: the run ends as a firmware error naming the node and the message.
TEST(MachineRun, UnreceivedMessageIsAFirmwareError) {
  MachineConfig config;
  config.topology = "mesh:2x2";
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 0) api.wait(api.send(3, 0, 24, 42));
  });
  const RunResult result = machine.run();
  EXPECT_EQ(result.status, RunStatus::FirmwareError);
  ASSERT_EQ(result.details.size(), 1u);
  EXPECT_NE(result.details[0].find("node 3 DMA: holds message 0 from node 0 tag 42 (24 of 24 bytes arrived): "
                                   "no receive of (source, tag) is posted for it"),
            std::string::npos)
      << result.details[0];
}

// A firmware that waits for a message nobody sends: the run ends as a stall that names what each node
// waits for, instead of hanging.
TEST(MachineRun, StalledFirmwareIsReportedNotHung) {
  MachineConfig config;
  config.topology = "mesh:2x2";
  Machine machine("machine", config, [](NodeApi& api) {
    if (api.id() == 0) api.wait(api.receive(3, 0, 8, 99));
  });
  const RunResult result = machine.run();
  EXPECT_EQ(result.status, RunStatus::Stalled);
  ASSERT_EQ(result.details.size(), 1u);
  EXPECT_NE(result.details[0].find("node 0 waits for receive from node 3 tag 99"), std::string::npos)
      << result.details[0];
}

TEST(MachineRun, CycleLimitEndsTheRun) {
  MachineConfig config;
  config.topology = "torus:4x4";
  config.max_cycles = 150;
  Machine machine("machine", config, find_algorithm("direct"));
  const RunResult result = machine.run();
  EXPECT_EQ(result.status, RunStatus::Timeout);
  EXPECT_NE(result.message.find("run.max_cycles = 150"), std::string::npos) << result.message;
}

// A firmware error (address outside local memory) ends the run with the DMA engine's explanation.
TEST(MachineRun, FirmwareErrorNamesTheRule) {
  MachineConfig config;
  config.topology = "mesh:2x2";
  Machine machine("machine", config, [](NodeApi& api) { api.send((api.id() + 1) % 4, 0xfffffff0u, 64, 1); });
  const RunResult result = machine.run();
  EXPECT_EQ(result.status, RunStatus::FirmwareError);
  EXPECT_NE(result.message.find("exceeds the local memory"), std::string::npos) << result.message;
}

// The barriers hold every node until the last one arrives.
TEST(MachineRun, HardwareAndSoftwareBarriersSynchronise) {
  MachineConfig config;
  config.topology = "torus:3x3";
  config.barrier_latency_cycles = 7;
  static std::vector<std::uint64_t> after_hw(9), after_sw(9);
  Machine machine("machine", config, [](NodeApi& api) {
    api.compute(100 * static_cast<std::uint64_t>(api.id()));
    api.hardware_barrier();
    after_hw[api.id()] = api.now_cycles();
    api.compute(50 * static_cast<std::uint64_t>(8 - api.id()));
    const std::uint64_t arrived = api.now_cycles();
    api.software_barrier();
    after_sw[api.id()] = api.now_cycles();
    EXPECT_GE(after_sw[api.id()], arrived);
  });
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(after_hw[i], 800u + 7u) << "node " << i;
    EXPECT_GE(after_sw[i], after_hw[0] + 400u) << "node " << i << " left the software barrier before node 0 arrived";
  }
}

}  // namespace
}  // namespace meshmp
