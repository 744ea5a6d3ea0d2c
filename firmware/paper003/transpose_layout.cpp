// Placement of the transpose workload's matrix. See transpose_layout.h.
#include "firmware/paper003/transpose_layout.h"

#include <algorithm>
#include <tuple>

#include "firmware/api/exchange_layout.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

std::uint32_t low_bits(std::uint32_t x, int bits) { return bits >= 32 ? x : x & ((1u << bits) - 1); }

// Index x whose bits low .. low + node_bits - 1 go to the node: (node part, the other bits in order).
std::pair<std::uint32_t, std::uint32_t> split_index(std::uint32_t x, int node_bits, int low) {
  return {low_bits(x >> low, node_bits), ((x >> (low + node_bits)) << low) | low_bits(x, low)};
}

std::uint32_t join_index(std::uint32_t node_part, std::uint32_t virtual_part, int node_bits, int low) {
  return ((virtual_part >> low) << (low + node_bits)) | (node_part << low) | low_bits(virtual_part, low);
}

// Element (x, y) of a matrix with r row bits and c column bits, placed on 2^n nodes.
Place place(std::uint32_t x, std::uint32_t y, int r, int c, int n, const MatrixPlacement& placement) {
  const NodeBitSplit s = node_bit_split(placement.partitioning, n);
  const auto [xr, xv] = split_index(x, s.row_node_bits, node_field_low(placement, true, r, n));
  const auto [yr, yv] = split_index(y, s.column_node_bits, node_field_low(placement, false, c, n));
  const std::uint32_t row_part = placement.row_gray ? gray(xr) : xr;
  const std::uint32_t column_part = placement.column_gray ? gray(yr) : yr;
  Place result;
  result.node = static_cast<int>((row_part << s.column_node_bits) | column_part);
  result.slot = (static_cast<std::uint64_t>(xv) << (c - s.column_node_bits)) | yv;
  return result;
}

std::pair<std::uint32_t, std::uint32_t> unplace(int node, std::uint64_t slot, int r, int c, int n,
                                                const MatrixPlacement& placement) {
  const NodeBitSplit s = node_bit_split(placement.partitioning, n);
  const auto u_node = static_cast<std::uint32_t>(node);
  std::uint32_t row_part = u_node >> s.column_node_bits;
  std::uint32_t column_part = low_bits(u_node, s.column_node_bits);
  if (placement.row_gray) row_part = gray_inverse(row_part);
  if (placement.column_gray) column_part = gray_inverse(column_part);
  const int column_virtual_bits = c - s.column_node_bits;
  const auto xv = static_cast<std::uint32_t>(slot >> column_virtual_bits);
  const auto yv = static_cast<std::uint32_t>(low_bits(static_cast<std::uint32_t>(slot), column_virtual_bits));
  return {join_index(row_part, xv, s.row_node_bits, node_field_low(placement, true, r, n)),
          join_index(column_part, yv, s.column_node_bits, node_field_low(placement, false, c, n))};
}

// Checks that a placement of a matrix of r x c bits fits 2^n nodes.
void check_fits(const std::string& field, const MatrixPlacement& placement, const std::string& matrix, int r, int c,
                int n) {
  const NodeBitSplit s = node_bit_split(placement.partitioning, n);
  if (is_two_dimensional(placement.partitioning) && n % 2 != 0)
    throw ConfigError(field, to_string(placement.partitioning),
                      "a 2-D partitioning gives n/2 node dimensions to rows and n/2 to columns (003 §6): it needs an "
                      "even number of cube dimensions, and the machine has " + std::to_string(n));
  if (s.row_node_bits > r || s.column_node_bits > c)
    throw ConfigError(field, to_string(placement.partitioning),
                      "every node must hold elements (003 §5-6 without the some-to-all case): " + matrix + " has 2^" +
                          std::to_string(r) + " rows and 2^" + std::to_string(c) + " columns, and this partitioning needs 2^" +
                          std::to_string(s.row_node_bits) + " rows and 2^" + std::to_string(s.column_node_bits) +
                          " columns at least on 2^" + std::to_string(n) + " nodes");
  for (const auto& [name, field_low, node_bits, bits] :
       {std::tuple{"row_node_field", placement.row_field, s.row_node_bits, r},
        std::tuple{"column_node_field", placement.column_field, s.column_node_bits, c}})
    if (field_low >= 0 && field_low + node_bits > bits)
      throw ConfigError(std::string("workload_options.") + name, std::to_string(field_low),
                        "the node field (bits " + std::to_string(field_low) + ".." + std::to_string(field_low + node_bits - 1) +
                            " of the index of " + matrix + ") must lie within its " + std::to_string(bits) + " bits");
}

constexpr std::uint8_t kNameMask[4] = {0x5A, 0xC3, 0x96, 0x3C};

}  // namespace

