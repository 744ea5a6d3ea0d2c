// `meshmp traffic --rates ... --routings A,B` (the binary in a child process): each routing function is a
// curve of its own, every point of which is the point a sweep under `--routing A` alone gives; the CSV
// names each row's curve, the JSON holds a sweep per function (traffic-routings.schema.json), the plot
// draws them together; and what cannot be a set of curves is refused naming --routings and the rule.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "meshmp_process.h"

namespace {

using meshmp_test::meshmp;
using meshmp_test::Outcome;

const std::string kSweep =
    "traffic -t mesh:4x4 --pattern transpose --rates 0.1,0.5 --warmup-cycles 300 --measure-cycles 1000";

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "meshmp_traffic_routings_" + std::to_string(getpid()) + "_" + name;
}

// A sweep's points without the host's time, which differs from run to run.
nlohmann::json points_without_host_time(nlohmann::json points) {
  for (nlohmann::json& point : points) point.erase("host_seconds");
  return points;
}

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(TrafficRoutings, EachCurveIsTheSweepOfItsRoutingFunctionAlone) {
  const std::string json = temp_path("curves.json"), csv = temp_path("curves.csv"), png = temp_path("curves.png");
  const Outcome o = meshmp(kSweep + " --routings dimension-order,odd-even -o " + json + " --csv " + csv + " --png " + png);
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(meshmp_test::schema_violations("traffic-routings.schema.json", json), "");
  const nlohmann::json curves = nlohmann::json::parse(std::ifstream(json))["curves"];
  ASSERT_EQ(curves.size(), 2u);
  const std::vector<std::string> routings{"dimension-order", "odd-even"};
  for (std::size_t k = 0; k < routings.size(); ++k) {
    EXPECT_EQ(curves[k]["config"]["router"]["routing"], routings[k]);
    const std::string alone = temp_path("alone.json");
    const Outcome single = meshmp(kSweep + " --routing " + routings[k] + " -o " + alone + " --csv " +
                                  temp_path("alone.csv") + " --png " + temp_path("alone.png"));
    ASSERT_EQ(single.status, 0) << single.output;
    const nlohmann::json sweep = nlohmann::json::parse(std::ifstream(alone));
    EXPECT_EQ(points_without_host_time(curves[k]["points"]), points_without_host_time(sweep["points"])) << routings[k];
    EXPECT_EQ(curves[k]["saturation_flits_per_node_per_cycle"], sweep["saturation_flits_per_node_per_cycle"]);
  }
  // Transpose at 0.5 on the 4x4 mesh: odd-even spreads what dimension order piles on one path.
  EXPECT_LT(curves[1]["points"][1]["average_packet_latency_cycles"].get<double>(),
            curves[0]["points"][1]["average_packet_latency_cycles"].get<double>());
  // The CSV: the sweep's columns, then the row's routing function.
  const std::vector<std::string> rows = lines_of(csv);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].substr(rows[0].rfind(',')), ",routing");
  for (std::size_t r = 1; r < rows.size(); ++r)
    EXPECT_EQ(rows[r].substr(rows[r].rfind(',') + 1), routings[(r - 1) / 2]) << rows[r];
  EXPECT_GT(std::ifstream(png, std::ios::ate).tellg(), 1000) << "the plot of both curves";
  for (const std::string& path : {json, csv, png}) std::remove(path.c_str());
}

TEST(TrafficRoutings, ACurveSetThatCannotBeIsRefusedNamingTheRule) {
  struct Case {
    std::string arguments, rule;
  };
  const std::vector<Case> cases{
      {kSweep + " --routings dimension-order,zigzag", "'zigzag' is not a routing function"},
      {kSweep + " --routings odd-even,odd-even", "names 'odd-even' twice"},
      {kSweep + " --routings odd-even,", "ends with a comma"},
      {kSweep + " --routings odd-even --routing west-first", "give it or --routing, not both"},
      {kSweep + " --routings odd-even --compare-reference booksim2-mesh8x8-uniform.csv",
       "--compare-reference compares one"},
      {"traffic -t mesh:4x4 --rate 0.1 --routings odd-even", "give --rates"},
      {"traffic -t torus:4x4 --rates 0.1,0.2 --routings min-adaptive,west-first", "the curve of west-first"},
  };
  for (const Case& c : cases) {
    const Outcome o = meshmp(c.arguments);
    EXPECT_EQ(o.status, 2) << c.arguments << "\n" << o.output;
    EXPECT_NE(o.output.find("--routings"), std::string::npos) << o.output;
    EXPECT_NE(o.output.find(c.rule), std::string::npos) << c.arguments << "\n" << o.output;
  }
}

}  // namespace
