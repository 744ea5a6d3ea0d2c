// The fabric seam: one of 004 §2's shared-resource machines (a broadcast bus, a global shared memory, an
// Omega switch) joining the nodes instead of a router network, as the machine sees it. Each kind registers
// a FabricKind from its own file (bus_fabric.cpp, shared_memory_fabric.cpp, omega_fabric.cpp); a program
// built on the library calls register_fabric(). The machine, its statistics and the processor know a
// fabric only through this: its node engines, its statistics, its description and the operations it
// offers the firmware. The topology spells the machine `<name>:K` (topology/topology.h).
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/node/dma_engine.h"
#include "hw/node/processor_params.h"

namespace meshmp {

// Paper 004 §2's shared-resource machines (topology bus:K, shared-memory:K, omega:K): tau and b of the
// bus (tau_B, b_B), the memory (tau_M, b_M) or the switch (tau_S, b_S); the bus's and the memory's k*;
// the memory's banks.
struct FabricParams {
  std::uint64_t startup_cycles = 100;  // tau: a transfer's start-up on the fabric, in cycles
  std::uint32_t bytes_per_cycle = 8;   // b: one node's channel to the fabric, bytes per cycle
  int concurrent_transfers = 1;        // k*: transfers the bus, or accesses the memory, serves at once
  int memory_banks = 0;                // the global memory's word-interleaved banks; 0: one per node
  // The banks the memory is built with.
  int banks(int nodes) const { return memory_banks > 0 ? memory_banks : nodes; }
};

// What building one machine's fabric takes.
struct FabricBuild {
  int nodes = 0;
  FabricParams params;
  sc_core::sc_time cycle;
  std::uint64_t node_memory_bytes = 0;  // one node's memory: a global memory holds a region of it per node
  std::uint32_t word_bytes = 1;         // the workload's unit, 004's word: a global memory interleaves by it
};

// One machine's fabric, built (its SystemC modules live as long as it does).
class MachineFabric {
 public:
  virtual ~MachineFabric() = default;
  // Node `node`'s DMA engine, bound to the fabric (the machine builds nodes 0..k-1 in order).
  virtual std::unique_ptr<DmaEngine> make_engine(int node, std::size_t memory_bytes) = 0;
  // Adds what it counted to statistics.fabric (under its own key), beside the common keys.
  virtual void add_statistics(nlohmann::json& fabric) const = 0;
};

struct FabricKind {
  std::string name;           // the topology's spelling `name:K`; statistics.fabric.machine
  std::string summary;        // "the broadcast bus": what error messages call it
  // K must be a power of two (`power_of_two_reason` says why, in the topology's error).
  bool nodes_power_of_two = false;
  std::string power_of_two_reason;
  NodeOperations operations;  // what a node's firmware may ask of it beyond send and receive
  // Its transfers share k* slots (config fabric.concurrent_transfers), which the per-step prediction
  // models; `handover_at_release`: a slot passes to the next transfer when the one holding it releases it.
  bool shared_slots = false;
  bool handover_at_release = false;
  std::function<std::unique_ptr<MachineFabric>(const FabricBuild&)> make;
  // The run summary's line: "bus: tau = 100 cycles, b = 8 bytes/cycle per node, k* = 1".
  std::function<std::string(const FabricParams&, int nodes)> describe;
  // The run summary's line on what add_statistics() counted (statistics.fabric).
  std::function<std::string(const nlohmann::json& fabric)> describe_statistics;
};

// Adds a fabric for programs built on the library (register before building a machine), and its spelling
// `name:K` to the topologies (topology/topology.h). Throws ConfigError naming the field and the rule for
// an empty or taken name or a missing make / describe / describe_statistics.
void register_fabric(FabricKind kind);
// A fabric of meshmp's own registers itself (and its spelling) in its own file, at static initialisation:
//   namespace { const FabricRegistration kRegistration{10, bus_fabric}; }
struct FabricRegistration {
  FabricRegistration(int list_position, FabricKind (*describe)());
};
// ConfigError("fabric", name, "unknown fabric; known: ...") for an unknown one.
const FabricKind& find_fabric(const std::string& name);
// Every fabric offering `operation` as error messages name them: "the broadcast bus, bus:K".
std::string fabrics_offering(bool NodeOperations::*operation);

// Every fabric's topology spelling, for messages: "bus:K, shared-memory:K, omega:K".
std::string fabric_topologies();

// The common start of a fabric's description: "bus: tau = 100 cycles, b = 8 bytes/cycle per node".
std::string describe_fabric_timing(const std::string& name, const FabricParams& params);

}  // namespace meshmp
