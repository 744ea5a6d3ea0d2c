// A long run's progress, reported from the simulation's own thread: a host thread marks a report due once
// a period; the places that already poll for a stop request (the router network's clock edge, the
// processors' transfers and completions) call poll_progress(), which runs the reporter there, between
// simulated events. Nothing crosses between the threads but one flag, so the reporter reads the machine as
// it is, and a run without a reporter pays one relaxed load per poll.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace meshmp {

namespace progress_detail {
extern std::atomic<bool> report_due;
void report();
}  // namespace progress_detail

// Runs the reporter when a report is due (at most once a period).
inline void poll_progress() {
  if (progress_detail::report_due.load(std::memory_order_relaxed)) progress_detail::report();
}

// While it lives, `report` runs at the first poll after every `period` of host time.
class ProgressPoll {
 public:
  ProgressPoll(std::chrono::milliseconds period, std::function<void()> report);
  ~ProgressPoll();
  ProgressPoll(const ProgressPoll&) = delete;
  ProgressPoll& operator=(const ProgressPoll&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread ticker_;
};

}  // namespace meshmp
