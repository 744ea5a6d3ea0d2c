// The progress line of a long run on a terminal. See progress_line.h.
#include "sims/progress_line.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <sstream>

#include "sims/child_process.h"

namespace meshmp {
namespace {

// 12,345,678
std::string grouped(std::uint64_t value) {
  std::string digits = std::to_string(value);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<std::size_t>(at), ",");
  return digits;
}

// The pipe the parent named for this run's progress (kProgressFdVariable), or -1. The variable is taken
// out of the environment: it is this process's, not its children's.
int parent_progress_fd() {
  const char* text = std::getenv(kProgressFdVariable);
  if (text == nullptr) return -1;
  const int fd = std::atoi(text);
  unsetenv(kProgressFdVariable);
  struct stat about;
  return fd > 2 && fstat(fd, &about) == 0 && S_ISFIFO(about.st_mode) ? fd : -1;
}

}  // namespace

ProgressLine::ProgressLine(const Machine& machine, double estimate_cycles, std::ostream& err, bool quiet)
    : machine_(machine),
      estimate_cycles_(std::isfinite(estimate_cycles) ? estimate_cycles : 0),
      err_(err),
      start_(std::chrono::steady_clock::now()),
      parent_fd_(parent_progress_fd()) {
  if (parent_fd_ < 0 && (quiet || isatty(STDERR_FILENO) == 0)) return;
  poll_ = std::make_unique<ProgressPoll>(std::chrono::milliseconds(1000), [this] { print(); });
}

ProgressLine::~ProgressLine() {
  poll_.reset();
  if (printed_) err_ << "\r\033[K" << std::flush;  // the line goes; the summary follows on a clean line
}

void ProgressLine::print() {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::uint64_t cycle = machine_.current_cycle();
  const double rate = seconds > 0 ? static_cast<double>(cycle) / seconds : 0;
  std::ostringstream line;
  line << "  simulated cycle " << grouped(cycle) << ", " << grouped(machine_.messages().received())
       << " messages delivered, " << grouped(static_cast<std::uint64_t>(rate)) << " cycles/s";
  if (rate > 0 && estimate_cycles_ > static_cast<double>(cycle))
    line << ", about " << std::fixed << std::setprecision(0) << (estimate_cycles_ - static_cast<double>(cycle)) / rate
         << " s left to the paper's estimate";
  if (parent_fd_ >= 0) {
    const std::string text = line.str().substr(2) + "\n";  // a write of a pipe's atomic size: whole or not at all
    if (write(parent_fd_, text.data(), text.size()) < 0) parent_fd_ = -1;  // the parent went: no more reports
    return;
  }
  err_ << "\r" << line.str() << "\033[K" << std::flush;
  printed_ = true;
}

}  // namespace meshmp
