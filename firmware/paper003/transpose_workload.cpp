// The transpose workload. See transpose_workload.h.
#include "firmware/paper003/transpose_workload.h"

#include <algorithm>

#include "topology/config_error.h"

namespace meshmp {
namespace {

// P and Q are at most 2^24 (003 §2: P = 2^p, Q = 2^q).
constexpr int kMaxMatrixBits = 24;
constexpr std::int64_t kMaxMatrixSide = std::int64_t{1} << kMaxMatrixBits;

// log2 of x when x is a power of two 1..2^62, else -1.
int log2_exact(std::int64_t x) {
  if (x <= 0) return -1;
  int bits = 0;
  while (bits < 62 && (std::int64_t{1} << bits) < x) ++bits;
  return (std::int64_t{1} << bits) == x ? bits : -1;
}

std::vector<std::string> same_or(std::vector<std::string> choices) {
  choices.insert(choices.begin(), "same");
  return choices;
}

const std::vector<AlgorithmOption>& transpose_options() {
  static const std::vector<AlgorithmOption> options = {
      integer_option("rows", 0, 0, kMaxMatrixSide, "P, rows of A, a power of two up to 2^24 (0: as many as nodes)"),
      integer_option("columns", 0, 0, kMaxMatrixSide, "Q, columns of A, a power of two up to 2^24 (0: as many as nodes)"),
      {"partitioning", AlgorithmOption::Type::Choice, "row-consecutive", "how A's elements are assigned to nodes (003 §2, §6)",
       partitioning_names()},
      {"row_encoding", AlgorithmOption::Type::Choice, "binary", "code of the node address's row part (003 §2 Table 1)",
       {"binary", "gray"}},
      {"column_encoding", AlgorithmOption::Type::Choice, "binary", "code of the node address's column part",
       {"binary", "gray"}},
      {"result_partitioning", AlgorithmOption::Type::Choice, "same", "how A^T is assigned (same: as A)", same_or(partitioning_names())},
      integer_option("row_node_field", -1, -1, kMaxMatrixBits,
                     "the lowest bit of the row index that goes to the node, any contiguous field (003 §2 Table 2's "
                     "combined assignment; -1: the partitioning's); kept for A^T unless result_partitioning is given"),
      integer_option("column_node_field", -1, -1, kMaxMatrixBits, "the same for the column index"),
      {"result_row_encoding", AlgorithmOption::Type::Choice, "same", "code of A^T's row part (same: as A's)",
       {"same", "binary", "gray"}},
      {"result_column_encoding", AlgorithmOption::Type::Choice, "same", "code of A^T's column part (same: as A's)",
       {"same", "binary", "gray"}},
  };
  return options;
}

int matrix_bits(const AlgorithmOptions& options, const std::string& name, int node_bits) {
  const std::int64_t value = options.integer(name);
  if (value == 0) return node_bits;
  const int bits = log2_exact(value);
  if (value < 0 || bits < 0 || bits > 24)
    throw ConfigError("workload_options." + name, std::to_string(value), "must be a power of two from 1 to 2^24 (003 §2: P = 2^p, Q = 2^q)");
  return bits;
}

}  // namespace

TransposeLayout transpose_layout_for(const Topology& topology, const ExchangeParameters& parameters) {
  const AlgorithmOptions options = workload_options("transpose", parameters);
  const int n = log2_exact(topology.num_nodes());
  if (n < 0)
    throw ConfigError("topology", topology.spec(),
                      "the transpose places the matrix by address bits (003 §2): it needs 2^n nodes, and this machine has " +
                          std::to_string(topology.num_nodes()));
  const int p = matrix_bits(options, "rows", n);
  const int q = matrix_bits(options, "columns", n);
  MatrixPlacement before;
  before.partitioning = parse_partitioning("workload_options.partitioning", options.text("partitioning"));
  before.row_gray = options.text("row_encoding") == "gray";
  before.column_gray = options.text("column_encoding") == "gray";
  for (const char* name : {"row_node_field", "column_node_field"})
    if (options.integer(name) < -1 || options.integer(name) > 24)
      throw ConfigError(std::string("workload_options.") + name, std::to_string(options.integer(name)),
                        "must be -1 (the partitioning's field) or the lowest bit of the node field, 0..24");
  before.row_field = static_cast<int>(options.integer("row_node_field"));
  before.column_field = static_cast<int>(options.integer("column_node_field"));
  MatrixPlacement after = before;
  if (options.text("result_partitioning") != "same") {
    after.partitioning = parse_partitioning("workload_options.result_partitioning", options.text("result_partitioning"));
    after.row_field = after.column_field = -1;
  }
  if (options.text("result_row_encoding") != "same") after.row_gray = options.text("result_row_encoding") == "gray";
  if (options.text("result_column_encoding") != "same")
    after.column_gray = options.text("result_column_encoding") == "gray";
  TransposeLayout layout(p, q, n, parameters.block_bytes, before, after);
  if (2 * layout.region_bytes() > 0xffffffffull)
    throw ConfigError("workload_options.rows", std::to_string(layout.rows()),
                      "a node's input and output regions (2 x PQ/N x e = " + std::to_string(2 * layout.region_bytes()) +
                          " bytes) must fit 32-bit addresses");
  return layout;
}

const TransposeLayout& transpose_layout(const NodeApi& api) {
  const auto* workload = dynamic_cast<const TransposeWorkload*>(&api.workload());
  if (!workload) throw FirmwareError("the algorithm transposes a matrix, but the run's workload is " + api.workload().name());
  return workload->layout();
}

std::string TransposeWorkload::describe() const {
  const TransposeLayout& l = layout_;
  return "transpose of a " + std::to_string(l.rows()) + " x " + std::to_string(l.columns()) + " matrix of " +
         std::to_string(l.element_bytes()) + "-byte elements, " + std::to_string(l.elements_per_node()) +
         " per node: A " + l.before().describe() + "; A^T " + l.after().describe();
}

void TransposeWorkload::fill(int node, std::vector<std::uint8_t>& memory) const {
  std::fill(memory.begin(), memory.end(), 0);
  const std::uint32_t e = layout_.element_bytes();
  for (std::uint64_t slot = 0; slot < layout_.elements_per_node(); ++slot) {
    const MatrixElement a = layout_.element_before(node, slot);
    std::uint8_t* data = memory.data() + layout_.input_address(slot);
    for (std::uint32_t b = 0; b < e; ++b) data[b] = layout_.pattern_byte(a, b);
  }
}

VerificationReport TransposeWorkload::verify(const MemoryOf& memory_of) const {
  const TransposeLayout& l = layout_;
  const int q = l.column_bits();
  auto element_of = [q](std::uint64_t unit) {
    return MatrixElement{static_cast<std::uint32_t>(unit >> q), static_cast<std::uint32_t>(unit & ((1ull << q) - 1))};
  };
  PlacementCheck check;
  check.unit = "element";
  check.units = static_cast<std::uint64_t>(l.rows()) * l.columns();
  check.unit_bytes = l.element_bytes();
  check.expected_place = [&l, element_of](std::uint64_t unit) { return l.place_after(element_of(unit)); };
  check.read = [&l, memory_of](Place place) { return memory_of(place.node).data() + l.output_address(place.slot); };
  check.expected = [&l, element_of](std::uint64_t unit, std::uint8_t* bytes) {
    const MatrixElement a = element_of(unit);
    for (std::uint32_t index = 0; index < l.element_bytes(); ++index) bytes[index] = l.pattern_byte(a, index);
  };
  check.identify = [&l, q](const std::uint8_t* data) -> std::optional<std::uint64_t> {
    auto a = l.identify(data);
    if (!a) return std::nullopt;
    return (static_cast<std::uint64_t>(a->row) << q) | a->column;
  };
  check.name = [element_of](std::uint64_t unit) {
    const MatrixElement a = element_of(unit);
    return "element (" + std::to_string(a.row) + "," + std::to_string(a.column) + ")";
  };
  return verify_placement(check);
}

namespace {

std::vector<WorkloadKind> transpose_workload_kinds() {
  WorkloadKind transpose;
  transpose.name = "transpose";
  transpose.summary = "a P x Q matrix partitioned over 2^n nodes is replaced by its transpose";
  transpose.source = "003 §2, §4";
  transpose.options = transpose_options();
  transpose.make = [](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions&,
                      std::uint64_t scratch_bytes) -> std::unique_ptr<Workload> {
    return std::make_unique<TransposeWorkload>(transpose_layout_for(topology, parameters), scratch_bytes);
  };
  return {transpose};
}

const WorkloadFamilyRegistration kRegistration{20, transpose_workload_kinds};

}  // namespace

}  // namespace meshmp
