// The progress line of a long run on a terminal. See progress_line.h.
#include "sims/progress_line.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace meshmp {
namespace {

// 12,345,678
std::string grouped(std::uint64_t value) {
  std::string digits = std::to_string(value);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<std::size_t>(at), ",");
  return digits;
}

}  // namespace

ProgressLine::ProgressLine(const Machine& machine, double estimate_cycles, std::ostream& err, bool quiet)
    : machine_(machine),
      estimate_cycles_(std::isfinite(estimate_cycles) ? estimate_cycles : 0),
      err_(err),
      start_(std::chrono::steady_clock::now()) {
  if (quiet || isatty(STDERR_FILENO) == 0) return;
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
  err_ << "\r" << line.str() << "\033[K" << std::flush;
  printed_ = true;
}

}  // namespace meshmp
