// Runtime pieces of the node API written in terms of its primitives: the software barrier.
#include "firmware/node_api.h"

namespace meshmp {

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
