// The transpose workload without a simulation (003 §2): every placement puts each element in exactly one
// node and slot and inverts; the node is the address field 003 Table 1 names (cyclic: the low n bits of
// the row or column index, consecutive: the high n bits; Gray: their Gray code; 2-D: (x_r || x_c) of
// §6.1); the verifier names a misplaced, lost, duplicated or corrupted element by (row, column), its
// expected node and slot, and where it was found; bad shapes get errors that name the field.
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "firmware/paper003/transpose_workload.h"
#include "firmware/workloads/workload.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

const Partitioning kAll[] = {Partitioning::RowConsecutive,   Partitioning::RowCyclic,
                             Partitioning::ColumnConsecutive, Partitioning::ColumnCyclic,
                             Partitioning::TwoDConsecutive,  Partitioning::TwoDCyclic,
                             Partitioning::TwoDConsecutiveRowsCyclicColumns, Partitioning::TwoDCyclicRowsConsecutiveColumns};

TEST(TransposeLayout, EveryPlacementIsABijectionAndInverts) {
  for (Partitioning before : kAll)
    for (Partitioning after : kAll)
      for (int gray_mask = 0; gray_mask < 16; ++gray_mask) {
        const MatrixPlacement b{before, (gray_mask & 1) != 0, (gray_mask & 2) != 0};
        const MatrixPlacement a{after, (gray_mask & 4) != 0, (gray_mask & 8) != 0};
        const TransposeLayout l(3, 4, 2, 4, b, a);  // 8 x 16 on 4 nodes
        std::set<std::pair<int, std::uint64_t>> seen_before, seen_after;
        for (std::uint32_t u = 0; u < l.rows(); ++u)
          for (std::uint32_t v = 0; v < l.columns(); ++v) {
            const Place pb = l.place_before({u, v}), pa = l.place_after({u, v});
            ASSERT_LT(pb.slot, l.elements_per_node());
            ASSERT_LT(pa.slot, l.elements_per_node());
            ASSERT_TRUE(seen_before.insert({pb.node, pb.slot}).second);
            ASSERT_TRUE(seen_after.insert({pa.node, pa.slot}).second);
            ASSERT_EQ(l.element_before(pb.node, pb.slot), (MatrixElement{u, v}));
            ASSERT_EQ(l.element_after(pa.node, pa.slot), (MatrixElement{u, v}));
          }
      }
}

TEST(TransposeLayout, NodesAreTheAddressFieldsOfTable1) {
  const int p = 5, q = 4, n = 3;
  for (std::uint32_t u = 0; u < (1u << p); ++u)
    for (std::uint32_t v = 0; v < (1u << q); ++v) {
      EXPECT_EQ(TransposeLayout(p, q, n, 4, {Partitioning::RowCyclic}, {}).place_before({u, v}).node, static_cast<int>(u & 7));
      EXPECT_EQ(TransposeLayout(p, q, n, 4, {Partitioning::RowConsecutive}, {}).place_before({u, v}).node, static_cast<int>(u >> 2));
      EXPECT_EQ(TransposeLayout(p, q, n, 4, {Partitioning::RowConsecutive, true, false}, {}).place_before({u, v}).node,
                static_cast<int>(gray(u >> 2)));
      EXPECT_EQ(TransposeLayout(p, q, n, 4, {Partitioning::ColumnCyclic, false, true}, {}).place_before({u, v}).node,
                static_cast<int>(gray(v & 7)));
      EXPECT_EQ(TransposeLayout(p, q, n, 4, {Partitioning::ColumnConsecutive}, {}).place_before({u, v}).node, static_cast<int>(v >> 1));
      // The slot: the virtual bits in address order (row bits high): row-consecutive keeps (u low bits || v).
      EXPECT_EQ(TransposeLayout(p, q, n, 4, {Partitioning::RowConsecutive}, {}).place_before({u, v}).slot, ((u & 3u) << q) | v);
    }
  // 2-D on 16 nodes: node (x_r || x_c) with two bits each (003 §6.1); A^T's element a(u, v) at (x_c || x_r).
  const TransposeLayout two_d(4, 4, 4, 4, {Partitioning::TwoDConsecutive}, {Partitioning::TwoDConsecutive});
  EXPECT_EQ(two_d.place_before({0b1101, 0b0110}).node, 0b1101);
  EXPECT_EQ(two_d.place_after({0b1101, 0b0110}).node, 0b0111);
  // §6's mixed assignment: the row part from the row index's high bits, the column part from the
  // column index's low bits.
  const TransposeLayout mixed(4, 4, 4, 4, {Partitioning::TwoDConsecutiveRowsCyclicColumns}, {});
  EXPECT_EQ(mixed.place_before({0b1101, 0b0110}).node, 0b1110);
  EXPECT_EQ(gray(5), 7u);
  EXPECT_EQ(gray_inverse(gray(12345)), 12345u);
}

