// What the saad-* algorithms (paper 004 §3 on its six machines) share: which of 004's machines a topology
// is (§2 A: bus:k; §2 B: shared-memory:k; §2 C: ring:k; §2 D: the 2-D wraparound grid torus:PxQ; §2 E:
// hypercube:n; §2 F: omega:k), its port rule, the options every one of them takes (sync, port_rule, packets, method), and the registration
// of one algorithm from its program builder and the paper's formula for it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "firmware/api/algorithm_registry.h"
#include "firmware/paper004/step_program.h"
#include "firmware/workloads/workload.h"

namespace meshmp {

// 004 §2's six machines: the shared-resource ones (A bus, B shared memory, F switch) and the nearest-
// neighbour ones (C ring, D grid, E hypercube).
enum class SaadMachine { Ring, Grid, Hypercube, Bus, SharedMemory, Switch };
inline bool shared_resource(SaadMachine machine) {
  return machine == SaadMachine::Bus || machine == SaadMachine::SharedMemory || machine == SaadMachine::Switch;
}

// Which of 004's nearest-neighbour machines `topology` is; empty for any other.
std::optional<SaadMachine> saad_machine(const Topology& topology);
std::string saad_machine_name(SaadMachine machine);
// 004 §2's rule for the machine.
PortRule paper_port_rule(SaadMachine machine);

// Everything a program builder reads: the machine, its parameters, the options and the workload.
struct SaadContext {
  const Topology& topology;
  const ExchangeParameters& parameters;
  const AlgorithmOptions& options;
  const Workload& workload;
  SaadMachine machine;
  double tau() const { return static_cast<double>(parameters.startup_cycles); }
  double b() const { return words_per_cycle(parameters); }
  const std::string& method() const { return options.text("method"); }
};

// The paper's time for the program run (its expression at the program's nu): every 004 expression is
// startups tau + words / b, so it is kept as those two coefficients (the start-ups on the critical path
// and the words it transmits), with the cycles on this machine (tau = t_s, b = link words per cycle).
struct SaadFormula {
  double startups = 0;
  double words = 0;
  double cycles = 0;
  std::string text;    // "(3.5): (nu - 1 + i)(tau + N / (nu b)), i = 4, nu = 6"
  bool exact = true;   // an exact count (the machine must measure it); false: an approximation or a bound
};
// A pipeline of `words` in nu packets over i hops (004 (3.4)): nu - 1 + i start-ups of words / nu (exact
// when nu divides the words).
SaadFormula pipelined_formula(std::uint64_t words, int hops, int packets);

// One saad-* algorithm: the methods it has per machine (the first is the default), the program builder
// and the paper's formula. Build and formula throw ConfigError for a method the machine does not have.
struct SaadAlgorithmSpec {
  std::string name;
  std::string summary;
  std::string source;
  std::string workload;
  // method -> machines it runs on, in the order `meshmp list` shows them.
  std::vector<std::pair<std::string, std::vector<SaadMachine>>> methods;
  std::function<SaadProgram(const SaadContext&)> build;
  std::function<SaadFormula(const SaadContext&, const SaadProgram&)> formula;
  bool pipelined = false;  // takes the packets option
};
Algorithm saad_algorithm(const SaadAlgorithmSpec& spec);

// The program and the paper's formula for a run of `algorithm_name` (a saad-* algorithm) on the machine,
// as the firmware builds it; the tests' and the paper tables' way to it without a simulation.
struct SaadPlan {
  SaadProgram program;
  SaadFormula formula;
  PortRule rule = PortRule::Unchecked;
  std::string method;  // the method it runs (method=default and method=best resolved)
};
SaadPlan saad_plan(const std::string& algorithm_name, const Topology& topology, const ExchangeParameters& parameters,
                   const std::map<std::string, std::string>& algorithm_options = {});



// The program builders, one family per file.
std::vector<SaadAlgorithmSpec> saad_one_to_one_specs();
std::vector<SaadAlgorithmSpec> saad_broadcast_specs();
std::vector<SaadAlgorithmSpec> saad_all_to_all_specs();
std::vector<SaadAlgorithmSpec> saad_scatter_specs();
std::vector<SaadAlgorithmSpec> saad_multiscatter_specs();
std::vector<SaadAlgorithmSpec> saad_transpose_specs();

// The six operations on the bus and the shared memory, and the switch's own ones
// (firmware/paper004/fabric_programs.cpp): the program for c.method() on c.machine, and its formula.
SaadProgram fabric_program(const std::string& operation, const SaadContext& c);
SaadFormula fabric_formula(const std::string& operation, const SaadContext& c, const SaadProgram& program);

}  // namespace meshmp
