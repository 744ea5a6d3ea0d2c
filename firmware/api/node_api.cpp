// Runtime pieces of the node API written in terms of its primitives: the software barrier.
#include "firmware/api/node_api.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace meshmp {

void FirmwareError::prepare_stack_for_throw() {
#if defined(__SANITIZE_ADDRESS__)
  // The frames between the throw and its handler are unwound without their epilogues, and the
  // sanitizer's own frames go below them: clear the redzones of both (a region of the coroutine's stack
  // around this frame; the frames above the handler only lose their redzones for this moment).
  constexpr std::size_t kBelow = 16 * 1024, kAbove = 32 * 1024;
  char* frame = static_cast<char*>(__builtin_frame_address(0));
  __asan_unpoison_memory_region(frame - kBelow, kBelow + kAbove);
#endif
}

// Dissemination barrier: in round r node i signals i + 2^r and waits for i - 2^r (mod N); after
// ceil(log2 N) rounds every node has heard, directly or not, from every other.
void NodeApi::software_barrier() {
  const int n = num_nodes();
  const std::uint32_t epoch = barrier_epoch_++;
  int round = 0;
  for (int distance = 1; distance < n; distance *= 2, ++round) {
    const std::uint32_t tag = kReservedTagBase | ((epoch & 0xffffff) << 6) | static_cast<std::uint32_t>(round);
    Handle r = receive((id() - distance % n + n) % n, 0, 0, tag);
    Handle s = send((id() + distance) % n, 0, 0, tag);
    wait(s);
    wait(r);
  }
}

}  // namespace meshmp
