// The meshmp command line: run an exchange algorithm on a modelled machine, sweep a grid of runs,
// regenerate a paper's table, run synthetic traffic, list the algorithms, or measure the speed. Each
// subcommand is a Command of its own (sims/command.h); this adds them, parses, and runs the one given,
// turning its errors into the exit status.
#include <CLI/CLI.hpp>
#include <systemc>

#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "hw/base/stop_request.h"
#include "hw/machine/model_size.h"
#include "sims/build_identity.h"
#include "sims/command.h"
#include "sims/heap_huge_pages.h"
#include "sims/output_file.h"
#include "sims/stop_signals.h"
#include "topology/config_error.h"

namespace {
// This program's own file, for the commands that run points in child processes.
std::string self_path(const char* argv0) {
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) return argv0;
  self[length] = '\0';
  return self;
}
}  // namespace

int sc_main(int argc, char* argv[]) {
  meshmp::start_with_heap_huge_pages(argv);  // once, before the heap grows (sims/heap_huge_pages.h)
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  CLI::App app{
      "meshmp - a SystemC/TLM-2.0 model of a wormhole-routed multiprocessor.\n\n"
      "Processors run exchange algorithms as firmware; DMA engines move real bytes between node memories "
      "through cycle-level wormhole routers of a mesh, torus, hypercube or any Cartesian product. After a "
      "run every node's memory is verified and statistics are written as JSON.\n\n"
      "Exit status: 0 completed and verified, 1 the run failed (deadlock, stall, wrong data), 2 bad input.",
      "meshmp"};
  app.set_version_flag("--version", meshmp::version_line());
  app.require_subcommand(0, 1);

  const std::vector<std::unique_ptr<meshmp::Command>> commands = meshmp::make_commands();
  for (const auto& command : commands) command->add_to(*app.add_subcommand(command->name(), command->summary()));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  meshmp::Command* chosen = commands.front().get();  // `meshmp` alone runs the default machine
  for (const auto& command : commands)
    if (app.got_subcommand(command->name())) chosen = command.get();
  const meshmp::CommandContext context{self_path(argv[0]), std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                       std::cerr};
  try {
    return chosen->run(context);
  } catch (const meshmp::ConfigError& e) {
    std::cerr << "meshmp: error: " << e.what() << "\n";
    return 2;
  } catch (const meshmp::OutputError& e) {
    std::cerr << "meshmp: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {  // std::bad_alloc, or SystemC's sc_report of one thrown in a process
    if (!meshmp::is_out_of_memory(e)) throw;
    std::cerr << "meshmp: error: " << meshmp::out_of_memory_message() << "\n";
    return 2;
  } catch (const meshmp::StopRequested&) {
    std::cerr << "meshmp: stopped by " << meshmp::signal_name(meshmp::stop_signal())
              << "; what finished is written above\n";
    return meshmp::stopped_exit_status();
  }
}

// The program's entry: SystemC's library would print its copyright banner before sc_main; the tool
// silences it (for itself and the child processes of bench and traffic sweeps) and then starts SystemC.
// What it printed must have reached its standard output: a failed write there (a full disk, a closed
// pipe) is an error too.
int main(int argc, char* argv[]) {
  meshmp::install_stop_handlers();  // first: a signal from here on stops the program cleanly
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  int status = sc_core::sc_elab_and_sim(argc, argv);
  errno = 0;
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::cerr << "meshmp: error: writing the standard output failed: "
              << (errno != 0 ? std::strerror(errno) : "the write failed") << "\n";
    if (status == 0) status = 1;
  }
  return status;
}
