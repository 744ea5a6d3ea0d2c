// Host threads that step a network's routers in parallel with each other and with the nodes. See
// router_step_pool.h.
//
// A cycle's router work is short (microseconds to a millisecond), so the threads meet by spinning on
// atomics; a worker that has spun for a while without a new cycle (the network is idle, or the simulation
// thread is busy with the nodes' firmware) sleeps on a condition variable so it does not keep a core busy.
#include "hw/network/router_step_pool.h"

#include <utility>

namespace meshmp {

namespace {
// A waiting thread spins, then yields (a host with fewer free cores than threads still makes progress);
// a worker that has waited this long for a cycle sleeps.
constexpr int kSpinsBeforeYield = 1 << 12;
constexpr int kSpinsBeforeSleep = 1 << 15;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
}  // namespace

RouterStepPool::RouterStepPool(int chunks, std::function<void(int)> step_chunk)
    : step_chunk_(std::move(step_chunk)), chunk_state_(static_cast<std::size_t>(chunks)) {
  for (std::atomic<int>& state : chunk_state_) state.store(kStepped);
  for (int k = 0; k < chunks; ++k) workers_.emplace_back([this, k] { work(k); });
}

RouterStepPool::~RouterStepPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_.store(true);
    generation_.fetch_add(1);
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void RouterStepPool::start() {
  // Release: whoever claims a chunk sees everything the simulation thread wrote before.
  for (std::atomic<int>& state : chunk_state_) state.store(kUnclaimed, std::memory_order_release);
  generation_.fetch_add(1);  // seq_cst: ordered against a worker's sleepers_ increment (see work())
  if (sleepers_.load() > 0) {
    std::lock_guard<std::mutex> lock(mutex_);
    wake_.notify_all();
  }
}

bool RouterStepPool::try_step(int chunk) {
  int expected = kUnclaimed;
  std::atomic<int>& state = chunk_state_[static_cast<std::size_t>(chunk)];
  if (!state.compare_exchange_strong(expected, kClaimed, std::memory_order_acq_rel)) return false;
  try {
    step_chunk_(chunk);
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_) failure_ = std::current_exception();
  }
  state.store(kStepped, std::memory_order_release);
  return true;
}

void RouterStepPool::finish() {
  // A chunk whose worker has not started yet (it was asleep, or descheduled) is stepped here instead of
  // waiting for it to wake.
  for (std::size_t k = 0; k < chunk_state_.size(); ++k) try_step(static_cast<int>(k));
  for (const std::atomic<int>& state : chunk_state_)
    for (int spins = 0; state.load(std::memory_order_acquire) != kStepped; ++spins) {
      if (spins < kSpinsBeforeYield) cpu_relax();
      else std::this_thread::yield();
    }
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

void RouterStepPool::work(int chunk) {
  std::uint64_t seen = 0;
  for (;;) {
    std::uint64_t generation = generation_.load(std::memory_order_acquire);
    for (int spins = 0; generation == seen && spins < kSpinsBeforeSleep; ++spins) {
      if (spins < kSpinsBeforeYield) cpu_relax();
      else std::this_thread::yield();
      generation = generation_.load(std::memory_order_acquire);
    }
    if (generation == seen) {
      // Either start() sees sleepers_ > 0 and notifies under the mutex, or this load sees its new generation.
      std::unique_lock<std::mutex> lock(mutex_);
      sleepers_.fetch_add(1);
      wake_.wait(lock, [&] { return (generation = generation_.load()) != seen; });
      sleepers_.fetch_sub(1);
    }
    if (stopping_.load()) return;
    seen = generation;
    // Late (the cycle already finished, or a later one started): claims whatever cycle is current.
    try_step(chunk);
  }
}

}  // namespace meshmp
