// Paper 004's word workloads (§3.1 - §3.4). See workloads.h.
#include "firmware/paper004/workloads.h"

#include <algorithm>
#include <stdexcept>

#include "firmware/api/exchange_layout.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

// The largest N: every region's addresses fit the node's 32-bit address space with room for scratch.
constexpr std::int64_t kMaxWords = std::int64_t{1} << 30;

// Word w of node `origin`'s data: a pattern of both (block patterns use node ids as the second number;
// words use numbers from 2^30 so that a word is never a block).
std::uint8_t word_byte(int origin, std::uint64_t w, std::uint32_t index) {
  return block_pattern_byte(origin, static_cast<int>((std::uint64_t{1} << 30) + w), index);
}

class WordWorkload : public Workload {
 public:
  WordWorkload(const Topology& topology, SaadWords words, std::uint64_t scratch_bytes)
      : k_(topology.num_nodes()),
        w_(std::move(words)),
        transpose_(w_.operation == "grid-transpose"),
        pair_regions_(w_.operation == "one-to-one" || w_.operation == "broadcast" || transpose_),
        scratch_(scratch_bytes) {
    if (transpose())
      for (int v = 0; v < k_; ++v) {
        const std::vector<int> at = topology.coordinates(v);
        mirror_.push_back(topology.node_at({at[1], at[0]}));
      }
    const std::uint64_t region = (transpose() ? w_.words / k_ : w_.words) * w_.word_bytes;
    if (pair_regions()) {
      w_.input_base = 0;
      w_.output_base = static_cast<std::uint32_t>(region);
      regions_bytes_ = 2 * region;
    } else {
      w_.input_base = w_.output_base = 0;
      regions_bytes_ = region;
    }
  }
  const SaadWords& words() const { return w_; }

  std::string name() const override { return w_.operation; }
  std::string describe() const override {
    const std::string n = std::to_string(w_.words) + " words of " + std::to_string(w_.word_bytes) + " bytes";
    if (w_.operation == "one-to-one")
      return "one-to-one: " + n + " from node " + std::to_string(w_.source) + " to node " + std::to_string(w_.destination);
    if (w_.operation == "broadcast") return "broadcast: " + n + " from node " + std::to_string(w_.source) + " to every node";
    if (w_.operation == "all-to-one")
      return "all-to-one (gather): " + n + " in all, N/k = " + std::to_string(w_.words / k_) + " from every node to node " +
             std::to_string(w_.source);
    if (transpose())
      return "grid transpose: " + n + " in all, N/k = " + std::to_string(w_.words / k_) +
             " from every node (x, y) to node (y, x)";
    return "all-to-all broadcast: " + n + " in all, N/k = " + std::to_string(w_.words / k_) + " from every node to every node";
  }
  std::string unit() const override { return "word"; }
  std::uint32_t unit_bytes() const override { return w_.word_bytes; }
  std::uint64_t scratch_base() const override { return regions_bytes_; }
  std::uint64_t memory_bytes() const override { return regions_bytes_ + scratch_; }

  void fill(int node, std::vector<std::uint8_t>& memory) const override {
    std::fill(memory.begin(), memory.end(), 0);
    const std::uint64_t share = w_.words / k_;
    std::uint64_t first = 0, count = 0;
    if (transpose()) {
      count = share;
    } else if (pair_regions()) {
      if (node == w_.source) count = w_.words;
    } else {
      first = node * share;
      count = share;
    }
    for (std::uint64_t s = first; s < first + count; ++s) {
      const auto [origin, w] = transpose() ? std::pair<int, std::uint64_t>{node, s} : identity(s);
      for (std::uint32_t b = 0; b < w_.word_bytes; ++b) memory[w_.address(w_.input_base, s) + b] = word_byte(origin, w, b);
    }
  }

