// Faults a user injects (run.inject_faults, --inject-fault; hw/machine/fault_spec.h, hw/network/link_faults.h)
// and what the run makes of them, each reported in the summary and in statistics.faults:
//  - a byte of a node's memory changed after the run: the verifier names the node and the block, with
//    1-byte blocks too (the last byte of the last node's last block);
//  - a payload bit flipped on a link: the verifier names the block it reached, on both router models;
//  - a flit dropped: the network reports the short packet and the blocked channels;
//  - a credit withheld: the run completes, verified, one credit short;
//  - a fault whose link carries nothing from its cycle on never fires, and says so;
//  - a fault the machine cannot take is refused naming the rule.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "exchange_run.h"
#include "meshmp_process.h"

namespace meshmp {
namespace {

using meshmp_test::contains;
using meshmp_test::meshmp;

struct FaultRun {
  meshmp_test::Outcome outcome;
  nlohmann::json stats;
};

FaultRun run_with(const std::string& arguments) {
  const std::string json = ::testing::TempDir() + "/fault-" + std::to_string(::getpid()) + ".json";
  std::filesystem::remove(json);
  FaultRun run{meshmp("run " + arguments + " -o " + json), {}};
  if (std::filesystem::exists(json)) run.stats = nlohmann::json::parse(std::ifstream(json));
  std::filesystem::remove(json);
  return run;
}

// torus:4x4 with 1-byte blocks: node 15's receive buffer is bytes 16..31, its block from node 15 the last.
TEST(FaultInjection, AMemoryByteChangedIsNamedByTheVerifier) {
  const FaultRun run = run_with("-t torus:4x4 -a direct -m 1 --inject-fault memory:15:31");
  EXPECT_EQ(run.outcome.status, 1) << run.outcome.output;
  EXPECT_TRUE(contains(run.outcome.output, "fault injected: memory:15:31: at cycle ")) << run.outcome.output;
  EXPECT_TRUE(contains(run.outcome.output, "VERIFICATION FAILED")) << run.outcome.output;
  EXPECT_TRUE(contains(run.outcome.output, "block 15->15 lost: it is not in node 15 slot 15")) << run.outcome.output;
  ASSERT_TRUE(run.stats.contains("statistics")) << run.outcome.output;
  const nlohmann::json& fault = run.stats["statistics"]["faults"][0];
  EXPECT_EQ(fault["spec"], "memory:15:31");
  EXPECT_EQ(fault["fired"], true);
  EXPECT_TRUE(contains(fault["effect"].get<std::string>(), "flipped bit 0 of node 15's byte 31")) << fault;
  EXPECT_FALSE(run.stats["verification"]["ok"].get<bool>());
  EXPECT_EQ(run.stats["config"]["run"]["inject_faults"], nlohmann::json::array({"memory:15:31"}));
}

// The same fault through the library (a machine built from a MachineConfig): the verifier sees it too.
TEST(FaultInjection, AMemoryFaultReachesTheVerifierOfAMachineBuiltInCode) {
  MachineConfig config;
  config.topology = "torus:4x4";
  config.block_bytes = 2;
  config.inject_faults = {"memory:15:63:7"};  // the last byte of block 15->15 (receive buffer 32..63)
  const ExchangeRun run = run_exchange(config);
  ASSERT_EQ(run.result.status, RunStatus::Completed) << run.result.message;
  EXPECT_EQ(run.report.error_count, 2u);
  bool named = false;
  for (const std::string& e : run.report.errors)
    named = named || contains(e, "node 15 slot 15: expected block 15->15, found unrecognised data (first wrong byte at offset 1)");
  EXPECT_TRUE(named) << (run.report.errors.empty() ? "" : run.report.errors.front());
}

// Node 0's first payload flit to node 1 (packet 0 of the direct exchange, block 0->1) loses bit 5 of its
// first byte on the link 0 -> 1: block 0->1 arrives changed, on either router model.
TEST(FaultInjection, AFlippedPayloadBitIsNamedByTheVerifierOnBothRouterModels) {
  for (const std::string router : {"cpp", "rtl"}) {
    const FaultRun run = run_with("-t torus:4x4 -a direct -m 64 --router " + router + " --inject-fault flip:0-1:0:5");
    EXPECT_EQ(run.outcome.status, 1) << router << ": " << run.outcome.output;
    EXPECT_TRUE(contains(run.outcome.output, "flipped bit 5 of byte 0 of packet 0's payload flit")) << run.outcome.output;
    EXPECT_TRUE(contains(run.outcome.output, "node 1 slot 0: expected block 0->1, found unrecognised data (first wrong "
                                             "byte at offset 0)"))
        << router << ": " << run.outcome.output;
    ASSERT_TRUE(run.stats.contains("statistics")) << run.outcome.output;
    EXPECT_EQ(run.stats["verification"]["error_count"], 2) << router;
    EXPECT_GT(run.stats["statistics"]["faults"][0]["cycle"].get<std::uint64_t>(), 0u);
  }
}

TEST(FaultInjection, ADroppedFlitLeavesAShortPacketTheNetworkReports) {
  const FaultRun run = run_with("-t torus:4x4 -a direct -m 64 --inject-fault drop:0-1:0");
  EXPECT_EQ(run.outcome.status, 1) << run.outcome.output;
  EXPECT_TRUE(contains(run.outcome.output, "dropped packet 0's payload flit")) << run.outcome.output;
  EXPECT_TRUE(contains(run.outcome.output, "FAILED (network failure)")) << run.outcome.output;
  EXPECT_TRUE(contains(run.outcome.output, "8 flits received, header says 9")) << run.outcome.output;
}

// One credit of the link 0 -> 1 never returns: that VC holds one flit fewer from then on, and the
// exchange still completes, verified.
TEST(FaultInjection, AWithheldCreditCostsABufferSlotNotTheData) {
  const FaultRun run = run_with("-t torus:4x4 -a direct -m 64 --inject-fault credit:0-1:0");
  EXPECT_EQ(run.outcome.status, 0) << run.outcome.output;
  EXPECT_TRUE(contains(run.outcome.output, "withheld a credit")) << run.outcome.output;
  ASSERT_TRUE(run.stats.contains("statistics")) << run.outcome.output;
  EXPECT_EQ(run.stats["statistics"]["faults"][0]["fired"], true);
  EXPECT_TRUE(run.stats["verification"]["ok"].get<bool>());
}

TEST(FaultInjection, AFaultWhoseLinkStaysIdleNeverFires) {
  const FaultRun run = run_with("-t torus:4x4 -a direct -m 64 --inject-fault flip:0-1:1000000");
  EXPECT_EQ(run.outcome.status, 0) << run.outcome.output;
  EXPECT_TRUE(contains(run.outcome.output, "never fired: no payload flit crossed the link from cycle 1000000 on"))
      << run.outcome.output;
  ASSERT_TRUE(run.stats.contains("statistics")) << run.outcome.output;
  EXPECT_EQ(run.stats["statistics"]["faults"][0]["fired"], false);
  EXPECT_TRUE(run.stats["statistics"]["faults"][0]["cycle"].is_null());
}

TEST(FaultInjection, FaultsTheMachineCannotTakeAreRefusedNamingTheRule) {
  const std::vector<std::pair<std::string, std::string>> refused{
      {"-t torus:4x4 --inject-fault memory:3", "must be memory:NODE:ADDRESS[:BIT]"},
      {"-t torus:4x4 --inject-fault memory:3:0:8", "must be memory:NODE:ADDRESS[:BIT]"},
      {"-t torus:4x4 --inject-fault melt:0-1:0", "must be memory:NODE:ADDRESS[:BIT]"},
      {"-t torus:4x4 --inject-fault memory:16:0", "names node 16; torus:4x4 has nodes 0..15"},
      {"-t torus:4x4 -m 1 --inject-fault memory:3:32", "names byte 32 of node 3's memory, which has bytes 0..31"},
      {"-t torus:4x4 --inject-fault flip:0-5:0", "names the link 0-5, which torus:4x4 does not have"},
      {"-t torus:4x4 --fidelity tlm --inject-fault drop:0-1:0", "it needs network.fidelity cycle"},
      {"-t bus:4 -a saad-multiscatter --inject-fault credit:0-1:0", "bus:4 has none (a memory fault applies)"},
  };
  for (const auto& [arguments, rule] : refused) {
    const auto out = meshmp("run " + arguments + " -o ''");
    EXPECT_EQ(out.status, 2) << arguments << ": " << out.output;
    EXPECT_TRUE(contains(out.output, "run.inject_faults")) << arguments << ": " << out.output;
    EXPECT_TRUE(contains(out.output, rule)) << arguments << ": " << out.output;
  }
}

// A config file gives faults as a list; the command line's replace it; --print-config shows them.
TEST(FaultInjection, AConfigFileListsFaultsAndTheCommandLineReplacesThem) {
  const std::string config = ::testing::TempDir() + "/faults-" + std::to_string(::getpid()) + ".json";
  std::ofstream(config) << R"({"topology": "torus:4x4", "block_bytes": 1, "run": {"inject_faults": ["memory:15:31"]}})";
  auto out = meshmp("run --config " + config + " --print-config");
  ASSERT_EQ(out.status, 0) << out.output;
  EXPECT_TRUE(contains(out.output, "\"memory:15:31\"")) << out.output;
  out = meshmp("run --config " + config + " --inject-fault memory:0:16 --print-config");
  ASSERT_EQ(out.status, 0) << out.output;
  EXPECT_TRUE(contains(out.output, "\"memory:0:16\"")) << out.output;
  EXPECT_FALSE(contains(out.output, "memory:15:31")) << out.output;
  std::ofstream(config) << R"({"run": {"inject_faults": "memory:15:31"}})";
  out = meshmp("run --config " + config + " --print-config");
  EXPECT_EQ(out.status, 2) << out.output;
  EXPECT_TRUE(contains(out.output, "run.inject_faults")) << out.output;
  std::filesystem::remove(config);
}

}  // namespace
}  // namespace meshmp