TEST(TransposeLayout, AnyContiguousNodeFieldIsTable2sCombinedAssignment) {
  // 003 §2 Table 2, contiguous: the node is (u_{p-i} .. u_{p-i-n+1}); here p = 6, n = 3, field from bit 2.
  MatrixPlacement rows{Partitioning::RowConsecutive};
  rows.row_field = 2;
  MatrixPlacement columns{Partitioning::ColumnCyclic, false, true};
  columns.column_field = 1;
  const TransposeLayout l(6, 5, 3, 4, rows, columns);
  std::set<std::pair<int, std::uint64_t>> seen;
  for (std::uint32_t u = 0; u < 64; ++u)
    for (std::uint32_t v = 0; v < 32; ++v) {
      const Place b = l.place_before({u, v});
      EXPECT_EQ(b.node, static_cast<int>((u >> 2) & 7));
      EXPECT_EQ(b.slot, (static_cast<std::uint64_t>(((u >> 5) << 2) | (u & 3)) << 5) | v) << "virtual bits in order";
      EXPECT_TRUE(seen.insert({b.node, b.slot}).second);
      EXPECT_EQ(l.element_before(b.node, b.slot), (MatrixElement{u, v}));
      // A^T column-partitioned by bits 1..3 of its column index, which is A's row index u, Gray coded.
      const Place a = l.place_after({u, v});
      EXPECT_EQ(a.node, static_cast<int>(gray((u >> 1) & 7)));
      EXPECT_EQ(l.element_after(a.node, a.slot), (MatrixElement{u, v}));
    }
}

struct Memories {
  TransposeWorkload workload;
  std::vector<std::vector<std::uint8_t>> nodes;
  explicit Memories(TransposeLayout layout) : workload(layout, 0) {
    const TransposeLayout& l = workload.layout();
    for (int node = 0; node < (1 << l.node_bits()); ++node) {
      nodes.emplace_back(workload.memory_bytes());
      workload.fill(node, nodes.back());
    }
    // The transpose done by hand: every element into its output slot.
    for (int node = 0; node < (1 << l.node_bits()); ++node)
      for (std::uint64_t slot = 0; slot < l.elements_per_node(); ++slot) {
        const Place to = l.place_after(l.element_before(node, slot));
        std::memcpy(nodes[to.node].data() + l.output_address(to.slot), nodes[node].data() + l.input_address(slot),
                    l.element_bytes());
      }
  }
  std::uint8_t* at(int node, std::uint64_t slot) { return nodes[node].data() + workload.layout().output_address(slot); }
  VerificationReport verify() const {
    return workload.verify([this](int n) -> const std::vector<std::uint8_t>& { return nodes[n]; });
  }
};

bool mentions(const VerificationReport& r, const std::string& text) {
  for (const auto& e : r.errors)
    if (e.find(text) != std::string::npos) return true;
  return false;
}

