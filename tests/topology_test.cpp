// Topology arithmetic (002 §2, §3.1): neighbours, distances, diameter, status by Theorem 1 and average
// status by Corollary 2, each checked against a breadth-first search of the graph itself.
#include <gtest/gtest.h>

#include <queue>

#include "topology/config_error.h"
#include "hw/router/routing.h"
#include "topology/topology.h"

namespace meshmp {
namespace {

std::vector<int> bfs_distances(const Topology& t, int from) {
  std::vector<int> dist(t.num_nodes(), -1);
  std::queue<int> q;
  dist[from] = 0;
  q.push(from);
  while (!q.empty()) {
    int u = q.front();
    q.pop();
    for (int p = 0; p < t.num_ports(); ++p) {
      int v = t.neighbor(u, p);
      if (v >= 0 && dist[v] < 0) {
        dist[v] = dist[u] + 1;
        q.push(v);
      }
    }
  }
  return dist;
}

class TopologyArithmetic : public ::testing::TestWithParam<const char*> {};

TEST_P(TopologyArithmetic, MatchesTheGraph) {
  const Topology t = Topology::parse(GetParam());
  int diameter = 0;
  double status_sum = 0;
  for (int a = 0; a < t.num_nodes(); ++a) {
    EXPECT_EQ(t.node_at(t.coordinates(a)), a);
    for (int p = 0; p < t.num_ports(); ++p) {
      int b = t.neighbor(a, p);
      if (b < 0) continue;
      EXPECT_EQ(t.neighbor(b, t.reverse_port(p)), a) << "link " << a << " port " << p << " has no way back";
      EXPECT_EQ(t.distance(a, b), 1);
    }
    const auto dist = bfs_distances(t, a);
    std::int64_t status = 0;
    for (int b = 0; b < t.num_nodes(); ++b) {
      ASSERT_EQ(t.distance(a, b), dist[b]) << a << "->" << b;
      diameter = std::max(diameter, dist[b]);
      status += dist[b];
      // Dimension-order routing reaches b in exactly the distance.
      EXPECT_EQ(static_cast<int>(route_ports(t, &dimension_order_port, a, b).size()), dist[b]);
    }
    EXPECT_EQ(t.status(a), status) << "Theorem 1 at node " << a;
    status_sum += static_cast<double>(status);
  }
  EXPECT_EQ(t.diameter(), diameter);
  EXPECT_DOUBLE_EQ(t.average_status(), status_sum / t.num_nodes()) << "Corollary 2";
}

INSTANTIATE_TEST_SUITE_P(Shapes, TopologyArithmetic,
                         ::testing::Values("mesh:3x5", "mesh:4x4", "mesh:2x3x4", "torus:4x4", "torus:5x3",
                                           "torus:3x3x3", "ring:7", "ring:2", "hypercube:1", "hypercube:4",
                                           "hypercube:6", "ghc:3x4", "ghc:5", "product:path3xring5xcomplete3"));

TEST(Topology, PortsOfEachKind) {
  EXPECT_EQ(Topology::parse("mesh:8x8").num_ports(), 4);
  EXPECT_EQ(Topology::parse("hypercube:6").num_ports(), 6);
  EXPECT_EQ(Topology::parse("ghc:3x4").num_ports(), 2 + 3);
  const Topology mesh = Topology::parse("mesh:3x5");
  EXPECT_EQ(mesh.num_nodes(), 15);
  EXPECT_EQ(mesh.neighbor(0, mesh.port_of(0, -1)), -1);  // off the edge
  const Topology torus = Topology::parse("torus:4x4");
  EXPECT_EQ(torus.neighbor(3, torus.port_of(0, +1)), 0);
  EXPECT_TRUE(torus.crosses_dateline(3, torus.port_of(0, +1)));
  EXPECT_FALSE(torus.crosses_dateline(2, torus.port_of(0, +1)));
  EXPECT_TRUE(torus.crosses_dateline(0, torus.port_of(0, -1)));
}

TEST(Topology, KnownStatusValues) {
  // Ring of 8: distances 1,1,2,2,3,3,4 sum to 16. 8x8 torus by Theorem 1:
  // s = n * sum_i s_i / |V_i| = 64 * (16/8 + 16/8) = 256.
  EXPECT_EQ(Topology::parse("ring:8").status(0), 16);
  EXPECT_EQ(Topology::parse("torus:8x8").status(5), 256);
  // Hypercube of dimension n: status n * 2^(n-1).
  EXPECT_EQ(Topology::parse("hypercube:6").status(17), 6 * 32);
}

TEST(Topology, BadSpecificationsNameTheRule) {
  auto message = [](const char* spec) {
    try {
      Topology::parse(spec);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("hypercube:17").find("hypercube dimension must be 1..16"), std::string::npos);
  EXPECT_NE(message("hypercube:0").find("1..16"), std::string::npos);
  EXPECT_NE(message("mesh:1x4").find("at least 2 nodes"), std::string::npos);
  EXPECT_NE(message("mesh:4x").find("not a dimension size"), std::string::npos);
  EXPECT_NE(message("star:5").find("unknown topology kind 'star'"), std::string::npos);
  EXPECT_NE(message("torus8x8").find("expected mesh"), std::string::npos);
  EXPECT_NE(message("mesh:300x300").find("at most 65536 nodes"), std::string::npos);
  EXPECT_NE(message("product:path3xstar4").find("unknown dimension kind 'star'"), std::string::npos);
  EXPECT_EQ(message("mesh:4x").rfind("topology = 'mesh:4x'", 0), 0u);
}

}  // namespace
}  // namespace meshmp