  VerificationReport verify(const MemoryOf& memory_of) const override {
    const std::uint64_t n = transpose() ? w_.words / k_ : w_.words;  // words each receiver ends with
    PlacementCheck check;
    check.unit = "word";
    check.unit_bytes = w_.word_bytes;
    // Units: per receiving node, its N expected words in slot order.
    std::vector<int> receivers;
    if (w_.operation == "one-to-one") receivers = {w_.destination};
    else if (w_.operation == "all-to-one") receivers = {w_.source};
    else
      for (int v = 0; v < k_; ++v)
        if (w_.operation != "broadcast" || v != w_.source) receivers.push_back(v);
    check.units = receivers.size() * n;
    check.expected_place = [receivers, n](std::uint64_t u) { return Place{receivers[u / n], u % n}; };
    check.read = [this, memory_of](Place place) {
      return memory_of(place.node).data() + w_.address(w_.output_base, place.slot);
    };
    check.expected = [this, receivers, n](std::uint64_t u, std::uint8_t* bytes) {
      const auto [origin, w] = identity_at(receivers[u / n], u % n);
      for (std::uint32_t index = 0; index < w_.word_bytes; ++index) bytes[index] = word_byte(origin, w, index);
    };
    // A slot's bytes identify a word when the search is small enough (a word of 1 or 2 bytes may match
    // several: the first is named).
    const bool searchable = n * static_cast<std::uint64_t>(receivers.size()) <= (1u << 16);
    check.identify = [this, receivers, n, searchable, units = check.units](const std::uint8_t* data) -> std::optional<std::uint64_t> {
      if (!searchable) return std::nullopt;
      // The grid transpose's words differ by receiver: every unit is searched; elsewhere one receiver's.
      const std::uint64_t searched = transpose() ? units : n;
      for (std::uint64_t u = 0; u < searched; ++u) {
        const auto [origin, w] = identity_at(receivers[u / n], u % n);
        std::uint32_t b = 0;
        while (b < w_.word_bytes && data[b] == word_byte(origin, w, b)) ++b;
        if (b == w_.word_bytes) return u < units ? std::optional<std::uint64_t>(u) : std::nullopt;
      }
      return std::nullopt;
    };
    check.name = [this, receivers, n](std::uint64_t u) {
      const auto [origin, w] = identity_at(receivers[u / n], u % n);
      return "word " + std::to_string(w) + " of node " + std::to_string(origin) + " (for node " +
             std::to_string(receivers[u / n]) + ")";
    };
    return verify_placement(check);
  }

 private:
  // What the operation is, asked for every byte the verifier checks: decided once, not by comparing names.
  bool transpose() const { return transpose_; }
  bool pair_regions() const { return pair_regions_; }
  // Slot s of the output: whose word and which.
  std::pair<int, std::uint64_t> identity(std::uint64_t s) const {
    if (pair_regions()) return {w_.source, s};
    const std::uint64_t share = w_.words / k_;
    return {static_cast<int>(s / share), s % share};
  }

  // Slot s of receiver `node`'s output: whose word and which.
  std::pair<int, std::uint64_t> identity_at(int node, std::uint64_t s) const {
    return transpose() ? std::pair<int, std::uint64_t>{mirror_[node], s} : identity(s);
  }

  int k_;
  SaadWords w_;
  bool transpose_;     // the grid transpose: every node's words to its mirror
  bool pair_regions_;  // an input and an output region (one source's words, or the transpose's)
  std::vector<int> mirror_;  // grid transpose: node (x, y) -> node (y, x)
  std::uint64_t scratch_;
  std::uint64_t regions_bytes_ = 0;
};

int node_option(const AlgorithmOptions& options, const std::string& name, const Topology& topology) {
  const std::int64_t node = options.integer(name);
  if (node < 0 || node >= topology.num_nodes())
    throw ConfigError("workload_options." + name, std::to_string(node),
                      "must be a node of the machine, 0.." + std::to_string(topology.num_nodes() - 1));
  return static_cast<int>(node);
}

// N for the workloads that give every node N/k words (0: one word per node).
std::uint64_t shared_words(const AlgorithmOptions& options, const Topology& topology) {
  const std::int64_t words = options.integer("words");
  const int k = topology.num_nodes();
  if (words == 0) return static_cast<std::uint64_t>(k);
  if (words % k != 0)
    throw ConfigError("workload_options.words", std::to_string(words),
                      "must be a multiple of the " + std::to_string(k) + " nodes (every node holds N/k words)");
  return static_cast<std::uint64_t>(words);
}