TEST(TransposeVerifier, NamesElementsByRowColumnNodeAndSlot) {
  const TransposeLayout layout(3, 3, 2, 8, {Partitioning::RowConsecutive}, {Partitioning::RowConsecutive});
  Memories good(layout);
  EXPECT_TRUE(good.verify().ok());
  EXPECT_EQ(good.verify().units_checked, 64u);
  EXPECT_EQ(good.verify().unit, "element");

  // a(5, 2) must be in node 1 (A^T row 2 of 8 on 4 nodes), slot (2 mod 2) * 8 + 5 = 5.
  const Place p = layout.place_after({5, 2});
  ASSERT_EQ(p.node, 1);
  ASSERT_EQ(p.slot, 5u);
  Memories lost(layout);
  std::memset(lost.at(1, 5), 0, 8);
  auto r = lost.verify();
  EXPECT_TRUE(mentions(r, "element (5,2) lost: it is not in node 1 slot 5 nor anywhere else")) << r.errors.front();
  EXPECT_TRUE(mentions(r, "node 1 slot 5: expected element (5,2), found unrecognised data (first wrong byte at offset 0)"));

  Memories swapped(layout);
  std::vector<std::uint8_t> tmp(swapped.at(1, 5), swapped.at(1, 5) + 8);
  std::memcpy(swapped.at(1, 5), swapped.at(3, 0), 8);
  std::memcpy(swapped.at(3, 0), tmp.data(), 8);
  r = swapped.verify();
  EXPECT_EQ(r.error_count, 2u);
  const Place q = layout.place_after(layout.element_after(3, 0));
  EXPECT_EQ(q.node, 3);
  const MatrixElement other = layout.element_after(3, 0);
  const std::string other_name = "element (" + std::to_string(other.row) + "," + std::to_string(other.column) + ")";
  EXPECT_TRUE(mentions(r, "element (5,2) misplaced: found at node 3 slot 0 instead of node 1 slot 5")) << r.errors.front();
  EXPECT_TRUE(mentions(r, other_name + " misplaced: found at node 1 slot 5 instead of node 3 slot 0"));

  Memories duplicated(layout);
  std::memcpy(duplicated.at(3, 0), duplicated.at(1, 5), 8);
  r = duplicated.verify();
  EXPECT_TRUE(mentions(r, "element (5,2) duplicated: also found at node 3 slot 0"));
  EXPECT_TRUE(mentions(r, other_name + " lost"));

  Memories corrupted(layout);
  corrupted.at(1, 5)[6] ^= 1;
  r = corrupted.verify();
  EXPECT_TRUE(mentions(r, "node 1 slot 5: expected element (5,2), found unrecognised data (first wrong byte at offset 6)"));
}

std::string error_of(const std::string& topology, std::map<std::string, std::string> options, std::uint32_t element_bytes = 8) {
  ExchangeParameters parameters;
  parameters.block_bytes = element_bytes;
  parameters.workload_options = std::move(options);
  try {
    make_workload("transpose", Topology::parse(topology), parameters);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(TransposeWorkloadOptions, BadShapesNameTheFieldTheValueAndTheRule) {
  EXPECT_EQ(error_of("hypercube:4", {}), "");
  EXPECT_NE(error_of("hypercube:4", {{"rows", "48"}}).find("workload_options.rows"), std::string::npos);
  EXPECT_NE(error_of("hypercube:4", {{"rows", "48"}}).find("power of two"), std::string::npos);
  EXPECT_NE(error_of("hypercube:3", {{"partitioning", "2d-cyclic"}}).find("even number of cube dimensions"), std::string::npos);
  EXPECT_NE(error_of("hypercube:4", {{"rows", "8"}}).find("workload_options.partitioning"), std::string::npos);
  EXPECT_NE(error_of("hypercube:4", {{"columns", "8"}}).find("workload_options.result_partitioning"), std::string::npos);
  EXPECT_NE(error_of("hypercube:4", {{"rows", "4096"}, {"columns", "4096"}}, 2).find("block_bytes"), std::string::npos);
  EXPECT_NE(error_of("mesh:3x4", {}).find("needs 2^n nodes"), std::string::npos);
  EXPECT_NE(error_of("hypercube:4", {{"partitioning", "diagonal"}}).find("must be one of"), std::string::npos);
  EXPECT_NE(error_of("hypercube:4", {{"size", "4"}}).find("workload transpose has no such option"), std::string::npos);
  EXPECT_NE(error_of("hypercube:4", {{"rows", "32"}, {"row_node_field", "2"}}).find("workload_options.row_node_field = '2'"),
            std::string::npos);
  EXPECT_NE(error_of("hypercube:4", {{"row_node_field", "-3"}}).find("must be a whole number -1..24"), std::string::npos);
}

}  // namespace
}  // namespace meshmp
