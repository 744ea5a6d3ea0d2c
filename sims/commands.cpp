// The subcommands of the meshmp command line. See command.h.
#include "sims/command.h"

#include "sims/bench_command.h"
#include "sims/fidelity_command.h"
#include "sims/check_command.h"
#include "sims/list_command.h"
#include "sims/merge_command.h"
#include "sims/paper_command.h"
#include "sims/run_command.h"
#include "sims/sweep_command.h"
#include "sims/traffic_command.h"

namespace meshmp {

std::vector<std::unique_ptr<Command>> make_commands() {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(std::make_unique<RunCommand>());
  commands.push_back(std::make_unique<ListCommand>());
  commands.push_back(std::make_unique<CheckCommand>());
  commands.push_back(std::make_unique<TrafficCommand>());
  commands.push_back(std::make_unique<BenchCommand>());
  commands.push_back(std::make_unique<SweepCommand>());
  commands.push_back(std::make_unique<MergeCommand>());
  commands.push_back(std::make_unique<PaperCommand>());
  commands.push_back(std::make_unique<FidelityCommand>());
  commands.push_back(std::make_unique<BenchCaseCommand>());
  return commands;
}

}  // namespace meshmp
