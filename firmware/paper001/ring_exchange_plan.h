// The complete-exchange schedule on a ring of n nodes by positive and negative gather-scatter trees
// (001 §2, and §5 for n not a power of two): 2d - 2 combined phases, d = ceil(lg n) (GP_0 .. GP_{d-2},
// SP_{d-2} .. SP_0), each the union of a positive and a negative phase overlapped under the one-port
// model as §2.4 prescribes. The plan says,
// for every phase, which node sends which blocks to which node in which direction; it is a pure function
// of n, computed by moving every block (s, t) through the routing rules of §2.2-2.3:
//   GP_l (senders i with i mod 2^l = 0, to i + 2^l; dist = (t - i) mod n):
//     Case 2 (i mod 2^{l+1} = 0, and every sender of GP_{d-2}, as 001's proof of Theorem 1 says):
//       send the blocks with 2^l <= dist < 2^l + 2^{l+1} (t in SC_{l+1}(v_{i+2^l}));
//     Case 1 (otherwise): send the blocks with dist >= 2^{l+1} (t outside SC_{l+1}(v_i)).
//   SP_l (senders i with i mod 2^l = 0, to i + 2^l): send the blocks with dist >= 2^l.
// §2.4, one-port overlap: GP_0+ keeps only the odd senders (which then also send their block for
// i + 1, whose SP_0+ hop is removed) and SP_0+ only the even ones; the negative phases are shifted by one
// node. The shifted negative tree is exactly the positive tree under the relabelling i -> (1 - i) mod n,
// which carries the n/2 - 1 blocks of negative distance 1 .. n/2 - 1; the positive tree carries
// distances 1 .. n/2. Building the plan checks that every block arrives and that no node sends or
// receives two messages in one combined phase (std::logic_error otherwise).
// Other lengths (001 §5): a sender whose i + 2^l is past the end sends to node 0. 001 gives no routing
// rules for these trees, so a block moves only when it must: when its destination can no longer be
// reached from where it is through the remaining phases without this hop (reachability computed over
// the phases). Where the parity that §2.4's overlap relies on breaks at the wrap, a message that would be
// a node's second in a phase goes in a second part of that phase (named with a prime), right after it;
// of the n shifts of the negative tree, the one with the fewest phases (then blocks) is used.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace meshmp {

struct RingBlock {
  int src;  // ring position of the block's source
  int dst;  // and of its destination
  bool operator<(const RingBlock& o) const { return src != o.src ? src < o.src : dst < o.dst; }
  bool operator==(const RingBlock& o) const { return src == o.src && dst == o.dst; }
};

struct RingMessage {
  int from;
  int to;
  int direction;  // +1: along the positive links, -1: along the negative links
  int hops;       // 2^l: the dilated logical link it takes
  std::vector<RingBlock> blocks;  // in this order on the wire
};

struct RingPhase {
  std::string name;  // "GP_0" .. "SP_0"
  std::vector<RingMessage> messages;
};

struct RingExchangePlan {
  int nodes = 0;
  std::vector<RingPhase> phases;
};

// n must be at least 8 (std::invalid_argument otherwise): on 4 nodes the §2.4 pruning leaves the block
// for i + 2 of an even node with no phase to carry it (001 analyses d >= 3 only).
RingExchangePlan plan_ring_exchange(int n);
// The plan for n, built once per process.
const RingExchangePlan& ring_exchange_plan(int n);

}  // namespace meshmp
