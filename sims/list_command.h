// `meshmp list`: what there is to run: every registered algorithm with its options, every workload with
// its options, and the routing functions.
#pragma once

#include "sims/command.h"

namespace meshmp {

class ListCommand : public Command {
 public:
  std::string name() const override { return "list"; }
  std::string summary() const override { return "List the exchange algorithms and routing functions."; }
  void add_to(CLI::App&) override {}
  int run(const CommandContext& context) override;
};

}  // namespace meshmp
