// Per-link utilisation of `meshmp traffic` (sims/link_utilisation.h): the flits each link between two
// routers carried during the measurement window, exact for replayed packet traces, and its heat map
// (--link-heatmap).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

#include "meshmp_process.h"

namespace {

using meshmp_test::contains;
using meshmp_test::meshmp;
using meshmp_test::Outcome;
using meshmp_test::traffic_point;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "meshmp_link_utilisation_" + std::to_string(getpid()) + "_" + name;
}

// A trace file holding `lines`.
std::string trace_of(const std::string& name, const std::string& lines) {
  const std::string path = temp_path(name);
  std::ofstream(path) << lines;
  return path;
}

// The flits of each link (source, destination) of a result.
std::map<std::pair<int, int>, std::uint64_t> flits_by_link(const nlohmann::json& result) {
  std::map<std::pair<int, int>, std::uint64_t> flits;
  for (const nlohmann::json& link : result["link_utilisation"])
    flits[{link["source"].get<int>(), link["destination"].get<int>()}] = link["flits"].get<std::uint64_t>();
  return flits;
}

// Every link carried `flits` if it is one of `route`'s hops, else nothing.
void expect_only_route(const nlohmann::json& result, const std::vector<int>& route, std::uint64_t flits) {
  std::map<std::pair<int, int>, std::uint64_t> expected;
  for (std::size_t i = 0; i + 1 < route.size(); ++i) expected[{route[i], route[i + 1]}] = flits;
  const auto measured = flits_by_link(result);
  EXPECT_EQ(measured.size(), 48u) << "mesh:4x4 has 2 x 24 directed links";
  for (const auto& [link, count] : measured) {
    const auto it = expected.find(link);
    EXPECT_EQ(count, it == expected.end() ? 0 : it->second) << link.first << "->" << link.second;
  }
}

const std::string kMesh = "-t mesh:4x4 --routing dimension-order ";

TEST(LinkUtilisation, OnePacketLoadsExactlyTheLinksOfItsRoute) {
  const std::string along_x = trace_of("x.trace", "0 0 3 4\n");
  nlohmann::json r = traffic_point(kMesh + "--trace " + along_x + " --measure-cycles 200");
  expect_only_route(r, {0, 1, 2, 3}, 4);
  EXPECT_DOUBLE_EQ(r["max_link_utilisation"].get<double>(), 4.0 / 200);
  EXPECT_DOUBLE_EQ(r["average_link_utilisation"].get<double>(), 3 * 4.0 / 200 / 48);
  for (const nlohmann::json& link : r["link_utilisation"])
    EXPECT_DOUBLE_EQ(link["utilisation"].get<double>(), link["flits"].get<double>() / 200) << link.dump();
  // x first, then y.
  const std::string corner = trace_of("corner.trace", "0 0 15 4\n");
  r = traffic_point(kMesh + "--trace " + corner + " --measure-cycles 200");
  expect_only_route(r, {0, 1, 2, 3, 7, 11, 15}, 4);
  // The links' flits are the measured packets' hops times their flits.
  EXPECT_DOUBLE_EQ(r["average_hops"].get<double>(), 6.0);
  std::uint64_t sum = 0;
  for (const nlohmann::json& link : r["link_utilisation"]) sum += link["flits"].get<std::uint64_t>();
  EXPECT_EQ(sum, 6u * 4u);
  for (const std::string& file : {along_x, corner}) std::remove(file.c_str());
}

// What the links carried during the warm-up is not counted, nor what they carry after the window.
TEST(LinkUtilisation, OnlyTheMeasurementWindowCounts) {
  const std::string trace = trace_of("window.trace", "0 0 3 4\n100 0 15 4\n");
  const nlohmann::json r = traffic_point(kMesh + "--trace " + trace + " --warmup-cycles 100 --measure-cycles 200");
  ASSERT_EQ(r["measured_packets"], 1) << r.dump(1);
  expect_only_route(r, {0, 1, 2, 3, 7, 11, 15}, 4);
  // A window of 10 cycles ends while the packet is on its way (2-cycle routers, 1-cycle links): the first
  // link has carried it whole, the second part of it, the others nothing yet.
  const std::string corner = trace_of("short.trace", "0 0 15 4\n");
  const nlohmann::json cut = traffic_point(kMesh + "--trace " + corner + " --measure-cycles 10");
  for (const auto& [link, count] : flits_by_link(cut)) {
    if (link == std::make_pair(0, 1)) EXPECT_EQ(count, 4u);
    else if (link == std::make_pair(1, 2)) EXPECT_TRUE(count > 0 && count < 4) << count;
    else EXPECT_EQ(count, 0u) << link.first << "->" << link.second;
  }
  EXPECT_DOUBLE_EQ(cut["max_link_utilisation"].get<double>(), 4.0 / 10);
  for (const std::string& file : {trace, corner}) std::remove(file.c_str());
}

