// The ring-shift workload and its algorithm. See ring_shift.h.
#include "ring_shift.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "firmware/api/algorithm_registry.h"
#include "firmware/api/placement_verifier.h"
#include "firmware/workloads/workload.h"
#include "topology/config_error.h"

namespace library_user {
namespace {

// Node i's memory: its own block at 0 (slot 0), the block it receives at m (slot 1), then scratch.
class RingShift : public meshmp::Workload {
 public:
  RingShift(int nodes, std::uint32_t block_bytes, std::uint64_t scratch_bytes)
      : nodes_(nodes), block_bytes_(block_bytes), scratch_bytes_(scratch_bytes) {}
  std::string name() const override { return "ring-shift"; }
  std::string describe() const override {
    return "ring shift of " + std::to_string(block_bytes_) + "-byte blocks: node i's block to node i+1 (mod N)";
  }
  std::string unit() const override { return "block"; }
  std::uint32_t unit_bytes() const override { return block_bytes_; }
  std::uint64_t scratch_base() const override { return 2 * std::uint64_t{block_bytes_}; }
  std::uint64_t memory_bytes() const override { return scratch_base() + scratch_bytes_; }
  // Block u's bytes: its number in the first two, then a pattern of u and the index.
  static std::uint8_t pattern(std::uint64_t u, std::uint32_t index) {
    if (index < 2) return static_cast<std::uint8_t>(u >> (8 * index));
    return static_cast<std::uint8_t>(u * 31 + index * 7 + 1);
  }
  void fill(int node, std::vector<std::uint8_t>& memory) const override {
    std::fill(memory.begin(), memory.end(), 0);
    for (std::uint32_t i = 0; i < block_bytes_; ++i) memory[i] = pattern(static_cast<std::uint64_t>(node), i);
  }
  meshmp::VerificationReport verify(const meshmp::MemoryOf& memory_of) const override {
    meshmp::PlacementCheck check;
    check.units = static_cast<std::uint64_t>(nodes_);
    check.unit_bytes = block_bytes_;
    check.expected_place = [this](std::uint64_t u) {
      return meshmp::Place{static_cast<int>((u + 1) % static_cast<std::uint64_t>(nodes_)), 1};
    };
    check.read = [this, &memory_of](meshmp::Place place) { return memory_of(place.node).data() + place.slot * block_bytes_; };
    check.pattern = pattern;
    check.identify = [this](const std::uint8_t* data) -> std::optional<std::uint64_t> {
      const std::uint64_t u = data[0] | (std::uint64_t{data[1]} << 8);
      if (u >= static_cast<std::uint64_t>(nodes_)) return std::nullopt;
      for (std::uint32_t i = 0; i < block_bytes_; ++i)
        if (data[i] != pattern(u, i)) return std::nullopt;
      return u;
    };
    check.name = [](std::uint64_t u) { return "block of node " + std::to_string(u); };
    return meshmp::verify_placement(check);
  }

 private:
  int nodes_;
  std::uint32_t block_bytes_;
  std::uint64_t scratch_bytes_;
};

}  // namespace

void register_ring_shift() {
  meshmp::WorkloadKind workload;
  workload.name = "ring-shift";
  workload.summary = "every node's m-byte block to the next node (i to i+1 mod N)";
  workload.source = "examples/library-user";
  workload.make = [](const meshmp::Topology& topology, const meshmp::ExchangeParameters& parameters,
                     const meshmp::AlgorithmOptions&, std::uint64_t scratch_bytes) -> std::unique_ptr<meshmp::Workload> {
    if (parameters.block_bytes < 2)
      throw meshmp::ConfigError("block_bytes", std::to_string(parameters.block_bytes),
                                "ring-shift names each block in its first two bytes: at least 2");
    return std::make_unique<RingShift>(topology.num_nodes(), parameters.block_bytes, scratch_bytes);
  };
  meshmp::register_workload(std::move(workload));

  meshmp::Algorithm algorithm;
  algorithm.name = "shift-by-one";
  algorithm.summary = "every node sends its block to the next node and receives the previous node's";
  algorithm.source = "examples/library-user";
  algorithm.workload = "ring-shift";
  algorithm.why_unsupported = [](const meshmp::Topology& topology,
                                 const meshmp::ExchangeParameters&) -> std::optional<std::string> {
    if (topology.num_nodes() < 2) return std::string("needs at least 2 nodes");
    return std::nullopt;
  };
  algorithm.estimate_cycles = [](const meshmp::Topology&, const meshmp::ExchangeParameters& parameters) {
    return meshmp::step_cost_cycles(parameters, parameters.block_bytes);
  };
  algorithm.estimate_formula = "t_s + m t_c";
  algorithm.firmware = [](meshmp::NodeApi& api) {
    const int n = api.num_nodes(), me = api.id();
    const std::uint32_t m = api.workload().unit_bytes();
    api.receive((me + n - 1) % n, m, m, 0);
    api.send((me + 1) % n, 0, m, 0);
    api.wait_all();
  };
  meshmp::register_algorithm(std::move(algorithm));
}

}  // namespace library_user
