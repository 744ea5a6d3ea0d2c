// Every JSON file meshmp writes matches its JSON Schema (sims/schema/*.schema.json): run statistics on
// router networks, the RTL routers, 004's bus, shared memory and switch, a failed run, a transpose;
// --print-config; traffic results and sweeps; benchmark cases. The schemas allow no key they do not
// describe, so a statistic renamed or added without its description fails here.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "hw/machine/machine_settings.h"
#include "meshmp_process.h"

namespace {

using meshmp_test::meshmp;
using meshmp_test::Outcome;
using meshmp_test::schema_violations;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "meshmp_schema_" + std::to_string(getpid()) + "_" + name;
}

TEST(JsonSchema, RunStatisticsOfEveryKindOfMachineMatch) {
  const struct {
    const char* name;
    const char* args;
    int status;
  } runs[] = {
      {"torus", "-t torus:4x4 -a direct -m 16", 0},
      {"hypercube-rtl", "-t hypercube:3 -a pairwise --port-model all-port --router rtl -m 8", 0},
      {"bus", "-t bus:8 -a saad-broadcast", 0},
      {"shared-memory", "-t shared-memory:8 -a saad-scatter --concurrent-transfers 2", 0},
      {"omega", "-t omega:8 -a saad-scatter", 0},
      {"transpose", "-t hypercube:4 -a jh-exchange --workload-option rows=16", 0},
      {"deadlock", "-t torus:4x4 --no-dateline --vcs 1 -m 512", 1},
  };
  for (const auto& run : runs) {
    const std::string json = temp_path(std::string(run.name) + ".json");
    const Outcome o = meshmp(std::string("run -q ") + run.args + " -o " + json);
    ASSERT_EQ(o.status, run.status) << run.name << "\n" << o.output;
    EXPECT_EQ(schema_violations("run.schema.json", json), "") << run.name;
  }
}

TEST(JsonSchema, StatisticsOnStandardOutputAndThePrintedConfigMatch) {
  const std::string stdout_json = temp_path("stdout.json");
  ASSERT_EQ(meshmp_test::run_command("( " + std::string(MESHMP_BINARY) + " run -t mesh:4x4 -o - 2>/dev/null > " + stdout_json + " )").status, 0);
  EXPECT_EQ(schema_violations("run.schema.json", stdout_json), "");
  const std::string config = temp_path("config.json");
  ASSERT_EQ(meshmp_test::run_command("( " + std::string(MESHMP_BINARY) + " run --print-config -t ring:8 --vcs 2 > " + config + " )").status, 0);
  EXPECT_EQ(schema_violations("config.schema.json", config), "");
}

TEST(JsonSchema, TrafficResultsAndSweepsMatch) {
  const std::string point = temp_path("point.json");
  ASSERT_EQ(meshmp("traffic -t mesh:4x4 --rate 0.1 --warmup-cycles 200 --measure-cycles 500 -o " + point).status, 0);
  EXPECT_EQ(schema_violations("traffic.schema.json", point), "");
  const std::string hotspot = temp_path("hotspot.json");
  ASSERT_EQ(meshmp("traffic -t torus:4x4 --pattern hotspot --rate 0.05 --warmup-cycles 200 --measure-cycles 500 -o " + hotspot)
                .status,
            0);
  EXPECT_EQ(schema_violations("traffic.schema.json", hotspot), "");
  const std::string sweep = temp_path("sweep.json");
  const Outcome o = meshmp("traffic -t mesh:8x8 --pipeline-depth 4 --rates 0.02,0.05 --warmup-cycles 300 --measure-cycles 600 "
                           "--compare-reference " MESHMP_SOURCE_DIR "/sims/reference/booksim2-mesh8x8-uniform.csv --csv " +
                           temp_path("sweep.csv") + " --png " + temp_path("sweep.png") + " -o " + sweep);
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(schema_violations("traffic-sweep.schema.json", sweep), "");
}