TEST(LinkUtilisation, TheSummaryNamesTheBusiestLinkAndTheResultMatchesItsSchema) {
  const std::string trace = trace_of("summary.trace", "0 0 3 4\n");
  const std::string json = temp_path("summary.json");
  const Outcome o = meshmp("traffic " + kMesh + "--trace " + trace + " --measure-cycles 200 -o " + json);
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "max link utilisation 0.0200 flits/cycle (0->1), average 0.0013")) << o.output;
  EXPECT_EQ(meshmp_test::schema_violations("traffic.schema.json", json), "");
  for (const std::string& file : {trace, json}) std::remove(file.c_str());
}

// Several seeds: each link's mean over them, and the means of their largest and average utilisation.
TEST(LinkUtilisation, SeedsGiveEachLinksMean) {
  const std::string network = "-t mesh:4x4 --rate 0.2 --warmup-cycles 200 --measure-cycles 500 --seed 3";
  const nlohmann::json r = traffic_point(network + " --seeds 2");
  ASSERT_EQ(r["seed_results"].size(), 2u);
  const nlohmann::json &a = r["seed_results"][0], &b = r["seed_results"][1];
  ASSERT_EQ(r["link_utilisation"].size(), 48u);
  for (std::size_t i = 0; i < 48; ++i) {
    EXPECT_EQ(r["link_utilisation"][i]["source"], a["link_utilisation"][i]["source"]);
    EXPECT_DOUBLE_EQ(r["link_utilisation"][i]["utilisation"].get<double>(),
                     (a["link_utilisation"][i]["utilisation"].get<double>() +
                      b["link_utilisation"][i]["utilisation"].get<double>()) / 2);
  }
  EXPECT_DOUBLE_EQ(r["max_link_utilisation"].get<double>(),
                   (a["max_link_utilisation"].get<double>() + b["max_link_utilisation"].get<double>()) / 2);
  EXPECT_GT(a["max_link_utilisation"].get<double>(), a["average_link_utilisation"].get<double>());
  const std::string file = temp_path("seeds.json");
  std::ofstream(file) << r.dump(1);
  EXPECT_EQ(meshmp_test::schema_violations("traffic.schema.json", file), "");
  std::remove(file.c_str());
}

bool have_matplotlib() { return meshmp_test::run_command("/usr/bin/python3 -c 'import matplotlib'").status == 0; }

// A file that starts as a PNG does.
bool is_png(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  in.read(head, 8);
  return in && std::string(head + 1, 3) == "PNG" && std::filesystem::file_size(path) > 1000;
}

// A 2-D mesh drawn as itself, a hypercube as a matrix: a PNG either way, and "plot: FILE" beside the summary.
TEST(LinkUtilisation, TheHeatMapIsDrawnForAMeshAndAHypercube) {
  if (!have_matplotlib()) GTEST_SKIP() << "python3-matplotlib is not installed (scripts/setup.sh installs it)";
  for (const std::string topology : {"mesh:4x4", "hypercube:4"}) {
    const std::string png = temp_path(topology.substr(0, topology.find(':')) + ".png");
    std::remove(png.c_str());
    const Outcome o = meshmp("traffic -t " + topology + " --rate 0.2 --warmup-cycles 200 --measure-cycles 500 --link-heatmap " + png);
    ASSERT_EQ(o.status, 0) << o.output;
    EXPECT_TRUE(contains(o.output, "plot: " + png)) << o.output;
    EXPECT_TRUE(is_png(png)) << topology;
    std::remove(png.c_str());
  }
  // With --json-line the JSON stays one line of standard output, "plot: FILE" going to standard error.
  const std::string png = temp_path("line.png"), line = temp_path("line.json");
  const Outcome o = meshmp_test::run_command(std::string("(") + MESHMP_BINARY +
                                            " traffic -t torus:4x4 --rate 0.2 --warmup-cycles 200 --measure-cycles 500 "
                                            "--json-line --link-heatmap " + png + " > " + line + ")");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "plot: " + png)) << o.output;
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(line))["link_utilisation"].size(), 64u);
  std::remove(line.c_str());
  EXPECT_TRUE(is_png(png));
  std::remove(png.c_str());
}

TEST(LinkUtilisation, TheHeatMapIsRefusedBesideASweep) {
  const std::string png = temp_path("sweep.png");
  const Outcome o = meshmp("traffic -t mesh:4x4 --rates 0.1,0.2 --link-heatmap " + png);
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_TRUE(contains(o.output, "--link-heatmap = '" + png + "': draws the links of one load: give --rate, not --rates"))
      << o.output;
  EXPECT_FALSE(std::filesystem::exists(png));
  const Outcome no_format = meshmp("traffic -t mesh:4x4 --link-heatmap " + temp_path("links"));
  EXPECT_EQ(no_format.status, 2) << no_format.output;
  EXPECT_TRUE(contains(no_format.output, "--link-heatmap")) << no_format.output;
}

}  // namespace
