// Exchange algorithms registered by name: each is node firmware written against the NodeApi, with the
// paper section it implements and a check of the machines it supports. A family of meshmp's own is a
// new file that registers itself (AlgorithmFamilyRegistration below); a program that links the installed
// library adds its own with register_algorithm() (docs/library.md).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "firmware/api/algorithm_options.h"
#include "firmware/api/node_api.h"
#include "firmware/api/exchange_parameters.h"
#include "firmware/api/port_rule.h"
#include "topology/topology.h"

namespace meshmp {

// Registered with named fields (see direct_and_pairwise.cpp):
//   Algorithm a; a.name = "..."; a.source = "000 §3"; a.firmware = ...; ...
struct Algorithm {
  std::string name;
  std::string summary;
  std::string source;  // paper file and section
  // Why the algorithm cannot run on this machine (field, value, rule); empty when it can.
  std::function<std::optional<std::string>(const Topology&, const ExchangeParameters&)> why_unsupported;
  std::function<void(NodeApi&)> firmware;
  // The paper's cost-model estimate of the completion time, in cycles, and the formula it comes from.
  std::function<double(const Topology&, const ExchangeParameters&)> estimate_cycles;
  std::string estimate_formula;
  // Options the firmware reads through NodeApi::options().
  std::vector<AlgorithmOption> options;
  // The workload it solves (firmware/workloads/workload.h): how memory starts and where every unit must end.
  std::string workload = "complete-exchange";
  // Scratch memory per node beyond the workload's regions, in bytes, for the machine's topology, its
  // parameters (block size, workload options) and the given options. None by default.
  std::function<std::uint64_t(const Topology&, const ExchangeParameters&, const AlgorithmOptions&)> scratch_bytes =
      [](const Topology&, const ExchangeParameters&, const AlgorithmOptions&) -> std::uint64_t { return 0; };
  // The most distinct peers one node sends to or receives from (the network interface keeps state per
  // peer it talks to: the model's size); empty when it may be every node.
  std::function<std::uint64_t(const Topology&)> peers_per_node;
  // The port rule the machine enforces on every message while the algorithm runs (004 §2,
  // firmware/api/port_rule.h); empty for none.
  std::function<PortRule(const Topology&, const AlgorithmOptions&)> port_rule;
  // True when it sizes its data by the workload's `words` option (004's N; the saad-* algorithms); the
  // others move blocks of block_bytes and refuse the option.
  bool sized_in_words = false;
  // Whether its firmware sends messages (NodeApi::send, receive) on `topology`; null: always. A machine
  // whose nodes have no messages (004's shared memory) refuses an algorithm that sends them.
  std::function<bool(const Topology&)> sends_messages;
  // The paper's estimate for the options given, when it depends on them (004's methods and nu), with
  // what the run chose ("method=pipeline packets=6 ..."); empty: estimate_cycles and estimate_formula.
  struct OptionEstimate {
    double cycles = 0;
    std::string formula;
    std::string choices;
  };
  std::function<OptionEstimate(const Topology&, const ExchangeParameters&, const AlgorithmOptions&)> estimate_for_options;
};

// 000 §2: a contention-free wormhole step moving an m-byte block costs t_s + m t_c; with one flit of
// flit_bytes per cycle on a link, t_c = 1 / flit_bytes cycles per byte.
double step_cost_cycles(const ExchangeParameters& parameters, double bytes);

// The paper's estimate for a run with `options`: estimate_for_options when the algorithm has it, else
// estimate_cycles and estimate_formula (no choices).
Algorithm::OptionEstimate paper_estimate(const Algorithm& algorithm, const Topology& topology,
                                         const ExchangeParameters& parameters, const AlgorithmOptions& options);

// Every algorithm: meshmp's own, then those registered, in the order registered.
const std::vector<Algorithm>& algorithms();
// Throws ConfigError("algorithm", name, "unknown ...; known: ...").
const Algorithm& find_algorithm(const std::string& name);
// Adds `algorithm` to algorithms(), for programs built on the library. Register before building a
// machine (find_algorithm's references stay valid only until the next registration). Throws
// ConfigError("algorithm", name, rule) for an empty or taken name, or a missing firmware,
// why_unsupported or estimate_cycles.
void register_algorithm(Algorithm algorithm);

// A family of meshmp's own algorithms (one algorithm, or a few that share their firmware) registers itself
// in its own file, at static initialisation:
//   namespace { const AlgorithmFamilyRegistration kRegistration{31, tseng_t4_algorithms}; }
// `list_position` orders the families in algorithms() and `meshmp list`, whatever the order the linker
// initialises the files in. The firmware library is linked whole (hw/CMakeLists.txt), so every family's
// file is in every program, referenced or not.
struct AlgorithmFamilyRegistration {
  AlgorithmFamilyRegistration(int list_position, std::vector<Algorithm> (*family)());
};

}  // namespace meshmp
