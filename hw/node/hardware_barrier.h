// The machine's hardware barrier: an AND tree over all processors that releases them all
// `latency_cycles` after the last one arrives (the global barrier of 001 §7.1, as hardware).
#pragma once

#include <systemc>

namespace meshmp {

class HardwareBarrier {
 public:
  HardwareBarrier(int participants, sc_core::sc_time latency) : participants_(participants), latency_(latency) {}

  // Called from a processor's thread: returns when every participant has arrived, plus the latency.
  void arrive_and_wait() {
    if (++arrived_ == participants_) {
      arrived_ = 0;
      release_.notify(latency_);
    }
    sc_core::wait(release_);
  }
  sc_core::sc_time latency() const { return latency_; }

 private:
  int participants_;
  int arrived_ = 0;
  sc_core::sc_time latency_;
  sc_core::sc_event release_;
};

}  // namespace meshmp
