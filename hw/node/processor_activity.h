// What a node's processor reports of what its firmware does, as it does it: the one hook through which
// a processor is observed. The run's zero-load model listens (hw/node/zero_load_observer.h); a model of
// energy or a trace of the schedule would listen the same way.
#pragma once

#include <cstdint>
#include <vector>

#include "firmware/api/node_api.h"

namespace meshmp {

class ProcessorActivity {
 public:
  virtual ~ProcessorActivity() = default;
  // A new step mark.
  virtual void begin_step(int node, int step) = 0;
  // The node's step ends: the listener's cost of it (cycles from the step's start), which the step
  // statistics record beside what the step carried.
  virtual std::uint64_t close_step(int node) = 0;
  // A send (or fabric transfer) is about to be issued to `peer` (the node itself for a broadcast or a
  // shared access)...
  virtual void sending(int node, int peer, std::uint32_t length, const std::vector<int>& route) = 0;
  // ...and was issued as descriptor `handle`.
  virtual void issued(int node, Handle handle) = 0;
  // A wait on `handle` returned.
  virtual void completed(int node, Handle handle) = 0;
  // wait_all() returned: descriptors `first` .. `end` - 1 completed, and every descriptor so far is done with.
  virtual void completed_all(int node, Handle first, Handle end) = 0;
  // Copies, computation and a barrier's latency: cycles on the node's processor.
  virtual void local_work(int node, std::uint64_t cycles) = 0;
};

}  // namespace meshmp
