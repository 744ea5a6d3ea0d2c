// The dimension-permutation workload. See permutation_workload.h.
#include "firmware/paper003/permutation_workload.h"

#include <algorithm>
#include <sstream>

#include "firmware/paper003/cube_block_schedules.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

class DimensionPermutation : public Workload {
 public:
  DimensionPermutation(int n, std::vector<int> delta, std::uint32_t block_bytes, std::uint64_t scratch_bytes)
      : n_(n), delta_(std::move(delta)), m_(block_bytes), scratch_(scratch_bytes) {}
  const std::vector<int>& delta() const { return delta_; }

  std::string name() const override { return "dimension-permutation"; }
  std::string describe() const override {
    std::string list;
    for (int d : delta_) list += (list.empty() ? "" : ",") + std::to_string(d);
    return "dimension permutation delta = (" + list + ") of " + std::to_string(m_) +
           "-byte blocks: node x's block to the node whose bit i is x's bit delta(i)";
  }
  std::string unit() const override { return "block"; }
  std::uint32_t unit_bytes() const override { return m_; }
  std::uint64_t scratch_base() const override { return 2ull * m_; }
  std::uint64_t memory_bytes() const override { return 2ull * m_ + scratch_; }
  void fill(int node, std::vector<std::uint8_t>& memory) const override {
    std::fill(memory.begin(), memory.end(), 0);
    const int to = permuted_node(node, delta_);
    fill_block_pattern(memory.data(), m_, node, to);
  }
  VerificationReport verify(const MemoryOf& memory_of) const override {
    const int nodes = 1 << n_;
    PlacementCheck check;
    check.unit = "block";
    check.units = static_cast<std::uint64_t>(nodes);
    check.unit_bytes = m_;
    check.expected_place = [this](std::uint64_t x) { return Place{permuted_node(static_cast<int>(x), delta_), 0}; };
    check.read = [this, memory_of](Place place) { return memory_of(place.node).data() + m_; };
    check.expected = [this](std::uint64_t x, std::uint8_t* bytes) {
      fill_block_pattern(bytes, m_, static_cast<int>(x), permuted_node(static_cast<int>(x), delta_));
    };
    check.identify = [this, nodes](const std::uint8_t* data) -> std::optional<std::uint64_t> {
      for (int x = 0; x < nodes; ++x) {
        const int to = permuted_node(x, delta_);
        std::uint32_t b = 0;
        while (b < m_ && data[b] == block_pattern_byte(x, to, b)) ++b;
        if (b == m_) return static_cast<std::uint64_t>(x);
      }
      return std::nullopt;
    };
    check.name = [this](std::uint64_t x) {
      return "block of node " + std::to_string(x) + " (for node " + std::to_string(permuted_node(static_cast<int>(x), delta_)) + ")";
    };
    return verify_placement(check);
  }

 private:
  int n_;
  std::vector<int> delta_;
  std::uint32_t m_;
  std::uint64_t scratch_;
};

}  // namespace

std::vector<int> parse_dimension_permutation(const std::string& text, int n) {
  const std::string field = "workload_options.permutation";
  std::vector<int> delta(n);
  if (text == "bit-reversal") {
    for (int i = 0; i < n; ++i) delta[i] = n - 1 - i;
  } else if (text == "shuffle" || text == "unshuffle") {
    // sh: loc(w_{n-1} .. w_0) <- loc(w_{n-2} .. w_0 w_{n-1}): node x's data goes to rotl(x), bit i of the
    // destination is x's bit i-1 (mod n); unshuffle the reverse.
    for (int i = 0; i < n; ++i) delta[i] = text == "shuffle" ? (i - 1 + n) % n : (i + 1) % n;
  } else {
    std::stringstream list(text);
    std::string item;
    std::vector<int> given;
    while (std::getline(list, item, ',')) {
      char* end = nullptr;
      const long value = std::strtol(item.c_str(), &end, 10);
      if (item.empty() || *end != '\0' || value < 0 || value >= n)
        throw ConfigError(field, text, "must be bit-reversal, shuffle, unshuffle or delta(0),...,delta(n-1): " +
                                           std::to_string(n) + " distinct dimensions 0.." + std::to_string(n - 1));
      given.push_back(static_cast<int>(value));
    }
    std::vector<int> sorted = given;
    std::sort(sorted.begin(), sorted.end());
    if (static_cast<int>(given.size()) != n || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      throw ConfigError(field, text, "must list each of the " + std::to_string(n) + " dimensions 0.." +
                                         std::to_string(n - 1) + " once (a permutation, 003 Definition 17)");
    delta = given;
  }
  return delta;
}

const std::vector<int>& dimension_permutation(const NodeApi& api) {
  const auto* workload = dynamic_cast<const DimensionPermutation*>(&api.workload());
  if (!workload) throw FirmwareError("the algorithm permutes dimensions, but the run's workload is " + api.workload().name());
  return workload->delta();
}

namespace {

std::vector<WorkloadKind> permutation_workload_kinds() {
  WorkloadKind kind;
  kind.name = "dimension-permutation";
  kind.summary = "node x's block goes to the node whose address bits are x's permuted (bit reversal, shuffle, any)";
  kind.source = "003 §7";
  kind.options = {{"permutation", AlgorithmOption::Type::Text, "bit-reversal",
                   "bit-reversal, shuffle, unshuffle, or delta(0),...,delta(n-1): bit i of the destination is bit "
                   "delta(i) of the source",
                   {}}};
  kind.make = [](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions& options,
                 std::uint64_t scratch_bytes) -> std::unique_ptr<Workload> {
    int n = 0;
    while ((1 << n) < topology.num_nodes()) ++n;
    if ((1 << n) != topology.num_nodes())
      throw ConfigError("topology", topology.spec(), "a dimension permutation needs 2^n nodes");
    return std::make_unique<DimensionPermutation>(n, parse_dimension_permutation(options.text("permutation"), n),
                                                  parameters.block_bytes, scratch_bytes);
  };
  return {kind};
}

const WorkloadFamilyRegistration kRegistration{30, permutation_workload_kinds};

}  // namespace

}  // namespace meshmp
