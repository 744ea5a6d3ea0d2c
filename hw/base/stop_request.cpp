// The stop request. See stop_request.h.
#include "hw/base/stop_request.h"

#include <atomic>
#include <csignal>

namespace meshmp {
namespace {
std::atomic<int> requested_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");
}  // namespace

void request_stop(int signal_number) noexcept {
  int none = 0;
  requested_signal.compare_exchange_strong(none, signal_number, std::memory_order_relaxed);
}

int stop_signal() noexcept { return requested_signal.load(std::memory_order_relaxed); }

const char* signal_name(int signal_number) noexcept {
  switch (signal_number) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    case SIGUSR1: return "SIGUSR1";
    case SIGUSR2: return "SIGUSR2";
    case SIGALRM: return "SIGALRM";
    default: return "a signal";
  }
}

}  // namespace meshmp
