// The complete-exchange verifier. See exchange_verifier.h.
#include "firmware/exchange_verifier.h"

#include <map>
#include <utility>

namespace meshmp {
namespace {

bool holds_block(const std::uint8_t* data, std::uint32_t bytes, int src, int dst) {
  for (std::uint32_t b = 0; b < bytes; ++b)
    if (data[b] != block_pattern_byte(src, dst, b)) return false;
  return true;
}

std::string block_name(int src, int dst) { return "block " + std::to_string(src) + "->" + std::to_string(dst); }
std::string place_name(int node, int slot) {
  return "node " + std::to_string(node) + " slot " + std::to_string(slot);
}

}  // namespace

VerificationReport verify_exchange(const ExchangeLayout& layout,
                                   const std::function<const std::vector<std::uint8_t>&(int node)>& memory_of) {
  VerificationReport report;
  const int n = layout.num_nodes;
  const std::uint32_t m = layout.block_bytes;
  auto add_error = [&](const std::string& text) {
    ++report.error_count;
    if (report.errors.size() < VerificationReport::kMaxListedErrors) report.errors.push_back(text);
  };

  // Slots that do not hold their own block.
  std::vector<std::pair<int, int>> wrong;  // (node, slot)
  for (int dst = 0; dst < n; ++dst) {
    const std::uint8_t* buffer = memory_of(dst).data() + layout.receive_base();
    for (int src = 0; src < n; ++src) {
      ++report.blocks_checked;
      if (holds_block(buffer + static_cast<std::size_t>(src) * m, m, src, dst)) ++report.blocks_correct;
      else wrong.emplace_back(dst, src);
    }
  }
  if (wrong.empty()) return report;

  // Identify what each wrong slot holds: a block whose first bytes match, confirmed over all bytes.
  // Blocks can only have come from the send buffers, so this is an exhaustive search over (src, dst).
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> found;  // block -> wrong places holding it
  const bool searchable = static_cast<std::uint64_t>(n) * n <= 1u << 20;
  for (auto [node, slot] : wrong) {
    const std::uint8_t* data = memory_of(node).data() + layout.receive_base() + static_cast<std::size_t>(slot) * m;
    bool identified = false;
    if (searchable)
      for (int s = 0; s < n && !identified; ++s)
        for (int d = 0; d < n && !identified; ++d)
          if (holds_block(data, m, s, d)) {
            found[{s, d}].emplace_back(node, slot);
            identified = true;
          }
    if (!identified) {
      std::uint32_t first = 0;
      while (first < m && data[first] == block_pattern_byte(slot, node, first)) ++first;
      add_error(place_name(node, slot) + ": expected " + block_name(slot, node) +
                ", found unrecognised data (first wrong byte at offset " + std::to_string(first) + ")");
    }
  }
  for (auto [node, slot] : wrong) {
    const int src = slot, dst = node;
    auto it = found.find({src, dst});
    if (it == found.end()) add_error(block_name(src, dst) + " lost: it is not in " + place_name(dst, src) + " nor anywhere else");
  }
  for (const auto& [block, places] : found) {
    const auto [src, dst] = block;
    // The right place holds it too when that slot is not among the wrong ones.
    bool in_place = true;
    for (auto [node, slot] : wrong)
      if (node == dst && slot == src) in_place = false;
    std::string where;
    for (auto [node, slot] : places) where += (where.empty() ? "" : ", ") + place_name(node, slot);
    if (in_place || places.size() > 1)
      add_error(block_name(src, dst) + " duplicated: also found at " + where);
    else
      add_error(block_name(src, dst) + " misplaced: found at " + where + " instead of " + place_name(dst, src));
  }
  return report;
}

}  // namespace meshmp
