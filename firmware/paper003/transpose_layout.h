// The matrix of the transpose workload and where its elements lie (003 §2): a P x Q matrix A, P = 2^p,
// Q = 2^q, of e-byte elements; element (u, v) has the address w = (u || v). A placement splits the
// address bits into real-processor bits, the node (row part, then column part, each binary or
// binary-reflected Gray coded: 003 §2 Tables 1-2), and virtual-processor bits, the slot in the node's
// local array in address order (003 §2, Definition 7 and the address fields after it):
//   row-consecutive: node = the n highest row bits; row-cyclic: the n lowest row bits;
//   column-consecutive / column-cyclic: the same on the column bits;
//   2d-consecutive / 2d-cyclic: n/2 row bits and n/2 column bits (003 §6, n even);
//   2d-consecutive-rows-cyclic-columns and 2d-cyclic-rows-consecutive-columns: §6's mixed assignment.
// The transpose A^T (Q x P) is placed by its own placement: a(u, v) = a^T(v, u), address (v || u) in A^T.
// Every node holds PQ/N elements before and after (the all-to-all and pairwise cases of 003 §5-6; the
// some-to-all cases, where some nodes hold nothing, are not offered).
// Node memory: input region (the elements before, slot s at s*e), output region (after, at (PQ/N + s)*e),
// then the algorithm's scratch.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "firmware/api/placement_verifier.h"

namespace meshmp {

enum class Partitioning {
  RowConsecutive,
  RowCyclic,
  ColumnConsecutive,
  ColumnCyclic,
  TwoDConsecutive,
  TwoDCyclic,
  TwoDConsecutiveRowsCyclicColumns,
  TwoDCyclicRowsConsecutiveColumns
};
std::string to_string(Partitioning partitioning);
// Every partitioning's name, in the order above.
const std::vector<std::string>& partitioning_names();

// How many node bits a partitioning takes from the row and the column index on 2^n nodes, and whether
// from their low (cyclic) or high (consecutive) end.
struct NodeBitSplit {
  int row_node_bits = 0;
  int column_node_bits = 0;
  bool row_cyclic = false;
  bool column_cyclic = false;
};
// Inline: it is asked for every element a layout places (a node's traffic, its memory's fill and check).
inline NodeBitSplit node_bit_split(Partitioning partitioning, int n) {
  switch (partitioning) {
    case Partitioning::RowConsecutive: return {n, 0, false, false};
    case Partitioning::RowCyclic: return {n, 0, true, false};
    case Partitioning::ColumnConsecutive: return {0, n, false, false};
    case Partitioning::ColumnCyclic: return {0, n, false, true};
    case Partitioning::TwoDConsecutive: return {n / 2, n / 2, false, false};
    case Partitioning::TwoDCyclic: return {n / 2, n / 2, true, true};
    case Partitioning::TwoDConsecutiveRowsCyclicColumns: return {n / 2, n / 2, false, true};
    case Partitioning::TwoDCyclicRowsConsecutiveColumns: return {n / 2, n / 2, true, false};
  }
  return {n, 0, false, false};
}
bool is_two_dimensional(Partitioning partitioning);
// Throws ConfigError(field, text, ...) for an unknown name.
Partitioning parse_partitioning(const std::string& field, const std::string& text);

struct MatrixPlacement {
  Partitioning partitioning = Partitioning::RowConsecutive;
  bool row_gray = false;     // the node's row part is binary-reflected Gray coded
  bool column_gray = false;  // the node's column part is
  // The lowest bit of the row (column) index that goes to the node: any contiguous field, 003 §2 Table 2's
  // combined assignment; -1: the partitioning's (consecutive: the highest bits, cyclic: the lowest).
  int row_field = -1;
  int column_field = -1;
  std::string describe() const;
};

// Where the node field of a row (rows = true) or column index of `index_bits` bits starts (its lowest bit).
int node_field_low(const MatrixPlacement& placement, bool rows, int index_bits, int n);

// Binary-reflected Gray code and its inverse.
std::uint32_t gray(std::uint32_t x);
std::uint32_t gray_inverse(std::uint32_t g);

// An element of A by its row and column.
struct MatrixElement {
  std::uint32_t row = 0;
  std::uint32_t column = 0;
  bool operator==(const MatrixElement& o) const { return row == o.row && column == o.column; }
};

class TransposeLayout {
 public:
  // p, q: log2 of the rows and columns; n: log2 of the nodes. Throws ConfigError naming
  // workload_options.<field> when the placement does not fit (too few row or column bits for the
  // nodes, an odd n for a 2-D partitioning, elements too small to name every element).
  TransposeLayout(int p, int q, int n, std::uint32_t element_bytes, MatrixPlacement before, MatrixPlacement after);

  int row_bits() const { return p_; }
  int column_bits() const { return q_; }
  int node_bits() const { return n_; }
  std::uint32_t rows() const { return 1u << p_; }
  std::uint32_t columns() const { return 1u << q_; }
  std::uint32_t element_bytes() const { return e_; }
  std::uint64_t elements_per_node() const { return 1ull << (p_ + q_ - n_); }
  const MatrixPlacement& before() const { return before_; }
  const MatrixPlacement& after() const { return after_; }

  // Where element (u, v) of A lies before the transpose, and where it must lie after (as a^T(v, u)).
  Place place_before(MatrixElement a) const;
  Place place_after(MatrixElement a) const;
  // Which element of A a node's slot holds before, and must hold after.
  MatrixElement element_before(int node, std::uint64_t slot) const;
  MatrixElement element_after(int node, std::uint64_t slot) const;

  std::uint64_t region_bytes() const { return elements_per_node() * e_; }
  std::uint32_t input_address(std::uint64_t slot) const { return static_cast<std::uint32_t>(slot * e_); }
  std::uint32_t output_address(std::uint64_t slot) const {
    return static_cast<std::uint32_t>(region_bytes() + slot * e_);
  }
  std::uint64_t scratch_base() const { return 2 * region_bytes(); }

  // Byte `index` of element (u, v): its first min(e, 4) bytes name the element (its address w, masked),
  // the rest is a pattern of u, v and the index.
  std::uint8_t pattern_byte(MatrixElement a, std::uint32_t index) const;
  // The element whose bytes these are, if any (every byte checked).
  std::optional<MatrixElement> identify(const std::uint8_t* data) const;

 private:
  int p_, q_, n_;
  std::uint32_t e_;
  MatrixPlacement before_, after_;
};

}  // namespace meshmp
