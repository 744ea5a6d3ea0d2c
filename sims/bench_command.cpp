// `meshmp bench`. See bench_command.h.
#include "sims/bench_command.h"

#include "sims/build_identity.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <systemc>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "firmware/api/algorithm_registry.h"
#include "hw/machine/machine.h"
#include "hw/network/network.h"
#include "hw/network/transaction_network.h"
#include "hw/router/routing.h"
#include "hw/machine/run_statistics.h"
#include "hw/network/traffic_generator.h"
#include "sims/child_process.h"
#include "sims/output_file.h"
#include "sims/stop_signals.h"

namespace meshmp {
namespace {

// The bare SystemC kernel: one method process woken by its own event every cycle.
struct KernelFloor : sc_core::sc_module {
  SC_HAS_PROCESS(KernelFloor);
  explicit KernelFloor(sc_core::sc_module_name name) : sc_core::sc_module(name) {
    SC_METHOD(tick);
    sensitive << event;
  }
  void tick() {
    ++cycles;
    event.notify(1, sc_core::SC_NS);
  }
  sc_core::sc_event event;
  std::uint64_t cycles = 0;
};

nlohmann::json kernel_floor_case() {
  KernelFloor floor("floor");
  const std::uint64_t cycles = 2000000;
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start(sc_core::sc_time(static_cast<double>(cycles), sc_core::SC_NS));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {{"case", "kernel"}, {"simulated_cycles", floor.cycles}, {"host_seconds", seconds}, {"simulated_cycles_per_second", floor.cycles / seconds}};
}

// A case's name: its base, then "-rtl" for verilated routers or "-tlm" for the transaction-level network.
std::string case_name(const std::string& base, const std::string& router_model, NetworkFidelity fidelity) {
  if (fidelity == NetworkFidelity::Transaction) return base + "-tlm";
  return router_model == "cpp" ? base : base + "-" + router_model;
}

// 8x8 mesh, dimension-order routing (or the adaptive `routing`, most credits selected), 4 VCs x 8 flits,
// 4-flit packets, 0.2 flits/node/cycle uniform random, routers of `router_model` stepped on
// `host_threads`, or the transaction-level network.
nlohmann::json uniform_random_case(const std::string& router_model, int host_threads,
                                   NetworkFidelity fidelity = NetworkFidelity::Cycle,
                                   const std::string& routing = "dimension-order") {
  const Topology topology = Topology::parse("mesh:8x8");
  RouterParams params = with_routing(RouterParams{}, routing);
  if (params.adaptive()) params.selection = RouteSelection::MostCredits;
  params.vcs = 4;
  params.buffer_flits = 8;
  params.max_packet_payload_flits = 3;
  params.model = router_model;
  const sc_core::sc_time period(1, sc_core::SC_NS);
  std::unique_ptr<Interconnect> built;
  if (fidelity == NetworkFidelity::Transaction)
    built = std::make_unique<TransactionNetwork>("network", topology, params, PortModel::OnePort,
                                                 find_routing_function("dimension-order"), period);
  else
    built = std::make_unique<Network>("network", topology, params, PortModel::OnePort,
                                      find_routing_function("dimension-order"), period, 20000, host_threads);
  Interconnect& network = *built;
  TrafficParams traffic;
  traffic.flits_per_node_per_cycle = 0.2;
  traffic.packet_flits = 4;
  traffic.warmup_cycles = 10000;
  traffic.measure_cycles = 100000;
  TrafficGenerator generator(network, traffic);
  generator.start();
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start(sc_core::sc_time(static_cast<double>(generator.generation_end_cycle() + 100000), sc_core::SC_NS),
                    sc_core::SC_EXIT_ON_STARVATION);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::uint64_t cycles = network.current_cycle();
  const auto& s = generator.stats();
  const bool adaptive = params.adaptive();
  return {{"case", case_name(adaptive ? "uniform-" + routing : "uniform", router_model, fidelity)},
          {"router_model", router_model},
          {"workload", "mesh:8x8 uniform random, " + routing + (adaptive ? " (most credits)" : "") +
                           ", 4 VCs x 8 flits, 4-flit packets, 0.2 flits/node/cycle"},
          {"simulated_cycles", cycles},
          {"host_seconds", seconds},
          {"simulated_cycles_per_second", cycles / seconds},
          {"flit_hops", network.flit_hops()},
          {"flit_hops_per_second", network.flit_hops() / seconds},
          {"average_packet_latency_cycles", generator.average_latency()},
          {"accepted_flits_per_node_per_cycle", generator.accepted_flits_per_node_per_cycle()},
          {"packets_generated", s.packets_generated},
          {"packets_delivered", s.packets_delivered},
          {"error_count", s.errors.size() + (network.failed() ? 1 : 0)}};
}

// The direct all-to-all on `topology` with `block_bytes`-byte blocks (torus:16x16, 64), routers of
// `router_model` stepped on `host_threads`, or the transaction-level network.
nlohmann::json direct_torus_case(const std::string& router_model, int host_threads,
                                 NetworkFidelity fidelity = NetworkFidelity::Cycle,
                                 const std::string& topology = "torus:16x16", std::uint32_t block_bytes = 64) {
  MachineConfig config;
  config.host_threads = host_threads;
  config.router.model = router_model;
  config.fidelity = fidelity;
  config.topology = topology;
  config.algorithm = "direct";
  config.block_bytes = block_bytes;
  Machine machine("machine", config, find_algorithm("direct"));
  machine.fill_memory();
  const RunResult result = machine.run();
  const double seconds = result.host_seconds;
  const std::string base = topology == "torus:16x16" ? "direct" : "direct-" + topology.substr(topology.find(':') + 1);
  return {{"case", case_name(base, router_model, fidelity)},
          {"router_model", router_model},
          {"workload", "direct all-to-all, " + topology + ", " + std::to_string(block_bytes) +
                           "-byte blocks, default router and node" +
                           (fidelity == NetworkFidelity::Transaction ? ", transaction-level network" : "")},
          {"verified", machine.verify().ok()},
          {"status", to_string(result.status)},
          {"simulated_cycles", result.completion_cycles},
          {"host_seconds", seconds},
          {"simulated_cycles_per_second", result.completion_cycles / seconds},
          {"flit_hops", machine.network().flit_hops()},
          {"flit_hops_per_second", machine.network().flit_hops() / seconds}};
}

// The scale target: the direct exchange on torus:64x64 (4,096 nodes, 16.8 M messages) with 8-byte blocks,
// on two host threads where the host has them; time, peak memory and the verification.
nlohmann::json scale_case() {
  MachineConfig config;
  config.topology = "torus:64x64";
  config.algorithm = "direct";
  config.block_bytes = 8;
  config.host_threads = std::thread::hardware_concurrency() >= 2 ? 2 : 1;
  Machine machine("machine", config, find_algorithm("direct"));
  machine.fill_memory();
  const RunResult result = machine.run();
  const VerificationReport verification = machine.verify();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double seconds = result.host_seconds;
  return {{"case", "scale"},
          {"workload", "direct all-to-all, torus:64x64, 8-byte blocks, default router and node, " +
                           std::to_string(config.host_threads) + " host thread(s)"},
          {"status", to_string(result.status)},
          {"verified", verification.ok()},
          {"simulated_cycles", result.completion_cycles},
          {"host_seconds", seconds},
          {"peak_memory_bytes", static_cast<std::uint64_t>(usage.ru_maxrss) * 1024},
          {"simulated_cycles_per_second", result.completion_cycles / seconds},
          {"flit_hops", machine.network().flit_hops()},
          {"flit_hops_per_second", machine.network().flit_hops() / seconds}};
}

}  // namespace

int run_benchmark_case(const std::string& name, int host_threads, std::ostream& out, std::ostream& err) {
  nlohmann::json result;
  if (name == "kernel") result = kernel_floor_case();
  else if (name == "uniform") result = uniform_random_case("cpp", host_threads);
  else if (name == "uniform-odd-even") result = uniform_random_case("cpp", host_threads, NetworkFidelity::Cycle, "odd-even");
  else if (name == "direct") result = direct_torus_case("cpp", host_threads);
  else if (name == "uniform-rtl") result = uniform_random_case("rtl", host_threads);
  else if (name == "direct-rtl") result = direct_torus_case("rtl", host_threads);
  else if (name == "uniform-tlm") result = uniform_random_case("cpp", 1, NetworkFidelity::Transaction);
  else if (name == "direct-tlm") result = direct_torus_case("cpp", 1, NetworkFidelity::Transaction);
  else if (name == "direct-32x32") result = direct_torus_case("cpp", host_threads, NetworkFidelity::Cycle, "torus:32x32", 8);
  else if (name == "direct-32x32-tlm") result = direct_torus_case("cpp", 1, NetworkFidelity::Transaction, "torus:32x32", 8);
  else if (name == "scale") result = scale_case();
  else {
    err << "meshmp: error: bench case = '" << name
        << "': expected kernel, uniform, uniform-odd-even, direct, uniform-rtl, direct-rtl, uniform-tlm, direct-tlm, direct-32x32, "
           "direct-32x32-tlm or scale\n";
    return 2;
  }
  out << result.dump() << "\n";
  return 0;
}

int run_benchmarks(const std::string& self_path, const std::string& json_path, bool with_scale, int host_threads,
                   std::ostream& out, std::ostream& err) {
  nlohmann::json results = nlohmann::json::array();
  std::vector<std::string> names{"kernel", "uniform", "uniform-odd-even", "direct", "uniform-rtl", "direct-rtl", "uniform-tlm", "direct-tlm"};
  if (with_scale) names.insert(names.end(), {"direct-32x32", "direct-32x32-tlm", "scale"});
  OutputFile json_file;  // checked before the first case runs
  if (!json_path.empty()) json_file = OutputFile("--json", json_path);
  for (const std::string& name : names) {
    throw_if_stop_requested();
    const ChildOutcome outcome =
        run_child_process({self_path, "bench-case", name, "--host-threads", std::to_string(host_threads)});
    if (stopped_with_this_process(outcome)) throw StopRequested{};
    try {
      results.push_back(nlohmann::json::parse(outcome.out));
    } catch (const nlohmann::json::exception&) {
      err << "meshmp: error: bench case " << name << " printed no result (" << outcome.describe() << ")\n";
      return 1;
    }
  }
  const double floor = results[0]["simulated_cycles_per_second"].get<double>();
  out << std::fixed;
  out << "meshmp bench (each case in its own process, routers on " << host_threads
      << " host thread(s); ratios against the bare SystemC kernel measured now)\n";
  out << "  kernel floor: one method process per cycle: " << std::setprecision(0) << floor << " cycles/s\n";
  for (std::size_t i = 1; i < results.size(); ++i) {
    const auto& r = results[i];
    const double cps = r["simulated_cycles_per_second"].get<double>();
    out << "  " << r["case"].get<std::string>() << ": " << r["workload"].get<std::string>() << "\n"
        << "    " << std::setprecision(0) << cps << " simulated cycles/s (one costs " << floor / cps
        << " kernel-floor cycles), " << r["flit_hops_per_second"].get<double>()
        << " flit-hops/s (" << r["flit_hops"] << " flit-hops over " << r["simulated_cycles"] << " cycles in "
        << std::setprecision(2) << r["host_seconds"].get<double>() << " s)\n";
    if (r.contains("average_packet_latency_cycles"))
      out << "    average packet latency " << std::setprecision(2) << r["average_packet_latency_cycles"].get<double>()
          << " cycles, accepted " << std::setprecision(4) << r["accepted_flits_per_node_per_cycle"].get<double>()
          << " flits/node/cycle, " << r["error_count"] << " errors\n";
    if (r.contains("status"))
      out << "    run " << r["status"].get<std::string>()
          << (r.contains("verified") ? r["verified"].get<bool>() ? ", verified" : ", NOT verified" : "") << "\n";
    if (r.contains("peak_memory_bytes"))
      out << "    " << (r["verified"].get<bool>() ? "verified" : "NOT verified") << "; " << std::setprecision(1)
          << r["host_seconds"].get<double>() << " s (target under 300 s), peak memory " << std::setprecision(2)
          << r["peak_memory_bytes"].get<double>() / 1e9 << " GB (target under 1.5 GB)\n";
    // The RTL machine against the SystemC one, the transaction level against the cycle level, on the same
    // workload, measured in this run.
    const std::string name = r["case"].get<std::string>();
    const auto dash = name.rfind('-');
    const std::string variant = dash == std::string::npos ? "" : name.substr(dash + 1);
    if (variant == "rtl" || variant == "tlm")
      for (const auto& base : results)
        if (base["case"] == name.substr(0, dash)) {
          const double ratio = base["simulated_cycles_per_second"].get<double>() / cps;
          if (variant == "rtl")
            out << "    " << std::setprecision(2) << ratio << "x slower than the SystemC routers on the same workload\n";
          else
            out << "    " << std::setprecision(1) << 1 / ratio << "x faster than the cycle level on the same workload\n";
        }
  }
  if (json_file.is_open()) {
    json_file.stream() << nlohmann::json{{"meshmp", build_identity()}, {"cases", results}}.dump(1) << "\n";
    json_file.commit();
    out << "  results: " << json_path << "\n";
  }
  return 0;
}

namespace {
// The host's hardware threads: the most host threads a case may step its routers on.
int host_cores() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }
}  // namespace

