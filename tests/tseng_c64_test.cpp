// tseng-c64 (001 §4): its nine preparation phases run on the machine on cubes small enough for CI (the
// whole algorithm needs 32 x 32 x 32 nodes: `meshmp paper 001-table4`, docs/paper-000-001-exchange-on-tori.md), checked block by block
// against §4's claim (node w ends with the 64 blocks (w - o, d) for every d of its logical torus,
// 0 <= o_x, o_y, o_z <= 3) and against the counts of Theorem 3's proof (48, 32, 16 n^3/64 blocks per
// phase, three times); and the refusals of the tori it cannot schedule.
#include <gtest/gtest.h>

#include <algorithm>

#include "firmware/api/algorithm_registry.h"
#include "firmware/paper001/c64_preparation.h"
#include "hw/machine/machine.h"
#include "hw/machine/run_statistics.h"
#include "meshmp_process.h"
#include "test_names.h"

namespace meshmp {
namespace {

using meshmp_test::meshmp;
using meshmp_test::Outcome;

class C64Preparation : public ::testing::TestWithParam<std::tuple<int, int, bool>> {};

TEST_P(C64Preparation, EveryNodeHoldsTheBlocksOfItsSixtyFourSourcesForItsLogicalTorus) {
  const auto [n, m, barrier] = GetParam();
  MachineConfig config;
  config.topology = "torus:" + std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n);
  config.block_bytes = static_cast<std::uint32_t>(m);
  const std::uint64_t nodes = static_cast<std::uint64_t>(n) * n * n;
  const C64Memory shape{n, static_cast<std::uint32_t>(m), 0, 0, 0};
  const std::uint64_t scratch = (nodes + shape.preparation_work_blocks()) * static_cast<std::uint64_t>(m);
  static bool with_barrier = false;
  static std::uint64_t most_work_bytes = 0;  // the most any node's phases took of the work area
  with_barrier = barrier;
  most_work_bytes = 0;
  Machine machine("machine", config, [](NodeApi& api) {
    const ExchangeLayout& l = api.layout();
    const C64Memory memory{api.topology().dimension(0).size, l.block_bytes, l.receive_base(), l.scratch_base(),
                           l.scratch_base() + static_cast<std::uint32_t>(l.num_nodes) * l.block_bytes};
    ScratchArena work(memory.work, static_cast<std::uint32_t>(memory.preparation_work_blocks()) * l.block_bytes);
    c64_preparation(api, memory, 1, with_barrier, work);
    most_work_bytes = std::max<std::uint64_t>(most_work_bytes, work.high_water() - memory.work);
  }, {}, scratch);
  machine.fill_memory();
  const RunResult result = machine.run();
  ASSERT_EQ(result.status, RunStatus::Completed) << result.message;

  const Topology& topology = machine.topology();
  const std::uint32_t units = 2 * static_cast<std::uint32_t>(nodes) * static_cast<std::uint32_t>(m);
  int wrong = 0;
  for (int w = 0; w < topology.num_nodes() && wrong < 5; ++w) {
    const std::vector<std::uint8_t>& bytes = machine.node(w).memory.bytes();
    const std::vector<int> c = topology.coordinates(w);
    for (int d = 0; d < topology.num_nodes(); ++d) {
      const std::vector<int> dc = topology.coordinates(d);
      if (dc[0] % 4 != c[0] % 4 || dc[1] % 4 != c[1] % 4 || dc[2] % 4 != c[2] % 4) continue;
      for (int j = 0; j < 64; ++j) {
        const SourceOffset o = unit_block_offset(j);
        const int s = topology.node_at({(c[0] + n - o.x) % n, (c[1] + n - o.y) % n, (c[2] + n - o.z) % n});
        const std::uint32_t at = units + static_cast<std::uint32_t>((64 * logical_index(topology, d) + j) * m);
        for (int b = 0; b < m; ++b)
          if (bytes[at + b] != block_pattern_byte(s, d, static_cast<std::uint32_t>(b))) {
            ADD_FAILURE() << "node " << w << " unit of destination " << d << " block " << j << " byte " << b
                          << " is not block (" << s << ", " << d << ")";
            ++wrong;
            break;
          }
      }
    }
  }

  const nlohmann::json schedule = collect_statistics(machine, result)["schedule"];
  const std::uint64_t q = nodes / 64;
  const std::vector<std::uint64_t> expected = {48 * q, 32 * q, 16 * q, 48 * q, 32 * q, 16 * q, 48 * q, 32 * q, 16 * q};
  EXPECT_EQ(schedule["synchronized_steps"], 9);
  EXPECT_EQ(schedule["max_messages_per_node"], 9);
  EXPECT_EQ(schedule["step_max_blocks"].get<std::vector<std::uint64_t>>(), expected);
  EXPECT_EQ(schedule["sum_of_step_max_blocks"], 9 * nodes / 2) << "Theorem 3: 9 2^(3d-1) blocks";
  EXPECT_EQ(schedule["steps_with_blocking"], 0) << "every phase is one hop along disjoint links";
  // The phases reuse what they have sent and the receive buffer's free part (first fit): their arrivals
  // and gathered messages take 2.75 n^3 blocks of the work area, of the 5.25 n^3 it declares.
  EXPECT_EQ(most_work_bytes, 11 * nodes / 4 * static_cast<std::uint64_t>(m));
}

INSTANTIATE_TEST_SUITE_P(Cubes, C64Preparation,
                         ::testing::Values(std::make_tuple(4, 8, false), std::make_tuple(8, 1, false),
                                           std::make_tuple(8, 3, true), std::make_tuple(12, 2, false)),
                         [](const auto& info) {
                           return "n" + std::to_string(std::get<0>(info.param)) + "_m" +
                                  std::to_string(std::get<1>(info.param)) +
                                  (std::get<2>(info.param) ? "_barrier" : "");
                         });

TEST(TsengC64, RefusesToriItCannotScheduleNamingTheRule) {
  for (const char* topology : {"torus:16x16x16", "torus:32x32x16", "torus:34x34x34", "torus:32x32"}) {
    const Outcome o = meshmp(std::string("run --algorithm tseng-c64 -m 1 -o \"\" --topology ") + topology);
    EXPECT_EQ(o.status, 2) << topology << ": " << o.output;
    EXPECT_NE(o.output.find(std::string("topology = '") + topology + "'"), std::string::npos) << o.output;
    EXPECT_NE(o.output.find("tseng-c64"), std::string::npos) << o.output;
  }
  const Outcome o = meshmp("run --algorithm tseng-c64 -o \"\" --topology torus:16x16x16");
  EXPECT_NE(o.output.find("n a multiple of 4 and >= 32"), std::string::npos) << o.output;
}

}  // namespace
}  // namespace meshmp
