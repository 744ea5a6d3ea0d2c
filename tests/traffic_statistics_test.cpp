// `meshmp traffic`'s figures beyond the average latency (the binary in a child process, its JSON read from
// -o -): the latency distribution of the measured packets (percentiles p50 <= p90 <= p99 <= p99.9 <= max,
// and a histogram whose bins hold every measured packet and agree with the percentiles), at a light and at
// a heavy load; the latency split into source queueing and network latency, which add up to the average:
// in a nearly idle network no packet queues and the network latency is the zero-load formula
// H (d + L) + d + 3 + P (docs/architecture.md), at either fidelity, while beyond saturation the queues
// grow and hold most of the latency; per source, the offered and accepted load, which add up to the
// packets created and to the accepted load, and which show transpose traffic beyond saturation serving
// its sources unfairly; and a sweep's CSV, whose columns hold each point's figures under their JSON names.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "meshmp_process.h"

namespace {

using meshmp_test::meshmp;
using meshmp_test::Outcome;

nlohmann::json traffic(const std::string& args) {
  const Outcome o = meshmp("traffic " + args + " -o -");
  EXPECT_EQ(o.status, 0) << o.output;
  return meshmp_test::json_in_output(o.output);
}

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "meshmp_traffic_statistics_" + std::to_string(getpid()) + "_" + name;
}

// Packets of the histogram with a latency below `latency` (whole bins below its bin) and up to its bin's
// end: the nearest-rank percentile L of n packets has fewer than ceil(q n) packets below it and at least
// ceil(q n) at or below it.
void expect_percentile_in_histogram(const nlohmann::json& result, const char* key, double q) {
  const auto latency = result[key].get<double>();
  const auto n = result["measured_packets"].get<std::uint64_t>();
  const auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(n) - 1e-6));
  std::uint64_t below = 0, through = 0;
  for (const auto& bin : result["packet_latency_histogram"]) {
    const auto from = bin["from_cycles"].get<double>(), to = bin["to_cycles"].get<double>();
    if (to <= latency) below += bin["packets"].get<std::uint64_t>();
    if (from <= latency) through += bin["packets"].get<std::uint64_t>();
  }
  EXPECT_LT(below, rank) << key << " " << latency;
  EXPECT_GE(through, rank) << key << " " << latency;
}

TEST(TrafficStatistics, LatencyPercentilesAreOrderedAndTheHistogramHoldsEveryPacket) {
  for (const char* load : {"--rate 0.05", "--rate 0.6"}) {
    SCOPED_TRACE(load);
    const nlohmann::json r = traffic(std::string("-t mesh:4x4 --warmup-cycles 2000 --measure-cycles 10000 ") + load);
    const auto n = r["measured_packets"].get<std::uint64_t>();
    ASSERT_GT(n, 1000u);
    const double p50 = r["p50_packet_latency_cycles"], p90 = r["p90_packet_latency_cycles"],
                 p99 = r["p99_packet_latency_cycles"], p999 = r["p999_packet_latency_cycles"],
                 max = r["max_packet_latency_cycles"], average = r["average_packet_latency_cycles"];
    EXPECT_LE(p50, p90);
    EXPECT_LE(p90, p99);
    EXPECT_LE(p99, p999);
    EXPECT_LE(p999, max);
    EXPECT_LT(average, max);
    const nlohmann::json& bins = r["packet_latency_histogram"];
    ASSERT_FALSE(bins.empty());
    EXPECT_LE(bins.size(), 32u);
    std::uint64_t packets = 0;
    for (std::size_t i = 0; i < bins.size(); ++i) {
      packets += bins[i]["packets"].get<std::uint64_t>();
      if (i > 0) {
        EXPECT_EQ(bins[i]["from_cycles"], bins[i - 1]["to_cycles"]) << "contiguous bins";
      }
    }
    EXPECT_EQ(packets, n) << "the bins hold every measured packet";
    EXPECT_GT(bins.front()["packets"].get<std::uint64_t>(), 0u);
    EXPECT_GT(bins.back()["packets"].get<std::uint64_t>(), 0u);
    EXPECT_LE(bins.back()["from_cycles"].get<double>(), max);
    EXPECT_GT(bins.back()["to_cycles"].get<double>(), max);
    expect_percentile_in_histogram(r, "p50_packet_latency_cycles", 0.5);
    expect_percentile_in_histogram(r, "p90_packet_latency_cycles", 0.9);
    expect_percentile_in_histogram(r, "p99_packet_latency_cycles", 0.99);
    expect_percentile_in_histogram(r, "p999_packet_latency_cycles", 0.999);
  }
}