const std::vector<std::string>& partitioning_names() {
  static const std::vector<std::string> names = {"row-consecutive",    "row-cyclic", "column-consecutive",
                                                 "column-cyclic",      "2d-consecutive", "2d-cyclic",
                                                 "2d-consecutive-rows-cyclic-columns",
                                                 "2d-cyclic-rows-consecutive-columns"};
  return names;
}

std::string to_string(Partitioning partitioning) { return partitioning_names()[static_cast<std::size_t>(partitioning)]; }

Partitioning parse_partitioning(const std::string& field, const std::string& text) {
  std::string list;
  for (std::size_t k = 0; k < partitioning_names().size(); ++k) {
    if (partitioning_names()[k] == text) return static_cast<Partitioning>(k);
    list += (list.empty() ? "" : ", ") + partitioning_names()[k];
  }
  throw ConfigError(field, text, "must be one of " + list);
}

int node_field_low(const MatrixPlacement& placement, bool rows, int index_bits, int n) {
  const NodeBitSplit s = node_bit_split(placement.partitioning, n);
  const int field = rows ? placement.row_field : placement.column_field;
  if (field >= 0) return field;
  if (rows) return s.row_cyclic ? 0 : index_bits - s.row_node_bits;
  return s.column_cyclic ? 0 : index_bits - s.column_node_bits;
}

bool is_two_dimensional(Partitioning partitioning) {
  const NodeBitSplit s = node_bit_split(partitioning, 2);
  return s.row_node_bits > 0 && s.column_node_bits > 0;
}

std::string MatrixPlacement::describe() const {
  std::string text = to_string(partitioning);
  if (row_field >= 0) text += ", row node field from bit " + std::to_string(row_field);
  if (column_field >= 0) text += ", column node field from bit " + std::to_string(column_field);
  return text + ", rows " + (row_gray ? "Gray" : "binary") + ", columns " + (column_gray ? "Gray" : "binary");
}

std::uint32_t gray(std::uint32_t x) { return x ^ (x >> 1); }

std::uint32_t gray_inverse(std::uint32_t g) {
  std::uint32_t x = g;
  for (int shift = 1; shift < 32; shift <<= 1) x ^= x >> shift;
  return x;
}

TransposeLayout::TransposeLayout(int p, int q, int n, std::uint32_t element_bytes, MatrixPlacement before,
                                 MatrixPlacement after)
    : p_(p), q_(q), n_(n), e_(element_bytes), before_(before), after_(after) {
  check_fits("workload_options.partitioning", before_, "A", p, q, n);
  check_fits("workload_options.result_partitioning", after_, "A^T", q, p, n);
  const int name_bytes = static_cast<int>(std::min<std::uint32_t>(e_, 4));
  if (p + q > 8 * name_bytes)
    throw ConfigError("block_bytes", std::to_string(e_),
                      "each element's bytes must name it among the 2^" + std::to_string(p + q) +
                          " elements: a " + std::to_string(e_) + "-byte element names at most 2^" +
                          std::to_string(8 * name_bytes) + " (use larger elements or a smaller matrix)");
}

Place TransposeLayout::place_before(MatrixElement a) const { return place(a.row, a.column, p_, q_, n_, before_); }
Place TransposeLayout::place_after(MatrixElement a) const { return place(a.column, a.row, q_, p_, n_, after_); }

MatrixElement TransposeLayout::element_before(int node, std::uint64_t slot) const {
  const auto [u, v] = unplace(node, slot, p_, q_, n_, before_);
  return {u, v};
}

MatrixElement TransposeLayout::element_after(int node, std::uint64_t slot) const {
  const auto [v, u] = unplace(node, slot, q_, p_, n_, after_);
  return {u, v};
}

std::uint8_t TransposeLayout::pattern_byte(MatrixElement a, std::uint32_t index) const {
  if (index < 4) {
    const std::uint64_t w = (static_cast<std::uint64_t>(a.row) << q_) | a.column;
    return static_cast<std::uint8_t>(((w >> (8 * index)) & 0xff) ^ kNameMask[index]);
  }
  return block_pattern_byte(static_cast<int>(a.row), static_cast<int>(a.column), index);
}

std::optional<MatrixElement> TransposeLayout::identify(const std::uint8_t* data) const {
  std::uint64_t w = 0;
  for (std::uint32_t b = 0; b < std::min<std::uint32_t>(e_, 4); ++b)
    w |= static_cast<std::uint64_t>(data[b] ^ kNameMask[b]) << (8 * b);
  if (w >> (p_ + q_)) return std::nullopt;
  const MatrixElement a{static_cast<std::uint32_t>(w >> q_), static_cast<std::uint32_t>(w & ((1ull << q_) - 1))};
  for (std::uint32_t b = 0; b < e_; ++b)
    if (data[b] != pattern_byte(a, b)) return std::nullopt;
  return a;
}

}  // namespace meshmp
