// `meshmp traffic --seeds N` (the binary in a child process): each load runs with N seeds, --seed to
// --seed + N - 1, each a run of its own whose result equals a run of that seed alone; the result gives the
// mean over them and the 95 % interval t_{0.975, N-1} s / sqrt(N) of the average latency and the accepted
// load (worked out here from the seeds' own figures); a sweep's CSV carries the intervals; and --seeds 1
// leaves the output as it was.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "meshmp_process.h"

namespace {

using meshmp_test::meshmp;
using meshmp_test::Outcome;

const std::string kNetwork = "traffic -t mesh:4x4 --rate 0.3 --warmup-cycles 300 --measure-cycles 1000";

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "meshmp_traffic_seeds_" + std::to_string(getpid()) + "_" + name;
}

nlohmann::json result_of(const std::string& args) {
  const Outcome o = meshmp(args + " -o -");
  EXPECT_EQ(o.status, 0) << o.output;
  return meshmp_test::json_in_output(o.output);
}

// The 95% half width of `values` from t_{0.975, n-1} (n = 3: 4.30265).
double half_width_of_three(const std::vector<double>& values) {
  const double mean = (values[0] + values[1] + values[2]) / 3;
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);
  return 4.30265 * std::sqrt(squares / 2) / std::sqrt(3.0);
}

TEST(TrafficSeeds, EachSeedRunsAloneAndTheIntervalComesFromTheirSpread) {
  const nlohmann::json r = result_of(kNetwork + " --seed 7 --seeds 3");
  ASSERT_EQ(r["seed_results"].size(), 3u) << r.dump(1);
  EXPECT_EQ(r["config"]["traffic"]["seeds"], 3);
  std::set<std::uint64_t> seeds;
  std::vector<double> latencies, accepted;
  for (const nlohmann::json& seed : r["seed_results"]) {
    seeds.insert(seed["config"]["traffic"]["seed"].get<std::uint64_t>());
    latencies.push_back(seed["average_packet_latency_cycles"].get<double>());
    accepted.push_back(seed["accepted_flits_per_node_per_cycle"].get<double>());
  }
  EXPECT_EQ(seeds, (std::set<std::uint64_t>{7, 8, 9}));
  EXPECT_EQ(std::set<double>(latencies.begin(), latencies.end()).size(), 3u) << "three seeds, three runs";
  // The second seed's run is the run of seed 8 alone.
  const nlohmann::json alone = result_of(kNetwork + " --seed 8");
  EXPECT_EQ(alone["average_packet_latency_cycles"], r["seed_results"][1]["average_packet_latency_cycles"]);
  EXPECT_EQ(alone["measured_packets"], r["seed_results"][1]["measured_packets"]);
  EXPECT_NEAR(r["average_packet_latency_cycles"].get<double>(), (latencies[0] + latencies[1] + latencies[2]) / 3, 1e-9);
  EXPECT_NEAR(r["accepted_flits_per_node_per_cycle"].get<double>(), (accepted[0] + accepted[1] + accepted[2]) / 3, 1e-12);
  EXPECT_NEAR(r["average_packet_latency_cycles_ci95"].get<double>(), half_width_of_three(latencies), 1e-4);
  EXPECT_NEAR(r["accepted_flits_per_node_per_cycle_ci95"].get<double>(), half_width_of_three(accepted), 1e-7);
  EXPECT_GT(r["average_packet_latency_cycles_ci95"].get<double>(), 0.0);
  EXPECT_EQ(r["measured_packets"].get<std::uint64_t>(),
            r["seed_results"][0]["measured_packets"].get<std::uint64_t>() +
                r["seed_results"][1]["measured_packets"].get<std::uint64_t>() +
                r["seed_results"][2]["measured_packets"].get<std::uint64_t>());
  const std::string file = temp_path("point.json");
  std::ofstream(file) << r.dump(1);
  EXPECT_EQ(meshmp_test::schema_violations("traffic.schema.json", file), "");
  std::remove(file.c_str());
}

TEST(TrafficSeeds, OneSeedKeepsTheResultAsItWas) {
  nlohmann::json given = result_of(kNetwork + " --seeds 1"), plain = result_of(kNetwork);
  given.erase("host_seconds");
  plain.erase("host_seconds");
  EXPECT_EQ(given, plain);
  EXPECT_FALSE(plain["config"]["traffic"].contains("seeds"));
  EXPECT_FALSE(plain.contains("average_packet_latency_cycles_ci95"));
}

TEST(TrafficSeeds, ASweepsCsvCarriesTheIntervals) {
  const std::string csv = temp_path("sweep.csv"), json = temp_path("sweep.json"), png = temp_path("sweep.png");
  const Outcome o = meshmp("traffic -t mesh:4x4 --rates 0.1,0.3 --warmup-cycles 300 --measure-cycles 1000 --seeds 2 --csv " +
                           csv + " --png " + png + " -o " + json);
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(meshmp_test::schema_violations("traffic-sweep.schema.json", json), "");
  const nlohmann::json points = nlohmann::json::parse(std::ifstream(json))["points"];
  ASSERT_EQ(points.size(), 2u);
  std::ifstream rows(csv);
  std::string line;
  std::getline(rows, line);
  std::vector<std::string> columns;
  for (std::stringstream header(line); std::getline(header, line, ',');) columns.push_back(line);
  const auto latency_interval = std::find(columns.begin(), columns.end(), "average_packet_latency_cycles_ci95");
  ASSERT_NE(latency_interval, columns.end()) << "the intervals' columns";
  ASSERT_NE(latency_interval + 1, columns.end());
  EXPECT_EQ(*(latency_interval + 1), "accepted_flits_per_node_per_cycle_ci95");
  const std::size_t latency_column = static_cast<std::size_t>(latency_interval - columns.begin());
  for (const nlohmann::json& point : points) {
    ASSERT_EQ(point["seed_results"].size(), 2u);
    // Two seeds: t_1 = 12.7062 and s / sqrt 2 = |a - b| / 2.
    const double a = point["seed_results"][0]["average_packet_latency_cycles"].get<double>(),
                 b = point["seed_results"][1]["average_packet_latency_cycles"].get<double>();
    EXPECT_NEAR(point["average_packet_latency_cycles_ci95"].get<double>(), 12.7062 * std::abs(a - b) / 2, 1e-3);
    ASSERT_TRUE(std::getline(rows, line));
    std::vector<std::string> cells;
    for (std::stringstream row(line); std::getline(row, line, ',');) cells.push_back(line);
    ASSERT_EQ(cells.size(), columns.size());
    const double half_width = point["average_packet_latency_cycles_ci95"].get<double>();
    EXPECT_NEAR(std::stod(cells[latency_column]), half_width, 1e-5 * std::max(1.0, half_width));
  }
  EXPECT_TRUE(std::ifstream(png).good()) << o.output;
  for (const std::string& file : {csv, json, png}) std::remove(file.c_str());
}

TEST(TrafficSeeds, RefusesSeedsBeyondTheirRule) {
  for (const auto& [args, rule] : std::vector<std::pair<std::string, std::string>>{
           {"--seeds 0", "traffic.seeds = '0': must be 1..1000"},
           {"--seeds 1001", "traffic.seeds = '1001': must be 1..1000"},
           {"--seeds 3 --seed 9223372036854775806", "traffic.seeds = '3': the seeds run from traffic.seed"}}) {
    const Outcome o = meshmp(kNetwork + " " + args);
    EXPECT_EQ(o.status, 2) << args << "\n" << o.output;
    EXPECT_NE(o.output.find(rule), std::string::npos) << args << "\n" << o.output;
  }
}

}  // namespace