// 0.01 flits/node/cycle on mesh:4x4: packets nearly never meet, so they wait in no source queue and cross
// the network in its idle time, the average of H (d + L) + d + 3 + P over their hops (P = 3 payload flits),
// on two router timings and at both fidelities.
TEST(TrafficStatistics, AtALightLoadPacketsDoNotQueueAndCrossTheNetworkInItsIdleTime) {
  struct Timing {
    int pipeline_depth, link_latency;
  };
  for (const char* fidelity : {"cycle", "tlm"})
    for (const Timing timing : {Timing{2, 1}, Timing{4, 2}}) {
      SCOPED_TRACE(std::string(fidelity) + ", d = " + std::to_string(timing.pipeline_depth) +
                   ", L = " + std::to_string(timing.link_latency));
      const nlohmann::json r = traffic("-t mesh:4x4 --rate 0.01 --measure-cycles 20000 --fidelity " +
                                       std::string(fidelity) + " --pipeline-depth " +
                                       std::to_string(timing.pipeline_depth) + " --link-latency " +
                                       std::to_string(timing.link_latency));
      ASSERT_GT(r["measured_packets"].get<std::uint64_t>(), 500u);
      const double hops = r["average_hops"], queueing = r["average_source_queueing_cycles"],
                   network = r["average_network_latency_cycles"];
      EXPECT_LT(queueing, 0.1);
      EXPECT_GE(queueing, 0.0);
      const double idle = hops * (timing.pipeline_depth + timing.link_latency) + timing.pipeline_depth + 3 + 3;
      EXPECT_NEAR(network, idle, 0.1) << "the few packets that meet add a little";
      EXPECT_GE(network, idle - 1e-9);
    }
}

// Both parts add up to the average latency at every load. The queues grow with the load; beyond
// saturation (mesh:4x4 accepts about 0.74 flits/node/cycle) they hold most of the latency, while the
// network's part stays bounded by its buffers.
TEST(TrafficStatistics, QueueingAndNetworkLatencyAddUpToTheAverage) {
  double queueing_before = -1;
  for (const char* rate : {"0.05", "0.6", "0.8"}) {
    SCOPED_TRACE(rate);
    const nlohmann::json r =
        traffic(std::string("-t mesh:4x4 --warmup-cycles 2000 --measure-cycles 5000 --rate ") + rate);
    const double average = r["average_packet_latency_cycles"], queueing = r["average_source_queueing_cycles"],
                 network = r["average_network_latency_cycles"];
    EXPECT_NEAR(queueing + network, average, 1e-9 * average);
    EXPECT_GT(queueing, queueing_before);
    queueing_before = queueing;
    if (std::string(rate) == "0.8") {
      EXPECT_GT(queueing, 3 * network) << "beyond saturation the source queues hold most of the latency";
      EXPECT_LT(network, 200);
    }
  }
}

// Per source: the offered flits per cycle add up to the measured packets' flits (all delivered below
// saturation), the accepted ones to the network's accepted load, and below saturation every source gets
// what it offers, but for the packets in flight at the window's edges; the summary numbers are the
// smallest and largest source. At both fidelities.
TEST(TrafficStatistics, PerSourceLoadsAddUpToTheMeasuredPacketsAndTheAcceptedLoad) {
  for (const char* fidelity : {"cycle", "tlm"})
    for (const char* rate : {"0.2", "0.6"}) {
      SCOPED_TRACE(std::string(fidelity) + " at " + rate);
      const nlohmann::json r = traffic(std::string("-t mesh:4x4 --warmup-cycles 2000 --measure-cycles 10000 --fidelity ") +
                                       fidelity + " --rate " + rate);
      ASSERT_TRUE(r["all_measured_packets_delivered"].get<bool>());
      const auto offered = r["source_offered_flits_per_cycle"].get<std::vector<double>>();
      const auto accepted = r["source_accepted_flits_per_cycle"].get<std::vector<double>>();
      ASSERT_EQ(offered.size(), 16u);
      ASSERT_EQ(accepted.size(), 16u);
      double offered_sum = 0, accepted_sum = 0;
      for (std::size_t node = 0; node < 16; ++node) {
        offered_sum += offered[node];
        accepted_sum += accepted[node];
        EXPECT_NEAR(accepted[node], offered[node], 0.01) << "node " << node;
      }
      EXPECT_NEAR(offered_sum * 10000, r["measured_packets"].get<double>() * 4, 1e-6) << "4-flit packets";
      const double accepted_load = r["accepted_flits_per_node_per_cycle"];
      EXPECT_NEAR(accepted_sum, 16 * accepted_load, 1e-9);
      EXPECT_NEAR(accepted_load, std::stod(rate), 0.02);
      EXPECT_EQ(r["min_source_accepted_flits_per_cycle"].get<double>(), *std::min_element(accepted.begin(), accepted.end()));
      EXPECT_EQ(r["max_source_accepted_flits_per_cycle"].get<double>(), *std::max_element(accepted.begin(), accepted.end()));
    }
}

