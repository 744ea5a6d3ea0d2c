// A program built on the installed meshmp library (docs/library.md), without a line of meshmp's sources
// changed. One machine per process (SystemC elaborates one design), so the case is an argument:
//   library-user machine        builds a 4x4 torus and runs meshmp's `direct` exchange on it
//   library-user algorithm      registers its own algorithm (reverse_direct_exchange.cpp) and runs it
//   library-user router-model   registers its own router model (counting_router.cpp) and runs on it
// Each prints its completion time and whether every node's memory is right, and exits 1 if not.
#include <systemc>

#include <iostream>
#include <string>

#include "counting_router.h"
#include "firmware/algorithm_registry.h"
#include "hw/machine.h"
#include "reverse_direct_exchange.h"

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
  } else if (use != "machine") {
    std::cerr << "library-user: unknown case '" << use << "': machine, algorithm or router-model\n";
    return 2;
  }
  if (auto error = config.validate()) {
    std::cerr << "library-user: " << *error << "\n";
    return 2;
  }
  meshmp::Machine machine("machine", config, meshmp::find_algorithm(config.algorithm));
  machine.fill_memory();
  const meshmp::RunResult result = machine.run();
  const meshmp::VerificationReport report = machine.verify();
  std::cout << config.algorithm << " on " << config.topology << " (router model " << config.router.model
            << "): " << result.completion_cycles << " cycles, " << report.units_correct << " of "
            << report.units_checked << " blocks in place\n";
  if (use == "router-model")
    std::cout << "counting router: " << library_user::counted_steps() << " router steps, "
              << library_user::counted_flits() << " flits received\n";
  return result.status == meshmp::RunStatus::Completed && report.ok() ? 0 : 1;
}