// A load that measured no packet has no latency or hops: null in the JSON (valid), an empty CSV cell, words
// in the summary; never a latency of 0.
TEST(JsonSchema, AnEmptyMeasurementHasNoLatency) {
  const std::string point = temp_path("empty.json");
  const Outcome o = meshmp("traffic -t mesh:4x4 --rate 0.0001 --warmup-cycles 10 --measure-cycles 1 -o " + point);
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("no packet was measured, so no latency or hops"), std::string::npos) << o.output;
  EXPECT_EQ(o.output.find("latency average 0"), std::string::npos) << o.output;
  EXPECT_EQ(schema_violations("traffic.schema.json", point), "");
  std::ifstream in(point);
  const nlohmann::json result = nlohmann::json::parse(in);
  EXPECT_EQ(result["measured_packets"], 0);
  EXPECT_TRUE(result["average_packet_latency_cycles"].is_null());
  for (const char* key : {"p50_packet_latency_cycles", "p90_packet_latency_cycles", "p99_packet_latency_cycles",
                          "p999_packet_latency_cycles", "max_packet_latency_cycles", "average_source_queueing_cycles",
                          "average_network_latency_cycles"})
    EXPECT_TRUE(result[key].is_null()) << key;
  EXPECT_EQ(result["packet_latency_histogram"], nlohmann::json::array());
  EXPECT_TRUE(result["average_hops"].is_null());
  EXPECT_TRUE(result["average_minimal_hops"].is_null());
  EXPECT_TRUE(result["average_packet_flits"].is_null());
  const std::string csv = temp_path("empty.csv");
  const Outcome sweep = meshmp("traffic -t mesh:4x4 --rates 0.0001,0.1 --warmup-cycles 10 --measure-cycles 20 --csv " + csv +
                               " --png " + temp_path("empty.png"));
  ASSERT_EQ(sweep.status, 0) << sweep.output;
  EXPECT_NE(sweep.output.find("[1/2] offered 0.000: accepted 0.0000, no packet measured"), std::string::npos) << sweep.output;
  std::ifstream rows(csv);
  std::string header, first;
  std::getline(rows, header);
  std::getline(rows, first);
  // The network's power is there (its clock and leakage); its energy per delivered bit is not: nothing was.
  const std::string figures = "0.0001,0,,,,1,,,,,,,0,0,";
  EXPECT_EQ(first.substr(0, figures.size()), figures);
  EXPECT_GT(std::stod(first.substr(figures.size())), 0.0) << first;
  EXPECT_EQ(first.back(), ',') << first;
}

TEST(JsonSchema, BenchmarkCasesMatch) {
  for (const char* name : {"kernel", "direct", "direct-tlm", "uniform-tlm"}) {
    const std::string json = temp_path(std::string("bench-") + name + ".json");
    ASSERT_EQ(meshmp_test::run_command("( " + std::string(MESHMP_BINARY) + " bench-case " + name + " > " + json + " )").status, 0) << name;
    EXPECT_EQ(schema_violations("bench.schema.json#/properties/cases/items", json), "") << name;
  }
}

// The schemas can fail: a statistic under its old name, a fraction above 1, a missing key.
TEST(JsonSchema, AFileThatDiffersFromItsSchemaIsReportedWithThePlace) {
  const std::string json = temp_path("good.json");
  ASSERT_EQ(meshmp("run -q -t torus:4x4 -m 8 -o " + json).status, 0);
  nlohmann::json doc = nlohmann::json::parse(std::ifstream(json));
  nlohmann::json renamed = doc;
  auto& network = renamed["statistics"]["network"];
  network["max_link_utilization"] = network["max_link_utilization_fraction"];
  network.erase("max_link_utilization_fraction");
  std::ofstream(temp_path("renamed.json")) << renamed.dump();
  const std::string violations = schema_violations("run.schema.json", temp_path("renamed.json"));
  EXPECT_NE(violations.find("statistics/network: 'max_link_utilization_fraction' is a required property"), std::string::npos)
      << violations;
  EXPECT_NE(violations.find("'max_link_utilization' was unexpected"), std::string::npos) << violations;

  nlohmann::json above_one = doc;
  above_one["statistics"]["network"]["links"][0]["utilization_fraction"] = 1.5;
  std::ofstream(temp_path("above.json")) << above_one.dump();
  EXPECT_NE(schema_violations("run.schema.json", temp_path("above.json")).find("statistics/network/links/0/utilization_fraction"),
            std::string::npos);
}

