// The complete-exchange verifier: after a run, checks every node's receive buffer against the blocks it
// must hold, and names every lost, duplicated, misplaced or corrupted block by source, destination and
// where it was found.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "firmware/exchange_layout.h"

namespace meshmp {

struct VerificationReport {
  std::uint64_t blocks_checked = 0;
  std::uint64_t blocks_correct = 0;
  std::vector<std::string> errors;  // at most kMaxListedErrors lines
  std::uint64_t error_count = 0;
  bool ok() const { return error_count == 0; }
  static constexpr std::size_t kMaxListedErrors = 50;
};

VerificationReport verify_exchange(const ExchangeLayout& layout,
                                   const std::function<const std::vector<std::uint8_t>&(int node)>& memory_of);

}  // namespace meshmp
