// Many single local copies (a block each, 000 §3.3's rho per byte each), issued as NodeApi::local_copy_each
// batches: the time of a local_copy per piece, one wait per batch, and a few KiB held while waiting.
// For firmware that places its blocks one by one once none of its transfers touches them, or gathers them
// before a send. The send then starts at the same cycle as after a copy per block, and the transaction
// network orders same-cycle hand-overs itself, so no statistic depends on the number of waits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "firmware/api/node_api.h"

namespace meshmp {

class LocalCopyBatch {
 public:
  explicit LocalCopyBatch(NodeApi& api) : api_(api) {}
  void add(std::uint32_t to, std::uint32_t from, std::uint32_t length) {
    copies_.push_back({to, from, length});
    if (copies_.size() == kPieces) flush();
  }
  // Issues what is left; call it before the copies' bytes are used.
  void flush() {
    if (copies_.empty()) return;
    api_.local_copy_each(copies_);
    copies_.clear();
  }

 private:
  static constexpr std::size_t kPieces = 256;
  NodeApi& api_;
  std::vector<LocalCopy> copies_;
};

}  // namespace meshmp
