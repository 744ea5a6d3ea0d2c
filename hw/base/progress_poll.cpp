// A long run's progress, reported from the simulation's own thread. See progress_poll.h.
#include "hw/base/progress_poll.h"

#include <utility>

namespace meshmp {

namespace progress_detail {
std::atomic<bool> report_due{false};
namespace {
std::function<void()> reporter;  // set and cleared on the simulation's thread only
}  // namespace
void report() {
  report_due.store(false, std::memory_order_relaxed);
  if (reporter) reporter();
}
}  // namespace progress_detail

ProgressPoll::ProgressPoll(std::chrono::milliseconds period, std::function<void()> report) {
  progress_detail::reporter = std::move(report);
  ticker_ = std::thread([this, period] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, period, [this] { return stopping_; }))
      progress_detail::report_due.store(true, std::memory_order_relaxed);
  });
}

ProgressPoll::~ProgressPoll() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  ticker_.join();
  progress_detail::report_due.store(false, std::memory_order_relaxed);
  progress_detail::reporter = nullptr;
}

}  // namespace meshmp
