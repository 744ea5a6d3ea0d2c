// What a node's network interface keeps per peer node (message sequence numbers both ways, the head of
// the posted-receive list), in pages of kPageEntries peers allocated when a peer is first touched: an
// exchange that talks to every node costs what a flat array would, one that talks to a few dozen peers
// (the gather-scatter trees of 001 on 32,768 nodes) a few pages instead of an array of every node.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace meshmp {

struct PeerState {
  std::int32_t posted_head = -1;         // its oldest posted receive (slot of the pool), -1 = none
  std::uint32_t next_sequence_to = 0;    // the number of the next message sent to it
  std::uint32_t next_sequence_from = 0;  // the number of the next message from it to admit
};

class PeerTable {
 public:
  static constexpr int kPageEntries = 64;

  explicit PeerTable(int peers) : pages_((static_cast<std::size_t>(peers) + kPageEntries - 1) / kPageEntries) {}

  int size() const { return static_cast<int>(pages_.size()) * kPageEntries; }

  // The peer's state, its page allocated when first touched.
  PeerState& at(int peer) {
    std::unique_ptr<Page>& page = pages_[static_cast<std::size_t>(peer / kPageEntries)];
    if (!page) page = std::make_unique<Page>();
    return page->entries[peer % kPageEntries];
  }
  // The peer's state; the initial one when its page was never touched.
  const PeerState& get(int peer) const {
    const std::unique_ptr<Page>& page = pages_[static_cast<std::size_t>(peer / kPageEntries)];
    static const PeerState untouched;
    return page ? page->entries[peer % kPageEntries] : untouched;
  }
  // Pages allocated so far (the peers of the others are in their initial state).
  std::size_t pages_in_use() const {
    std::size_t used = 0;
    for (const auto& page : pages_) used += page ? 1 : 0;
    return used;
  }

 private:
  struct Page {
    PeerState entries[kPageEntries];
  };
  std::vector<std::unique_ptr<Page>> pages_;
};

}  // namespace meshmp
