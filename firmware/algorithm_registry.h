// Exchange algorithms registered by name: each is node firmware written against the NodeApi, with the
// paper section it implements and a check of the machines it supports. A family of meshmp's own is a
// new file that returns its entries, plus one line in algorithm_registry.cpp; a program that links the
// installed library adds its own with register_algorithm() (docs/library.md).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "firmware/algorithm_options.h"
#include "firmware/node_api.h"
#include "firmware/exchange_parameters.h"
#include "firmware/saad_port_rule.h"
#include "topology/topology.h"

namespace meshmp {

// Registered with named fields (see baseline_exchange.cpp):
//   Algorithm a; a.name = "..."; a.source = "000 §3"; a.firmware = ...; ...
struct Algorithm {
  std::string name;
  std::string summary;
  std::string source;  // paper file and section
  // Empty when the algorithm runs on this machine; otherwise why not (field, value, rule).
  std::function<std::optional<std::string>(const Topology&, const ExchangeParameters&)> supports;
  std::function<void(NodeApi&)> firmware;
  // The paper's cost-model estimate of the completion time, in cycles, and the formula it comes from.
  std::function<double(const Topology&, const ExchangeParameters&)> estimate_cycles;
  std::string estimate_formula;
  // Options the firmware reads through NodeApi::options().
  std::vector<AlgorithmOption> options;
  // The workload it solves (firmware/workload.h): how memory starts and where every unit must end.
  std::string workload = "complete-exchange";
  // Scratch memory per node beyond the workload's regions, in bytes, for the machine's topology, its
  // parameters (block size, workload options) and the given options. None by default.
  std::function<std::uint64_t(const Topology&, const ExchangeParameters&, const AlgorithmOptions&)> scratch_bytes =
      [](const Topology&, const ExchangeParameters&, const AlgorithmOptions&) -> std::uint64_t { return 0; };
  // The most distinct peers one node sends to or receives from (the network interface keeps state per
  // peer it talks to: the model's size); empty when it may be every node.
  std::function<std::uint64_t(const Topology&)> peers_per_node;
  // The port rule the machine enforces on every message while the algorithm runs (004 §2,
  // firmware/saad_port_rule.h); empty for none.
  std::function<PortRule(const Topology&, const AlgorithmOptions&)> port_rule;
  // True when it sizes its data by the workload's `words` option (004's N; the saad-* algorithms); the
  // others move blocks of block_bytes and refuse the option.
  bool sized_in_words = false;
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
// ConfigError("algorithm", name, rule) for an empty or taken name, or a missing firmware, supports or
// estimate_cycles.
void register_algorithm(Algorithm algorithm);

// Algorithm families (one file each).
std::vector<Algorithm> baseline_exchange_algorithms();
std::vector<Algorithm> bruck_exchange_algorithms();
std::vector<Algorithm> tseng_exchange_algorithms();
std::vector<Algorithm> suh_mesh_exchange_algorithms();
std::vector<Algorithm> dima_exchange_algorithms();
std::vector<Algorithm> transpose_direct_algorithms();
std::vector<Algorithm> jh_exchange_algorithms();
std::vector<Algorithm> jh_tree_algorithms();
std::vector<Algorithm> jh_path_algorithms();
std::vector<Algorithm> jh_gray_permute_algorithms();
std::vector<Algorithm> saad_algorithms();

}  // namespace meshmp
