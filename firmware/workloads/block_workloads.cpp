// The workloads made of N x N blocks of m bytes (firmware/api/exchange_layout.h):
//  - complete-exchange: every node i starts with N blocks (i, j) and ends with the N blocks (j, i), block
//    (j, i) in receive slot j (000 §1, 001 §1, 002 §1, 003 §3.2 all-to-all personalized);
//  - one-to-all: personalized communication from a root (003 §3.1): the root starts with block (root, j)
//    in send slot j; node j ends with it in receive slot j. Other nodes start with empty memory.
// Both take 004's `words` option (§3.4, §3.5: N words in all): a block is then N/k^2 (N/k) words of
// block_bytes; the saad-* algorithms size their data so (firmware/paper004/workloads.h).
#include "firmware/workloads/workload.h"

#include <algorithm>
#include <stdexcept>

#include "topology/config_error.h"

namespace meshmp {
namespace {

class BlockWorkload : public Workload {
 public:
  BlockWorkload(const Topology& topology, std::uint32_t block_bytes, std::uint64_t scratch_bytes)
      : layout_{topology.num_nodes(), block_bytes, scratch_bytes} {}
  std::string unit() const override { return "block"; }
  std::uint32_t unit_bytes() const override { return layout_.block_bytes; }
  std::uint64_t scratch_base() const override { return layout_.scratch_base(); }
  std::uint64_t memory_bytes() const override { return layout_.memory_bytes(); }
  const ExchangeLayout* block_layout() const override { return &layout_; }

 protected:
  ExchangeLayout layout_;
};

class CompleteExchange : public BlockWorkload {
 public:
  using BlockWorkload::BlockWorkload;
  std::string name() const override { return "complete-exchange"; }
  std::string describe() const override {
    return "complete exchange of " + std::to_string(layout_.block_bytes) + "-byte blocks: block (i, j) from node i to node j";
  }
  void fill(int node, std::vector<std::uint8_t>& memory) const override { fill_exchange_memory(memory, layout_, node); }
  VerificationReport verify(const MemoryOf& memory_of) const override { return verify_exchange(layout_, memory_of); }
};

class OneToAll : public BlockWorkload {
 public:
  OneToAll(const Topology& topology, std::uint32_t block_bytes, std::uint64_t scratch_bytes, int root)
      : BlockWorkload(topology, block_bytes, scratch_bytes), root_(root) {}
  std::string name() const override { return "one-to-all"; }
  std::string describe() const override {
    return "one-to-all personalized from node " + std::to_string(root_) + ": block (" + std::to_string(root_) +
           ", j) of " + std::to_string(layout_.block_bytes) + " bytes to node j's receive slot j";
  }
  void fill(int node, std::vector<std::uint8_t>& memory) const override {
    if (node == root_) fill_exchange_memory(memory, layout_, node);
    else std::fill(memory.begin(), memory.end(), 0);
  }
  VerificationReport verify(const MemoryOf& memory_of) const override {
    return verify_scatter(layout_, root_, memory_of);
  }
  int root() const { return root_; }

 private:
  int root_;
};

}  // namespace

std::uint32_t words_block_bytes(const std::string& workload, const Topology& topology, std::uint32_t word_bytes,
                                std::int64_t words) {
  const std::uint64_t k = static_cast<std::uint64_t>(topology.num_nodes());
  const std::uint64_t blocks = workload == "complete-exchange" ? k * k : k;
  if (words == 0) return word_bytes;
  if (words < 0 || static_cast<std::uint64_t>(words) % blocks != 0)
    throw ConfigError("workload_options.words", std::to_string(words),
                      "must be a multiple of " + std::to_string(blocks) +
                          (workload == "complete-exchange" ? " (k^2: every node sends N/k^2 words to every node)"
                                                           : " (k: the root sends N/k words to every node)"));
  const std::uint64_t bytes = static_cast<std::uint64_t>(words) / blocks * word_bytes;
  if (bytes * k > kMaxRegionBytes)
    throw ConfigError("workload_options.words", std::to_string(words),
                      "N words of " + std::to_string(word_bytes) + " bytes must fit in 1 GiB per node");
  return static_cast<std::uint32_t>(bytes);
}

int one_to_all_root(const Workload& workload) {
  const auto* one_to_all = dynamic_cast<const OneToAll*>(&workload);
  if (!one_to_all) throw std::invalid_argument("the workload " + workload.name() + " has no root");
  return one_to_all->root();
}

namespace {

std::vector<WorkloadKind> block_workload_kinds() {
  WorkloadKind complete;
  complete.name = "complete-exchange";
  complete.summary = "every node sends a distinct m-byte block to every node (all-to-all personalized)";
  complete.source = "000 §1, 001 §1, 002 §1, 003 §3.2";
  complete.options = {integer_option("words", 0, 0, std::int64_t{1} << 30,
                                     "004 §3.5's N: the words of all nodes together, a multiple of k^2 (each block "
                                     "N/k^2 words of block_bytes); 0: one word per block")};
  complete.make = [](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions& options,
                     std::uint64_t scratch_bytes) -> std::unique_ptr<Workload> {
    return std::make_unique<CompleteExchange>(
        topology, words_block_bytes("complete-exchange", topology, parameters.block_bytes, options.integer("words")),
        scratch_bytes);
  };

  WorkloadKind one_to_all;
  one_to_all.name = "one-to-all";
  one_to_all.summary = "a root sends a distinct m-byte block to every node (personalized, scatter)";
  one_to_all.source = "003 §3.1";
  one_to_all.options = {
      integer_option("root", 0, 0, Topology::kMaxNodes - 1, "the node that holds every block at the start"),
      integer_option("words", 0, 0, std::int64_t{1} << 30,
                     "004 §3.4's N: the words scattered, a multiple of k (each block N/k words of block_bytes); 0: one "
                     "word per block")};
  one_to_all.make = [](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions& options,
                       std::uint64_t scratch_bytes) -> std::unique_ptr<Workload> {
    const std::int64_t root = options.integer("root");
    if (root < 0 || root >= topology.num_nodes())
      throw ConfigError("workload_options.root", std::to_string(root),
                        "must be a node of the machine, 0.." + std::to_string(topology.num_nodes() - 1));
    return std::make_unique<OneToAll>(
        topology, words_block_bytes("one-to-all", topology, parameters.block_bytes, options.integer("words")),
        scratch_bytes, static_cast<int>(root));
  };
  return {complete, one_to_all};
}

const WorkloadFamilyRegistration kRegistration{10, block_workload_kinds};

}  // namespace

}  // namespace meshmp
