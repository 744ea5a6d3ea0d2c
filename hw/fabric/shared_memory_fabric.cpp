// 004 §2 B's global shared memory as a machine's fabric (tlm/shared_memory.h): word-interleaved banks
// holding a region of a node's memory size per node, k* accesses at once, each tau_M + m / b_M; every
// node's engine a SharedMemoryInterface that reads and writes it.
#include <algorithm>
#include <memory>
#include <string>

#include "hw/fabric/fabric.h"
#include "hw/fabric/shared_memory_interface.h"
#include "tlm/shared_memory.h"

namespace meshmp {
namespace {

class SharedMemoryFabric : public MachineFabric {
 public:
  // One region of a node's memory size per node: room for every node's data at once. Interleaved by words
  // of the workload's unit (004's word).
  explicit SharedMemoryFabric(const FabricBuild& build)
      : memory_("global_memory", build.nodes, static_cast<std::uint64_t>(build.nodes) * build.node_memory_bytes,
                build.params.banks(build.nodes), std::max<std::uint32_t>(1, build.word_bytes),
                build.params.concurrent_transfers,
                FabricTiming{build.params.startup_cycles, build.params.bytes_per_cycle}, build.cycle) {}

  std::unique_ptr<DmaEngine> make_engine(int node, std::size_t memory_bytes) override {
    auto engine = std::make_unique<SharedMemoryInterface>("dma", node, memory_bytes);
    engine->global_port.bind(memory_.processors);  // binding i is node i: nodes are built in order
    return engine;
  }

  void add_statistics(nlohmann::json& fabric) const override {
    const SharedMemoryStatistics& s = memory_.statistics();
    fabric["concurrent_transfers"] = memory_.ports();
    fabric["memory_banks"] = memory_.banks();
    fabric["shared_memory"] = {{"accesses", s.accesses},
                               {"reads", s.reads},
                               {"writes", s.writes},
                               {"bytes_read", s.bytes_read},
                               {"bytes_written", s.bytes_written},
                               {"peak_concurrent_accesses", s.peak_concurrent},
                               {"bank_conflicts", s.bank_conflicts},
                               {"bank_conflict_cycles", s.bank_conflict_cycles},
                               {"port_waits", s.port_waits},
                               {"port_wait_cycles", s.port_wait_cycles},
                               {"busy_cycles", s.busy_cycles}};
  }

 private:
  SharedMemory memory_;
};

FabricKind shared_memory_fabric() {
  FabricKind kind;
  kind.name = "shared-memory";
  kind.summary = "the shared-memory machine";
  kind.operations.global_memory = true;
  kind.operations.messages = false;  // data moves through the global memory only (004 §2 B)
  kind.shared_slots = true;
  kind.handover_at_release = true;
  kind.make = [](const FabricBuild& build) { return std::make_unique<SharedMemoryFabric>(build); };
  kind.describe = [](const FabricParams& params, int nodes) {
    return describe_fabric_timing("shared-memory", params) + ", k* = " + std::to_string(params.concurrent_transfers) +
           ", " + std::to_string(params.banks(nodes)) + " word-interleaved banks";
  };
  kind.describe_statistics = [](const nlohmann::json& fabric) {
    auto n = [](const nlohmann::json& v) { return std::to_string(v.get<std::uint64_t>()); };
    const auto& m = fabric["shared_memory"];
    return "shared memory: " + n(m["writes"]) + " writes, " + n(m["reads"]) + " reads, at most " +
           n(m["peak_concurrent_accesses"]) + " at once; " + n(m["bank_conflicts"]) + " bank conflicts (" +
           n(m["bank_conflict_cycles"]) + " cycles waited), " + n(m["port_waits"]) + " waits for a port (" +
           n(m["port_wait_cycles"]) + " cycles)";
  };
  return kind;
}

const FabricRegistration kRegistration{20, shared_memory_fabric};

}  // namespace
}  // namespace meshmp
