// The verifiers of the block workloads: after a run, check every node's receive buffer against the
// blocks it must hold, and name every lost, duplicated, misplaced or corrupted block by source,
// destination and where it was found (slot s of node d = the receive buffer's block s).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "firmware/api/exchange_layout.h"
#include "firmware/api/placement_verifier.h"

namespace meshmp {

using MemoryOf = std::function<const std::vector<std::uint8_t>&(int node)>;

// Complete exchange: node d holds block (s, d) in slot s, for every s.
VerificationReport verify_exchange(const ExchangeLayout& layout, const MemoryOf& memory_of);
// One-to-all personalized (scatter) from `root`: node d holds block (root, d) in slot d.
VerificationReport verify_scatter(const ExchangeLayout& layout, int root, const MemoryOf& memory_of);

}  // namespace meshmp
