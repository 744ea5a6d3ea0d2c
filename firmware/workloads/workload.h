// What an exchange moves and where it must end. A workload lays out every node's memory (its data
// regions; the algorithm's scratch follows them), fills it with data whose bytes name each unit (a
// block, a matrix element), and after the run checks every unit's place, naming each lost, duplicated,
// misplaced or corrupted unit by identity, expected node and slot, and where it was found.
// An algorithm declares the workload it solves (Algorithm::workload); a run gives the workload's options
// (`--workload-option KEY=VALUE`, the config file's `workload_options`). A new workload is a class
// derived from Workload and a WorkloadKind registered from its own file (below).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "firmware/api/algorithm_options.h"
#include "firmware/api/exchange_layout.h"
#include "firmware/api/exchange_parameters.h"
#include "firmware/api/exchange_verifier.h"
#include "topology/topology.h"

namespace meshmp {

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  // One line for the run report: the data and where it starts and ends.
  virtual std::string describe() const = 0;
  // The unit of data ("block", "element") and its bytes.
  virtual std::string unit() const = 0;
  virtual std::uint32_t unit_bytes() const = 0;
  // A node's memory: the workload's regions, then the algorithm's scratch from scratch_base().
  virtual std::uint64_t scratch_base() const = 0;
  virtual std::uint64_t memory_bytes() const = 0;
  // Sets node `node`'s memory (memory_bytes() long) to the data it starts with, zeros elsewhere.
  virtual void fill(int node, std::vector<std::uint8_t>& memory) const = 0;
  virtual VerificationReport verify(const MemoryOf& memory_of) const = 0;
  // The block layout of the workloads made of N x N blocks of m bytes (complete exchange, one-to-all);
  // null for the others.
  virtual const ExchangeLayout* block_layout() const { return nullptr; }
};

struct WorkloadKind {
  std::string name;
  std::string summary;
  std::string source;  // paper file and section
  std::vector<AlgorithmOption> options;
  // Builds the workload for a machine; `options` are checked. Throws ConfigError when it does not fit.
  std::function<std::unique_ptr<Workload>(const Topology&, const ExchangeParameters&, const AlgorithmOptions& options,
                                          std::uint64_t scratch_bytes)>
      make;
};

// Every workload: meshmp's own families by list position, then those register_workload() added.
const std::vector<WorkloadKind>& workload_kinds();
// Throws ConfigError("workload", name, "unknown ...; known: ...").
const WorkloadKind& find_workload_kind(const std::string& name);
// The workload `kind` with the run's options (parameters.workload_options, checked against the kind's
// declarations) and `scratch_bytes` of algorithm scratch per node. Throws ConfigError naming the field.
std::unique_ptr<Workload> make_workload(const std::string& kind, const Topology& topology,
                                        const ExchangeParameters& parameters, std::uint64_t scratch_bytes = 0);
// The checked options of workload `kind` in a run.
AlgorithmOptions workload_options(const std::string& kind, const ExchangeParameters& parameters);

// The root of a one-to-all workload; std::invalid_argument for the other workloads.
int one_to_all_root(const Workload& workload);

// Adds `kind` to workload_kinds(), for programs built on the library (register before building a machine).
// Throws ConfigError("workload", name, rule) for an empty or taken name or a missing make.
void register_workload(WorkloadKind kind);

// A family of meshmp's own workloads registers itself in its own file, at static initialisation:
//   namespace { const WorkloadFamilyRegistration kRegistration{20, transpose_workload_kinds}; }
// `list_position` orders the families in workload_kinds() and `meshmp list`, whatever the order the
// linker initialises the files in (the firmware libraries are linked whole: firmware/CMakeLists.txt).
struct WorkloadFamilyRegistration {
  WorkloadFamilyRegistration(int list_position, std::vector<WorkloadKind> (*family)());
};

// The N of a block workload (complete-exchange: k^2 blocks, one-to-all: k) given 004's `words` option
// (0: one word per block), and the block size in bytes it gives; ConfigError naming
// workload_options.words otherwise.
std::uint32_t words_block_bytes(const std::string& workload, const Topology& topology, std::uint32_t word_bytes,
                                std::int64_t words);
// The most bytes one region of a node's memory may hold (1 GiB).
inline constexpr std::uint64_t kMaxRegionBytes = std::uint64_t{1} << 30;

}  // namespace meshmp
