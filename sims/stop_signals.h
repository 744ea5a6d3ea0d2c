// How meshmp stops on SIGINT, SIGTERM or SIGHUP (and SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, which would
// otherwise end it at once and leave its temporary files behind). The handler records the signal, for
// the simulation to stop at its next clock edge (hw/base/stop_request.h), and forwards it to every child process running, so a
// sweep, a traffic sweep or a paper table stops its children at once and keeps what finished. A command
// that was stopped exits with 128 + the signal's number (130 for SIGINT, 143 for SIGTERM).
#pragma once

#include <sys/types.h>

namespace meshmp {

// Installs the handlers (and ignores SIGPIPE and SIGXFSZ, so a closed pipe or a file-size limit is a
// failed write that meshmp reports, not a silent death).
void install_stop_handlers();
// The children that a stop must reach: registered while they run. At most kMaxChildren at once.
inline constexpr int kMaxChildren = 256;
void register_child(pid_t pid);
void unregister_child(pid_t pid);
// 128 + the signal that stopped the program.
int stopped_exit_status();
// Thrown where a command notices the stop between two pieces of work (what finished is already written):
// the command line ends with stopped_exit_status().
struct StopRequested {};
void throw_if_stop_requested();

}  // namespace meshmp