void BenchCommand::add_to(CLI::App& command) {
  command.add_option("-o,--json", json_, "also write the results as JSON to this file");
  command.add_flag("--scale", scale_,
                   "also run the scale case: direct exchange on torus:64x64 with 8-byte blocks on 2 host threads "
                   "(about 2.5 minutes here; time and peak memory against the targets 5 minutes and 1.5 GB)");
  command
      .add_option("--host-threads", host_threads_,
                  "host threads stepping the routers in every other case (1.." + std::to_string(host_cores()) +
                      ", this host's hardware threads)  [default 1]")
      ->check(CLI::Range(1, host_cores()));
}

int BenchCommand::run(const CommandContext& context) {
  return run_benchmarks(context.self_path, json_, scale_, host_threads_, context.out, context.err);
}

void BenchCaseCommand::add_to(CLI::App& command) {
  command.add_option("case", case_, "kernel, uniform, direct, uniform-rtl, direct-rtl or scale")->required();
  command.add_option("--host-threads", host_threads_, "host threads stepping the routers")
      ->check(CLI::Range(1, host_cores()));
  command.group("");
}

int BenchCaseCommand::run(const CommandContext& context) {
  return run_benchmark_case(case_, host_threads_, context.out, context.err);
}

}  // namespace meshmp
