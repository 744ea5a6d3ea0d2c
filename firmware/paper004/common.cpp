// The saad-* algorithms' shared machinery (004 §2, §3). See common.h.
#include "firmware/paper004/common.h"

#include "firmware/api/shared_plan_cache.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include "topology/config_error.h"

namespace meshmp {

std::optional<SaadMachine> saad_machine(const Topology& topology) {
  // 004 §2's shared-resource machines by the fabric's spelling (A, B, F); no other fabric is one of them.
  if (topology.fabric() == "bus") return SaadMachine::Bus;
  if (topology.fabric() == "shared-memory") return SaadMachine::SharedMemory;
  if (topology.fabric() == "omega") return SaadMachine::Switch;
  if (!topology.fabric().empty()) return std::nullopt;
  const int n = topology.num_dimensions();
  bool rings = true, cube = true;
  for (int d = 0; d < n; ++d) {
    const Dimension& dim = topology.dimension(d);
    rings = rings && dim.kind == DimensionKind::Ring && dim.size >= 3;
    cube = cube && dim.kind == DimensionKind::Complete && dim.size == 2;
  }
  if (rings && n == 1) return SaadMachine::Ring;
  if (rings && n == 2) return SaadMachine::Grid;
  if (cube && n >= 1) return SaadMachine::Hypercube;
  return std::nullopt;
}

std::string saad_machine_name(SaadMachine machine) {
  switch (machine) {
    case SaadMachine::Ring: return "ring";
    case SaadMachine::Grid: return "grid";
    case SaadMachine::Hypercube: return "hypercube";
    case SaadMachine::Bus: return "bus";
    case SaadMachine::SharedMemory: return "shared-memory";
    case SaadMachine::Switch: return "switch";
  }
  return "?";
}

PortRule paper_port_rule(SaadMachine machine) {
  switch (machine) {
    case SaadMachine::Ring: return PortRule::Ring;
    case SaadMachine::Grid: return PortRule::Grid;
    case SaadMachine::Hypercube: return PortRule::Hypercube;
    case SaadMachine::Bus:
    case SaadMachine::SharedMemory:
    case SaadMachine::Switch: break;  // one channel per node: the fabric itself serialises a node's transfers
  }
  return PortRule::Unchecked;
}

namespace {

// log2 of a power of two (the switch's stages).
int omega_stages(int nodes) {
  int n = 0;
  while ((1 << n) < nodes) ++n;
  return n;
}

PortRule rule_of(SaadMachine machine, const AlgorithmOptions& options) {
  const std::string rule = options.text("port_rule");
  if (rule == "grid-as-ring" && machine != SaadMachine::Grid)
    throw ConfigError("algorithm_options.port_rule", rule,
                      "reads 004 §2 (D)'s grid rule; this is the " + saad_machine_name(machine) + " machine");
  if (shared_resource(machine)) return PortRule::Unchecked;
  if (rule == "full-duplex") return PortRule::FullDuplex;
  if (rule == "grid-as-ring") return PortRule::GridAsRing;
  return paper_port_rule(machine);
}

// The machine the method needs, or ConfigError naming algorithm_options.method.
SaadMachine checked_machine(const SaadAlgorithmSpec& spec, const Topology& topology, const AlgorithmOptions& options) {
  const auto machine = saad_machine(topology);
  if (!machine)
    throw ConfigError("topology", topology.spec(), spec.name + " runs on 004's machines: bus:k, shared-memory:k, ring:k (k >= 3), 2-D "
                                                   "wraparound grid torus:PxQ (P, Q >= 3), hypercube:n or omega:k");
  const std::string& method = options.text("method");
  std::string here;
  for (const auto& [name, machines] : spec.methods) {
    if (std::find(machines.begin(), machines.end(), *machine) == machines.end()) continue;
    if (name == method) return *machine;
    here += (here.empty() ? "" : ", ") + name;
  }
  throw ConfigError("algorithm_options.method", method,
                    "is not a method of " + spec.name + " on the " + saad_machine_name(*machine) + "; there: " + here);
}

// The method the spec runs by default on `machine`: the first listed for it.
std::string default_method(const SaadAlgorithmSpec& spec, SaadMachine machine) {
  for (const auto& [name, machines] : spec.methods)
    if (std::find(machines.begin(), machines.end(), machine) != machines.end()) return name;
  return spec.methods.front().first;
}

std::vector<AlgorithmOption> options_of(const SaadAlgorithmSpec& spec) {
  std::vector<std::string> methods{"default", "best"};
  std::string help = "004 §3's method (default: the first of its machine's; best: the one whose §3 equation is least "
                     "at this size among those that obey the machine's port rule): ";
  for (const auto& [name, machines] : spec.methods) {
    methods.push_back(name);
    std::string on;
    for (SaadMachine m : machines) on += (on.empty() ? "" : "/") + saad_machine_name(m);
    help += name + " (" + on + ") ";
  }
  std::vector<AlgorithmOption> options{
      {"method", AlgorithmOption::Type::Choice, "default", help, methods},
      {"sync", AlgorithmOption::Type::Choice, "barrier",
       "barrier: the machine's hardware barrier after every step (004 §2's synchronous steps); none: a node starts "
       "its next step when its own messages of this one are done",
       {"barrier", "none"}},
      {"port_rule", AlgorithmOption::Type::Choice, "paper",
       "paper: the machine enforces its 004 §2 port rule (ring, grid, hypercube); grid-as-ring: on the grid, §2 D's "
       "'identical with those of the ring model' read strictly (the ring rule along each dimension); full-duplex: "
       "every link both ways at once (for a method that cannot obey the paper's rule)",
       {"paper", "grid-as-ring", "full-duplex"}}};
  if (spec.pipelined)
    options.push_back(integer_option("packets", 0, 0, std::int64_t{1} << 20,
                                     "nu, the packets on each path (004 (3.4)); 0: the best whole nu near nu_opt"));
  return options;
}

// The options with `method=default` resolved for the machine (method=best is resolved by plan_for).
AlgorithmOptions resolved(const SaadAlgorithmSpec& spec, const Topology& topology, const AlgorithmOptions& options) {
  if (options.text("method") != "default") return options;
  const auto machine = saad_machine(topology);
  std::map<std::string, std::string> values = options.values();
  values["method"] = machine ? default_method(spec, *machine) : spec.methods.front().first;
  return AlgorithmOptions(spec.name, options_of(spec), values);
}

SaadPlan best_plan(const SaadAlgorithmSpec& spec, const Topology& topology, const ExchangeParameters& parameters,
                   const AlgorithmOptions& given, const Workload& workload);

SaadPlan plan_for(const SaadAlgorithmSpec& spec, const Topology& topology, const ExchangeParameters& parameters,
                  const AlgorithmOptions& given, const Workload& workload) {
  if (given.text("method") == "best") return best_plan(spec, topology, parameters, given, workload);
  const AlgorithmOptions options = resolved(spec, topology, given);
  const SaadMachine machine = checked_machine(spec, topology, options);
  const SaadContext context{topology, parameters, options, workload, machine};
  if (machine == SaadMachine::SharedMemory && options.text("sync") == "none")
    throw ConfigError("algorithm_options.sync", "none",
                      "the shared-memory machine's reads must wait for the writes they read: its steps need the barrier");
  SaadPlan plan;
  const std::string operation = spec.name.substr(std::string("saad-").size());
  const bool on_hypercube_schedule =
      machine == SaadMachine::Switch && (operation == "scatter" || operation == "gather" || operation == "multiscatter");
  if (on_hypercube_schedule) {
    // 004 §3.4 F, §3.5 F: the switch runs the hypercube's schedule, node for node (k = 2^n); the
    // multiscatter knows it is on the switch (one pass per exchange, multiscatter.cpp).
    const Topology cube = Topology::parse("hypercube:" + std::to_string(omega_stages(topology.num_nodes())));
    const bool multiscatter = operation == "multiscatter";
    const SaadContext as_cube{cube, parameters, options, workload, multiscatter ? SaadMachine::Switch : SaadMachine::Hypercube};
    plan.program = spec.build(as_cube);
    plan.formula = spec.formula(as_cube, plan.program);
    if (!multiscatter) plan.formula.text = "(3.41), the switch's (3.40) = " + plan.formula.text;
  } else if (shared_resource(machine)) {
    plan.program = fabric_program(operation, context);
    plan.formula = fabric_formula(operation, context, plan.program);
  } else {
    plan.program = spec.build(context);
  }
  if (spec.pipelined && plan.program.packets == 0 && options.integer("packets") != 0)
    throw ConfigError("algorithm_options.packets", std::to_string(options.integer("packets")),
                      "method " + options.text("method") + " of " + spec.name + " does not pipeline");
  if (!shared_resource(machine)) plan.formula = spec.formula(context, plan.program);
  plan.formula.cycles = plan.formula.startups * context.tau() + plan.formula.words / context.b();
  plan.rule = rule_of(machine, options);
  plan.method = options.text("method");
  return plan;
}

// method=best: each of the machine's methods planned in turn; the least §3 equation among the programs
// that obey the port rule wins (the first listed on a tie). A method this size or these options refuse
// (ConfigError) is passed over; when every one is, the default method's refusal is the error.
SaadPlan best_plan(const SaadAlgorithmSpec& spec, const Topology& topology, const ExchangeParameters& parameters,
                   const AlgorithmOptions& given, const Workload& workload) {
  std::map<std::string, std::string> values = given.values();
  values["method"] = "default";
  const AlgorithmOptions as_default(spec.name, options_of(spec), values);
  const SaadMachine machine = checked_machine(spec, topology, resolved(spec, topology, as_default));
  std::optional<SaadPlan> best;
  for (const auto& [name, machines] : spec.methods) {
    if (std::find(machines.begin(), machines.end(), machine) == machines.end()) continue;
    values["method"] = name;
    try {
      SaadPlan plan = plan_for(spec, topology, parameters, AlgorithmOptions(spec.name, options_of(spec), values), workload);
      if (!port_rule_violation(topology, plan.rule, plan.program).empty()) continue;
      if (!best || plan.formula.cycles < best->formula.cycles) best = std::move(plan);
    } catch (const ConfigError&) {
    }
  }
  if (!best) return plan_for(spec, topology, parameters, as_default, workload);
  return *best;
}

// The plan, built once (firmware/api/shared_plan_cache.h): a run asks for the same one several times (its
// scratch size when the machine is built, the paper's estimate before and after the run, and every node
// as it starts). The workload is named by its description (its own options) and where its scratch begins.
std::shared_ptr<const SaadPlan> shared_plan(const SaadAlgorithmSpec& spec, const Topology& topology,
                                            const ExchangeParameters& parameters, const AlgorithmOptions& options,
                                            const Workload& workload) {
  static SharedPlanCache<SaadPlan> cache;
  char rho[32];
  std::snprintf(rho, sizeof rho, "%a", parameters.copy_cycles_per_byte);
  std::string key = spec.name + "|" + topology.spec() + "|" + workload.describe() + "|" +
                    std::to_string(workload.scratch_base()) + "|" + std::to_string(parameters.block_bytes) + "|" +
                    std::to_string(parameters.startup_cycles) + "|" + std::to_string(parameters.flit_bytes) + "|" + rho +
                    "|" + (parameters.all_port ? "all-port" : "one-port") + "|" +
                    std::to_string(parameters.max_packet_payload_flits) + "|" +
                    std::to_string(parameters.concurrent_transfers);
  for (const auto& [name, value] : options.values()) key += "|" + name + "=" + value;
  return cache.get(key, [&] { return plan_for(spec, topology, parameters, options, workload); });
}

// Every node's part of the plan's program (node_parts), found once per plan and shared by the nodes.
const std::vector<SaadNodePart>& shared_node_parts(const std::shared_ptr<const SaadPlan>& plan, int nodes) {
  static std::shared_ptr<const SaadPlan> parts_of;
  static std::vector<SaadNodePart> parts;
  if (parts_of != plan || parts.size() != static_cast<std::size_t>(nodes)) {
    parts = node_parts(plan->program, nodes);
    parts_of = plan;
  }
  return parts;
}

std::string choices_text(const SaadAlgorithmSpec& spec, const AlgorithmOptions& given, const SaadPlan& plan) {
  std::string text = "method=" + plan.method + (given.text("method") == "best" ? " (best)" : "");
  if (spec.pipelined) text += " packets=" + std::to_string(plan.program.packets);
  return text + " sync=" + given.text("sync") + " port_rule=" + port_rule_name(plan.rule);
}

}  // namespace

SaadFormula pipelined_formula(std::uint64_t words, int hops, int packets) {
  SaadFormula f;
  f.startups = packets - 1 + hops;
  f.words = f.startups * static_cast<double>(words) / packets;
  // The machine's packets are whole words: when nu does not divide them, some steps carry one word more
  // than N / nu and the last ones do not, so the expression is exact only when nu divides N.
  f.exact = words % static_cast<std::uint64_t>(packets) == 0;
  return f;
}

Algorithm saad_algorithm(const SaadAlgorithmSpec& spec) {
  Algorithm a;
  a.name = spec.name;
  a.summary = spec.summary;
  a.source = spec.source;
  a.workload = spec.workload;
  a.options = options_of(spec);
  a.sized_in_words = true;
  a.sends_messages = [](const Topology& topology) { return saad_machine(topology) != SaadMachine::SharedMemory; };
  a.why_unsupported = [name = spec.name](const Topology& topology, const ExchangeParameters&) -> std::optional<std::string> {
    if (saad_machine(topology)) return std::nullopt;
    return "topology = '" + topology.spec() + "': " + name +
           " runs on 004's machines: bus:k, shared-memory:k, ring:k (k >= 3), 2-D wraparound grid torus:PxQ "
           "(P, Q >= 3), hypercube:n or omega:k";
  };
  a.firmware = [spec](NodeApi& api) {
    // Every node runs its part of one program, built once (shared_plan), its part found once for all.
    const SaadProgram* program = nullptr;
    const SaadNodePart* part = nullptr;
    {
      const ExchangeParameters parameters = api.cost_parameters();
      const auto plan = shared_plan(spec, api.topology(), parameters, api.options(), api.workload());
      program = &plan->program;
      part = &shared_node_parts(plan, api.topology().num_nodes())[static_cast<std::size_t>(api.id())];
    }
    run_saad_program(api, *program, *part);
  };
  a.port_rule = [spec](const Topology& topology, const AlgorithmOptions& options) {
    const auto machine = saad_machine(topology);
    return machine ? rule_of(*machine, options) : PortRule::Unchecked;
  };
  // Building the plan checks the method against the machine and the packets against the words before
  // the machine is built (ConfigError, exit 2), and says how much scratch the program uses.
  a.scratch_bytes = [spec](const Topology& topology, const ExchangeParameters& parameters,
                           const AlgorithmOptions& options) -> std::uint64_t {
    return shared_plan(spec, topology, parameters, options, *make_workload(spec.workload, topology, parameters))
        ->program.scratch_bytes;
  };
  a.estimate_for_options = [spec](const Topology& topology, const ExchangeParameters& parameters,
                                  const AlgorithmOptions& options) {
    const auto plan = shared_plan(spec, topology, parameters, options, *make_workload(spec.workload, topology, parameters));
    return Algorithm::OptionEstimate{plan->formula.cycles, plan->formula.text, choices_text(spec, options, *plan)};
  };
  a.estimate_cycles = [spec](const Topology& topology, const ExchangeParameters& parameters) {
    const AlgorithmOptions defaults(spec.name, options_of(spec), {});
    return shared_plan(spec, topology, parameters, defaults, *make_workload(spec.workload, topology, parameters))->formula.cycles;
  };
  a.estimate_formula = "004 §3's time for the method run, at the nu it used";
  a.peers_per_node = [](const Topology& topology) { return static_cast<std::uint64_t>(topology.num_ports()); };
  return a;
}

namespace {

std::vector<Algorithm> saad_algorithms() {
  std::vector<Algorithm> list;
  for (auto family : {saad_one_to_one_specs, saad_broadcast_specs, saad_all_to_all_specs, saad_scatter_specs,
                      saad_multiscatter_specs, saad_transpose_specs})
    for (const SaadAlgorithmSpec& spec : family()) list.push_back(saad_algorithm(spec));
  return list;
}

const AlgorithmFamilyRegistration kRegistration{80, saad_algorithms};

}  // namespace

SaadPlan saad_plan(const std::string& algorithm_name, const Topology& topology, const ExchangeParameters& parameters,
                   const std::map<std::string, std::string>& algorithm_options) {
  for (auto family : {saad_one_to_one_specs, saad_broadcast_specs, saad_all_to_all_specs, saad_scatter_specs,
                      saad_multiscatter_specs, saad_transpose_specs})
    for (const SaadAlgorithmSpec& spec : family())
      if (spec.name == algorithm_name) {
        const AlgorithmOptions options(spec.name, options_of(spec), algorithm_options);
        return plan_for(spec, topology, parameters, options, *make_workload(spec.workload, topology, parameters));
      }
  throw ConfigError("algorithm", algorithm_name, "is not a saad-* algorithm");
}

}  // namespace meshmp
