// Host threads that step a network's routers while the simulation thread goes on with the nodes. The
// routers are split into chunks of consecutive nodes, one per worker thread; after start(), every worker
// steps its chunk, while the simulation thread steps the nodes (endpoints, firmware: the SystemC side)
// until finish(), where it steps any chunk whose worker has not claimed it yet (a worker asleep after an
// idle stretch) and waits for the others. A chunk normally stays with its worker, so its routers' state
// stays in that core's caches. Routers and nodes only talk through the link calendar, which delivers at
// the earliest one cycle later (hw/router/router_model.h), so within a cycle they are independent: what a
// chunk's routers send is staged (hw/router/staged_router_environment.h) and replayed on the simulation thread
// in node order, and the machine simulated is the same, bit for bit, at any thread count. No worker
// touches SystemC.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace meshmp {

class RouterStepPool {
 public:
  // One worker thread per chunk, calling step_chunk(k) for its chunk k.
  RouterStepPool(int chunks, std::function<void(int)> step_chunk);
  ~RouterStepPool();
  RouterStepPool(const RouterStepPool&) = delete;
  RouterStepPool& operator=(const RouterStepPool&) = delete;

  // Every chunk is to be stepped once; the workers start.
  void start();
  // Steps the chunks no worker has claimed, waits until every chunk is stepped (rethrows what a step threw).
  void finish();

 private:
  void work(int chunk);
  // Steps `chunk` unless another thread has claimed it since start(); true if this call stepped it.
  bool try_step(int chunk);
  enum ChunkState : int { kUnclaimed, kClaimed, kStepped };

  std::function<void(int)> step_chunk_;
  std::vector<std::thread> workers_;
  std::atomic<std::uint64_t> generation_{0};  // bumped by start(): the workers' start signal
  std::vector<std::atomic<int>> chunk_state_;  // ChunkState of each chunk this cycle
  std::atomic<int> sleepers_{0};              // workers blocked on wake_ (idle network, long gaps)
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::exception_ptr failure_;  // the first exception a chunk threw since start() (under mutex_)
};

}  // namespace meshmp
