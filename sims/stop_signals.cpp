// Stopping on SIGINT / SIGTERM / SIGHUP (and the other signals that would end the program), children
// included. See stop_signals.h.
#include "sims/stop_signals.h"

#include <signal.h>

#include <atomic>
#include <stdexcept>

#include "hw/base/stop_request.h"

namespace meshmp {
namespace {

std::atomic<pid_t> running_children[kMaxChildren];

extern "C" void on_stop_signal(int signal_number) {
  request_stop(signal_number);
  for (auto& child : running_children)
    if (const pid_t pid = child.load(std::memory_order_relaxed); pid > 0) kill(pid, signal_number);
}

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  // SIGQUIT, SIGUSR1, SIGUSR2 and SIGALRM would end the program at once by default, leaving its temporary
  // files behind; they stop it as SIGINT does, keeping what finished.
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM})
    sigaction(signal_number, &action, nullptr);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGXFSZ, SIG_IGN);
}

void register_child(pid_t pid) {
  for (auto& child : running_children) {
    pid_t free_slot = 0;
    if (child.compare_exchange_strong(free_slot, pid)) {
      // A stop that came before the child was registered still reaches it.
      if (const int signal_number = stop_signal()) kill(pid, signal_number);
      return;
    }
  }
  throw std::logic_error("more child processes at once than the stop handler can reach");
}

void unregister_child(pid_t pid) {
  for (auto& child : running_children) {
    pid_t registered = pid;
    if (child.compare_exchange_strong(registered, 0)) return;
  }
}

int stopped_exit_status() { return 128 + stop_signal(); }

void throw_if_stop_requested() {
  if (stop_signal() != 0) throw StopRequested{};
}

}  // namespace meshmp
