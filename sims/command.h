// One subcommand of the meshmp command line (`meshmp run`, `meshmp sweep`, ...): it declares its options and
// help on its own CLI::App, then runs with what was parsed. sc_main (sims/main.cpp) adds every command of
// make_commands() and runs the one the command line names; a new subcommand is a class in a file of its
// own and one line in make_commands() (sims/commands.cpp).
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace meshmp {

// What a command runs with besides its options.
struct CommandContext {
  std::string self_path;               // this program's file: commands that run points in child processes
  std::vector<std::string> arguments;  // the command line's words after the program name
  std::ostream& out;
  std::ostream& err;
};

class Command {
 public:
  virtual ~Command() = default;
  // The subcommand's word and its one-line summary in `meshmp --help`.
  virtual std::string name() const = 0;
  virtual std::string summary() const = 0;
  // Declares the options, the help's footer (description, examples) and any group on `command`.
  virtual void add_to(CLI::App& command) = 0;
  // Runs after the command line was parsed; returns the exit status. Throws ConfigError for bad input
  // (exit 2), OutputError for a file that could not be written (exit 1).
  virtual int run(const CommandContext& context) = 0;
};

// Every subcommand, in the order `meshmp --help` lists them; the first (run) is what `meshmp` alone runs.
std::vector<std::unique_ptr<Command>> make_commands();

}  // namespace meshmp
