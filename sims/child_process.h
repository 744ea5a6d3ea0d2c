// A child process run without a shell: the commands that run points in processes of their own (sweep,
// traffic --rates, paper, bench; SystemC elaborates one machine per process) start meshmp again with an
// argument vector, capture what it prints, and stop it when they are stopped (sims/stop_signals.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace meshmp {

struct ChildOutcome {
  int exit_status = -1;  // -1 when it did not exit
  int signal = 0;        // the signal that ended it, 0 when it exited
  std::string out;       // its standard output
  std::string err;       // its standard error
  // "exit status 2" or "killed by signal 9", and the last line it printed on its standard error.
  std::string describe() const;
};

// The environment variable that gives a child `meshmp run` the file descriptor its progress lines go to
// (sims/progress_line.h), one line each, for the parent to show: it is set only by run_child_process.
constexpr const char* kProgressFdVariable = "MESHMP_PROGRESS_FD";

// Runs `argv` (argv[0] is the program's path) with its standard input from /dev/null. With `on_progress`,
// the child's progress lines (a pipe on its descriptor 3, named by kProgressFdVariable) are handed to it
// as they come, apart from its standard error. Throws std::runtime_error when it cannot be started.
ChildOutcome run_child_process(const std::vector<std::string>& argv,
                               const std::function<void(const std::string&)>& on_progress = {});

// Whether the child ended because this program is being stopped: it ended by (or exited for) SIGINT,
// SIGTERM or SIGHUP and this program's own stop request is there, or arrives within a second (a
// terminal's Ctrl-C reaches the child and this program at once, in either order). A child stopped
// alone is not: its point failed.
bool stopped_with_this_process(const ChildOutcome& outcome);

// `argv` as a command line a user could paste (words quoted where needed): for messages.
std::string command_line(const std::vector<std::string>& argv);

// Splits `text` into arguments as a POSIX shell splits words: blanks separate them, single and double
// quotes and backslashes as the shell reads them; nothing is expanded. Throws ConfigError naming `field`
// for an unbalanced quote or a trailing backslash.
std::vector<std::string> split_arguments(const std::string& field, const std::string& text);

}  // namespace meshmp
