// A program built on the installed meshmp library (docs/library.md), without a line of meshmp's sources
// changed. One machine per process (SystemC elaborates one design), so the case is an argument:
//   library-user machine        builds a 4x4 torus and runs meshmp's `direct` exchange on it
//   library-user algorithm      registers its own algorithm (reverse_direct_exchange.cpp) and runs it
//   library-user router-model   registers its own router model (counting_router.cpp) and runs on it
//   library-user workload       registers its own workload and the algorithm solving it (ring_shift.cpp)
//                               and runs it
//   library-user fabric         registers its own machine, multibus:K (multibus_fabric.cpp), and runs
//                               `direct` on multibus:8
//   library-user tlm-source     binds its own TLM-2.0 module to node 0's DMA registers
//                               (register_traffic_source.cpp): it sends node 0's block for node 1, which
//                               a registered firmware on node 1 receives
// Each prints its completion time (in the machine's clock cycles) and whether the memories are right, and
// exits 1 if not. main() silences SystemC's copyright banner, as the meshmp tool does.
#include <systemc>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "counting_router.h"
#include "firmware/api/algorithm_registry.h"
#include "hw/machine/machine.h"
#include "hw/machine/run_statistics.h"
#include "multibus_fabric.h"
#include "register_traffic_source.h"
#include "reverse_direct_exchange.h"
#include "ring_shift.h"

namespace {

// Node 1 receives one block from node 0 (tag 7); the other nodes' processors run nothing: node 0's
// block is sent by the module bound to its registers.
void register_receive_from_source() {
  meshmp::Algorithm algorithm;
  algorithm.name = "receive-from-source";
  algorithm.summary = "node 1 receives node 0's block for it, sent by a TLM-2.0 module on node 0";
  algorithm.source = "examples/library-user";
  algorithm.why_unsupported = [](const meshmp::Topology& topology, const meshmp::ExchangeParameters&) -> std::optional<std::string> {
    if (topology.num_nodes() < 2) return std::string("needs at least 2 nodes");
    return std::nullopt;
  };
  algorithm.estimate_cycles = [](const meshmp::Topology&, const meshmp::ExchangeParameters& parameters) {
    return meshmp::step_cost_cycles(parameters, parameters.block_bytes);
  };
  algorithm.estimate_formula = "t_s + m t_c";
  algorithm.firmware = [](meshmp::NodeApi& api) {
    if (api.id() == 1) api.wait(api.receive(0, api.layout().receive_block(0), api.layout().block_bytes, 7));
  };
  meshmp::register_algorithm(std::move(algorithm));
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  const std::string use = argc > 1 ? argv[1] : "machine";
  meshmp::MachineConfig config;
  config.topology = "torus:4x4";
  config.algorithm = "direct";
  config.block_bytes = 64;
  if (use == "algorithm") {
    library_user::register_reverse_direct_exchange();
    config.algorithm = "reverse-direct";
  } else if (use == "router-model") {
    library_user::register_counting_router();
    config.router.model = "counting";
  } else if (use == "workload") {
    library_user::register_ring_shift();
    config.algorithm = "shift-by-one";
  } else if (use == "fabric") {
    library_user::register_multibus_fabric();
    config.topology = "multibus:8";
  } else if (use == "tlm-source") {
    register_receive_from_source();
    config.algorithm = "receive-from-source";
  } else if (use != "machine") {
    std::cerr << "library-user: unknown case '" << use << "': machine, algorithm, router-model, workload, fabric or tlm-source\n";
    return 2;
  }
  if (auto error = config.validate()) {
    std::cerr << "library-user: " << *error << "\n";
    return 2;
  }
  meshmp::Machine machine("machine", config, meshmp::find_algorithm(config.algorithm));
  std::unique_ptr<library_user::RegisterTrafficSource> source;
  if (use == "tlm-source") {
    const meshmp::ExchangeLayout& layout = machine.layout();
    source = std::make_unique<library_user::RegisterTrafficSource>(
        "source", 1, layout.send_block(1), layout.block_bytes, 7, machine.node(0).dma().completion_irq());
    source->socket.bind(machine.node(0).register_bus.initiators);
  }
  machine.fill_memory();
  const meshmp::RunResult result = machine.run();
  if (source) {
    const meshmp::ExchangeLayout& layout = machine.layout();
    const auto& sent = machine.node(0).memory.bytes();
    const auto& received = machine.node(1).memory.bytes();
    const bool arrived = std::equal(sent.begin() + layout.send_block(1), sent.begin() + layout.send_block(1) + layout.block_bytes,
                                    received.begin() + layout.receive_block(0));
    const sc_core::sc_time cycle(meshmp::Machine::kClockPeriodNs, sc_core::SC_NS);
    std::cout << "tlm source on node 0: " << (source->sent() ? "sent" : "NOT sent") << " at cycle "
              << static_cast<std::uint64_t>(source->sent_at() / cycle)
              << "; node 1 " << (arrived ? "holds" : "does NOT hold") << " node 0's " << layout.block_bytes
              << "-byte block for it after " << result.completion_cycles << " cycles\n";
    return result.status == meshmp::RunStatus::Completed && source->sent() && arrived ? 0 : 1;
  }
  const meshmp::VerificationReport report = machine.verify();
  std::cout << config.algorithm << " on " << config.topology
            << (machine.fabric_kind() ? " (fabric " + machine.fabric_kind()->name : " (router model " + config.router.model)
            << "): " << result.completion_cycles << " cycles, " << report.units_correct << " of "
            << report.units_checked << " blocks in place\n";
  if (use == "fabric") std::cout << machine.fabric_kind()->describe_statistics(meshmp::fabric_statistics(machine)) << "\n";
  if (use == "router-model")
    std::cout << "counting router: " << library_user::counted_steps() << " router steps, "
              << library_user::counted_flits() << " flits received\n";
  return result.status == meshmp::RunStatus::Completed && report.ok() ? 0 : 1;
}

// SystemC's library prints its copyright banner before sc_main unless told not to; a program of its own
// starts SystemC itself after saying so.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