void check_region(std::uint64_t words, std::uint32_t word_bytes) {
  if (words * word_bytes > kMaxRegionBytes)
    throw ConfigError("workload_options.words", std::to_string(words),
                      "N words of " + std::to_string(word_bytes) + " bytes must fit in 1 GiB per node");
}

WorkloadKind word_kind(const std::string& name, const std::string& summary, const std::string& source,
                       std::vector<AlgorithmOption> options) {
  WorkloadKind kind;
  kind.name = name;
  kind.summary = summary;
  kind.source = source;
  kind.options = std::move(options);
  kind.make = [name](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions& options,
                     std::uint64_t scratch_bytes) -> std::unique_ptr<Workload> {
    SaadWords w;
    w.operation = name;
    w.word_bytes = parameters.block_bytes;
    if (name == "one-to-one" || name == "broadcast") {
      w.words = static_cast<std::uint64_t>(options.integer("words"));
      w.source = node_option(options, name == "one-to-one" ? "source" : "root", topology);
    } else {
      w.words = shared_words(options, topology);
      if (name == "all-to-one") w.source = node_option(options, "root", topology);
    }
    if (name == "grid-transpose" &&
        (topology.num_dimensions() != 2 || topology.dimension(0).size != topology.dimension(1).size))
      throw ConfigError("topology", topology.spec(),
                        "the grid transpose moves node (x, y)'s words to node (y, x): it needs a square 2-D grid "
                        "(torus:PxP)");
    check_region(w.words, w.word_bytes);
    if (name == "one-to-one") {
      std::int64_t destination = options.integer("destination");
      if (destination == -1) {  // the first node farthest from the source
        destination = 0;
        for (int v = 0; v < topology.num_nodes(); ++v)
          if (topology.distance(w.source, v) > topology.distance(w.source, static_cast<int>(destination))) destination = v;
      }
      w.destination = options.integer("destination") == -1 ? static_cast<int>(destination)
                                                            : node_option(options, "destination", topology);
      if (w.destination == w.source)
        throw ConfigError("workload_options.destination", std::to_string(w.destination),
                          "must differ from the source (" + std::to_string(w.source) + ")");
    }
    return std::make_unique<WordWorkload>(topology, w, scratch_bytes);
  };
  return kind;
}

AlgorithmOption words_option(std::int64_t default_value, const std::string& help) {
  return integer_option("words", default_value, default_value == 0 ? 0 : 1, kMaxWords, help);
}

}  // namespace

const SaadWords& saad_words(const Workload& workload) {
  const auto* words = dynamic_cast<const WordWorkload*>(&workload);
  if (!words) throw std::invalid_argument("the workload " + workload.name() + " is not one of 004's word workloads");
  return words->words();
}

namespace {

std::vector<WorkloadKind> saad_workload_kinds() {
  return {
      word_kind("one-to-one", "N words from one node to another", "004 §3.1",
                {words_option(64, "N, the words moved"),
                 integer_option("source", 0, 0, Topology::kMaxNodes - 1, "the node that holds the words"),
                 integer_option("destination", -1, -1, Topology::kMaxNodes - 1,
                                "the node that receives them (-1: the first node farthest from the source)")}),
      word_kind("broadcast", "the same N words from a root to every node", "004 §3.2",
                {words_option(64, "N, the words broadcast"),
                 integer_option("root", 0, 0, Topology::kMaxNodes - 1, "the node that holds the words")}),
      word_kind("all-to-all-broadcast", "every node's N/k words to every node", "004 §3.3",
                {words_option(0, "N, the words of all nodes together, a multiple of k (0: one word per node)")}),
      word_kind("all-to-one", "every node's N/k words to a root (gather, the dual of one-to-all)", "004 §3.4",
                {words_option(0, "N, the words of all nodes together, a multiple of k (0: one word per node)"),
                 integer_option("root", 0, 0, Topology::kMaxNodes - 1, "the node that gathers")}),
      word_kind("grid-transpose",
                "a matrix in square blocks on a square grid, block (i, j) on node (j, i): node (x, y)'s N/k words to "
                "node (y, x)",
                "004 §3.5 D",
                {words_option(0, "N, the words of all nodes together, a multiple of k (0: one word per node)")}),
  };
}

const WorkloadFamilyRegistration kRegistration{40, saad_workload_kinds};

}  // namespace

}  // namespace meshmp