// The installed validator says so when a file matches, and finds meshmp's schemas by name from any directory
// (beside the installed script in share/meshmp/schema, or in the source tree's sims/schema).
TEST(JsonSchema, TheValidatorFindsASchemaByNameAndSaysAFileIsValid) {
  const std::string json = temp_path("valid.json");
  ASSERT_EQ(meshmp("run -q -t ring:4 -m 8 -o " + json).status, 0);
  const Outcome o = meshmp_test::run_command("cd / && /usr/bin/python3 " + std::string(MESHMP_SOURCE_DIR) +
                                             "/sims/validate_json.py run.schema.json " + json);
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find(json + ": valid (run.schema.json)"), std::string::npos) << o.output;
}

// A traffic result's config holds the network's keys and its traffic section, not a run's (algorithm,
// block_bytes, the node's and the fabric's settings), and `meshmp traffic --config` of it runs it again.
TEST(JsonSchema, ATrafficResultsConfigHoldsTheNetworksKeysOnly) {
  const std::string json = temp_path("traffic_config.json");
  ASSERT_EQ(meshmp("traffic -t mesh:4x4 --measure-cycles 1000 -o " + json).status, 0);
  const nlohmann::json config = nlohmann::json::parse(std::ifstream(json))["config"];
  for (const char* run_only : {"algorithm", "algorithm_options", "workload_options", "block_bytes", "fabric"})
    EXPECT_FALSE(config.contains(run_only)) << run_only << " in " << config.dump();
  EXPECT_FALSE(config["router"].contains("max_packet_payload_flits")) << "traffic.packet_flits sets it";
  EXPECT_EQ(config["topology"], "mesh:4x4");
  EXPECT_TRUE(config.contains("traffic"));
  std::ofstream(temp_path("traffic_config_only.json")) << config.dump();
  const Outcome again = meshmp("traffic --config " + temp_path("traffic_config_only.json"));
  EXPECT_EQ(again.status, 0) << again.output;
}

// The config schema describes exactly the settings of hw/machine/machine_settings.cpp, section by section.
TEST(JsonSchema, TheConfigSchemaHoldsEverySettingAndNoOther) {
  const nlohmann::json schema = nlohmann::json::parse(std::ifstream(MESHMP_SOURCE_DIR "/sims/schema/config.schema.json"));
  std::set<std::string> in_schema, in_table;
  for (const auto& [key, value] : schema["properties"].items()) {
    if (key == "traffic") continue;  // meshmp traffic's own section
    if (value.contains("properties") && value["type"] == "object")
      for (const auto& item : value["properties"].items()) in_schema.insert(key + "." + item.key());
    else
      in_schema.insert(key);
  }
  for (const meshmp::MachineSetting& setting : meshmp::machine_settings()) in_table.insert(setting.key);
  EXPECT_EQ(in_schema, in_table);

  // The traffic section: the keys `meshmp traffic --help` lists (from its table of settings).
  const std::string help = meshmp("traffic --help").output;
  const auto begin = help.find("a section traffic {"), end = help.find('}', begin);
  ASSERT_NE(begin, std::string::npos) << help;
  std::set<std::string> listed, described;
  std::string keys = help.substr(begin + 19, end - begin - 19);
  for (std::size_t at = 0; at < keys.size();) {
    const auto comma = keys.find(',', at);
    std::string key = keys.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    key.erase(0, key.find_first_not_of(" \n"));
    key.erase(key.find_last_not_of(" \n") + 1);
    listed.insert(key);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  for (const auto& item : schema["properties"]["traffic"]["properties"].items()) described.insert(item.key());
  EXPECT_EQ(listed, described);
}

}  // namespace