// Transpose on mesh:4x4 at 0.9 flits/node/cycle, beyond its saturation: the diagonal nodes send to
// themselves over no link and get all they offer, while dimension-order routes share the links of the
// others, which get a half or a quarter of a link's flits.
TEST(TrafficStatistics, BeyondSaturationTransposeServesItsSourcesUnfairly) {
  const nlohmann::json r =
      traffic("-t mesh:4x4 --pattern transpose --rate 0.9 --warmup-cycles 2000 --measure-cycles 5000");
  const auto offered = r["source_offered_flits_per_cycle"].get<std::vector<double>>();
  const auto accepted = r["source_accepted_flits_per_cycle"].get<std::vector<double>>();
  ASSERT_EQ(accepted.size(), 16u);
  for (const std::size_t diagonal : {0u, 5u, 10u, 15u})
    EXPECT_NEAR(accepted[diagonal], offered[diagonal], 0.03) << "node " << diagonal;
  EXPECT_LT(r["min_source_accepted_flits_per_cycle"].get<double>(), 0.3);
  EXPECT_GT(r["max_source_accepted_flits_per_cycle"].get<double>(), 0.85);
  EXPECT_LT(r["accepted_flits_per_node_per_cycle"].get<double>(), 0.7);
}

// A sweep's CSV: a header of JSON names, then per load the point's figures under them (the load is the
// point's offered load; an all-delivered flag reads 1 or 0).
TEST(TrafficStatistics, ASweepsCsvHoldsEachPointsFiguresUnderTheirJsonNames) {
  const std::string csv = temp_path("sweep.csv"), json = temp_path("sweep.json");
  const Outcome o = meshmp("traffic -t mesh:4x4 --rates 0.05,0.3 --warmup-cycles 500 --measure-cycles 2000 --csv " + csv +
                           " --png " + temp_path("sweep.png") + " -o " + json);
  ASSERT_EQ(o.status, 0) << o.output;
  const nlohmann::json points = nlohmann::json::parse(std::ifstream(json))["points"];
  std::ifstream rows(csv);
  std::string line;
  std::getline(rows, line);
  std::vector<std::string> columns;
  for (std::stringstream header(line); std::getline(header, line, ',');) columns.push_back(line);
  for (const char* key : {"p50_packet_latency_cycles", "p90_packet_latency_cycles", "p99_packet_latency_cycles",
                          "p999_packet_latency_cycles", "max_packet_latency_cycles", "average_source_queueing_cycles",
                          "average_network_latency_cycles", "min_source_accepted_flits_per_cycle",
                          "max_source_accepted_flits_per_cycle"})
    EXPECT_NE(std::find(columns.begin(), columns.end(), key), columns.end()) << key;
  ASSERT_EQ(columns.size() > 0 ? columns[0] : "", "load_flits_per_node_per_cycle");
  for (const nlohmann::json& point : points) {
    ASSERT_TRUE(std::getline(rows, line));
    std::vector<std::string> cells;
    for (std::stringstream row(line); std::getline(row, line, ',');) cells.push_back(line);
    ASSERT_EQ(cells.size(), columns.size());
    EXPECT_DOUBLE_EQ(std::stod(cells[0]), point["offered_flits_per_node_per_cycle"].get<double>());
    for (std::size_t c = 1; c < columns.size(); ++c) {
      // A nested figure's column is its path, dot-separated ("power.watts.total").
      std::string pointer = "/" + columns[c];
      std::replace(pointer.begin(), pointer.end(), '.', '/');
      const nlohmann::json& value = point.at(nlohmann::json::json_pointer(pointer));
      if (value.is_null()) {
        EXPECT_EQ(cells[c], "") << columns[c];
        continue;
      }
      const double expected = value.is_boolean() ? (value.get<bool>() ? 1 : 0) : value.get<double>();
      EXPECT_NEAR(std::stod(cells[c]), expected, 1e-5 * std::max(1.0, expected)) << columns[c];  // 6 digits
    }
  }
  EXPECT_FALSE(std::getline(rows, line)) << "one row per point";
}

}  // namespace
