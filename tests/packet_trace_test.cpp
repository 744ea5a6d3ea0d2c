// Packet traces (hw/network/packet_trace.h): `meshmp run --record-trace` writes the packets a run offered
// its network, `meshmp traffic --trace` replays them into the same source queues; malformed traces and
// misuses are refused naming the file, the line, the field and the rule.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "meshmp_process.h"

namespace {

using meshmp_test::contains;
using meshmp_test::meshmp;
using meshmp_test::Outcome;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "meshmp_packet_trace_" + std::to_string(getpid()) + "_" + name;
}

// direct on mesh:4x4: 16 x 15 messages of one 9-flit packet each, none waiting for another (the run's
// header blocking is 0): the replay measures the same packets with the same latency, message for message.
TEST(PacketTraces, ARecordedRunReplaysWithItsPacketsAndLatency) {
  const std::string trace = temp_path("direct.trace"), stats = temp_path("direct.json");
  const Outcome run = meshmp("run -t mesh:4x4 --algorithm direct --record-trace " + trace + " -o " + stats);
  ASSERT_EQ(run.status, 0) << run.output;
  std::ifstream in(trace);
  std::string line;
  std::uint64_t packets = 0, flits = 0, comments = 0;
  while (std::getline(in, line)) {
    if (line.rfind('#', 0) == 0) {
      ++comments;
      continue;
    }
    std::istringstream fields(line);
    std::uint64_t cycle, source, destination, size;
    ASSERT_TRUE(fields >> cycle >> source >> destination >> size) << line;
    EXPECT_NE(source, destination) << line;
    ++packets;
    flits += size;
  }
  EXPECT_EQ(comments, 1u);
  EXPECT_EQ(packets, 240u);
  const nlohmann::json recorded = nlohmann::json::parse(std::ifstream(stats));
  const nlohmann::json& messages = recorded["statistics"]["messages"];
  ASSERT_EQ(messages["received"], 240);

  const Outcome replay = meshmp("traffic -t mesh:4x4 --trace " + trace + " --json-line");
  ASSERT_EQ(replay.status, 0) << replay.output;
  const nlohmann::json p = nlohmann::json::parse(replay.output);
  EXPECT_EQ(p["measured_packets"], 240);
  EXPECT_TRUE(p["all_measured_packets_delivered"].get<bool>());
  EXPECT_DOUBLE_EQ(p["average_packet_flits"].get<double>() * 240, static_cast<double>(flits));
  EXPECT_DOUBLE_EQ(p["average_packet_latency_cycles"].get<double>(), messages["latency_cycles"]["mean"].get<double>());
  EXPECT_EQ(p["max_packet_latency_cycles"], messages["latency_cycles"]["max"]);
  EXPECT_EQ(p["config"]["traffic"]["warmup_cycles"], 0);
  // The offered load is the trace's over the window that spans it.
  const double window = p["config"]["traffic"]["measure_cycles"].get<double>();
  EXPECT_DOUBLE_EQ(p["offered_flits_per_node_per_cycle"].get<double>(), static_cast<double>(flits) / (16 * window));
  for (const std::string& file : {trace, stats}) std::remove(file.c_str());
}

TEST(PacketTraces, MalformedLinesAreRefusedNamingFileLineFieldAndRule) {
  const std::string trace = temp_path("bad.trace");
  for (const auto& [text, rule] : std::vector<std::pair<std::string, std::string>>{
           {"# a comment\n5 0 1\n", "line 2: has 3 fields; expected 4: cycle source destination flits"},
           {"x 0 1 4\n", "line 1: field cycle = 'x': must be a whole number of cycles"},
           {"5 0 1 4\n\n5 0 16 4\n", "line 3: field destination = '16': must be a node, 0..15"},
           {"5 -1 1 4\n", "line 1: field source = '-1': must be a node, 0..15"},
           {"5 0 1 0 # empty\n", "line 1: field flits = '0': must be 1..4097 (head included)"},
           {"7 0 1 4\n6 1 0 4\n", "line 2: field cycle = '6': must be a whole number of cycles, at least the line before's 7"},
           {"# nothing\n", "holds no packet"}}) {
    std::ofstream(trace) << text;
    const Outcome o = meshmp("traffic -t mesh:4x4 --trace " + trace);
    EXPECT_EQ(o.status, 2) << text << o.output;
    EXPECT_TRUE(contains(o.output, "--trace = '" + trace + "': " + rule)) << text << o.output;
  }
  std::remove(trace.c_str());
  const Outcome missing = meshmp("traffic -t mesh:4x4 --trace " + trace);
  EXPECT_EQ(missing.status, 2) << missing.output;
  EXPECT_TRUE(contains(missing.output, "--trace = '" + trace + "'")) << missing.output;
}

TEST(PacketTraces, MisusesAreRefusedNamingTheRule) {
  const std::string trace = temp_path("small.trace");
  std::ofstream(trace) << "0 0 3 4\n2 3 0 4\n";
  const Outcome rate = meshmp("traffic -t mesh:4x4 --trace " + trace + " --rate 0.2");
  EXPECT_EQ(rate.status, 2) << rate.output;
  EXPECT_TRUE(contains(rate.output, "--rate = '0.2': describes drawn packets; --trace replays its own")) << rate.output;
  const Outcome pattern = meshmp("traffic -t mesh:4x4 --trace " + trace + " --pattern transpose");
  EXPECT_EQ(pattern.status, 2) << pattern.output;
  const Outcome tlm = meshmp("run -t mesh:4x4 --algorithm direct --fidelity tlm -o '' --record-trace " + trace);
  EXPECT_EQ(tlm.status, 2) << tlm.output;
  EXPECT_TRUE(contains(tlm.output, "output.packet_trace = '" + trace + "': records the packets of the cycle-level network"))
      << tlm.output;
  // Both packets of the small trace, at either fidelity.
  for (const char* fidelity : {"cycle", "tlm"}) {
    const Outcome o = meshmp("traffic -t mesh:4x4 --json-line --fidelity " + std::string(fidelity) + " --trace " + trace);
    ASSERT_EQ(o.status, 0) << o.output;
    const nlohmann::json p = nlohmann::json::parse(o.output);
    EXPECT_EQ(p["measured_packets"], 2) << fidelity;
    EXPECT_EQ(p["average_hops"], 3) << fidelity;
  }
  std::remove(trace.c_str());
}

}  // namespace
