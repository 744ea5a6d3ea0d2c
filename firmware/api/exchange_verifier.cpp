// The block workloads' verifiers. See exchange_verifier.h.
#include "firmware/api/exchange_verifier.h"

namespace meshmp {
namespace {

std::string block_name(int src, int dst) { return "block " + std::to_string(src) + "->" + std::to_string(dst); }

bool holds_block(const std::uint8_t* data, std::uint32_t bytes, int src, int dst) {
  for (std::uint32_t b = 0; b < bytes; ++b)
    if (data[b] != block_pattern_byte(src, dst, b)) return false;
  return true;
}

// What every block check shares: a slot is a block of the receive buffer; its data is block (src, dst)
// for some src < N, dst < N (found by an exhaustive search, bounded); units are numbered by `number`.
PlacementCheck block_check(const ExchangeLayout& layout, const MemoryOf& memory_of,
                           std::function<std::uint64_t(int src, int dst)> number) {
  const int n = layout.num_nodes;
  const std::uint32_t m = layout.block_bytes;
  PlacementCheck check;
  check.unit = "block";
  check.unit_bytes = m;
  check.read = [receive_base = layout.receive_base(), memory_of, m](Place place) {
    return memory_of(place.node).data() + receive_base + place.slot * m;
  };
  const bool searchable = static_cast<std::uint64_t>(n) * n <= 1u << 20;
  check.identify = [n, m, searchable, number](const std::uint8_t* data) -> std::optional<std::uint64_t> {
    if (!searchable) return std::nullopt;
    for (int s = 0; s < n; ++s)
      for (int d = 0; d < n; ++d)
        if (holds_block(data, m, s, d)) return number(s, d);
    return std::nullopt;
  };
  return check;
}

}  // namespace

VerificationReport verify_exchange(const ExchangeLayout& layout, const MemoryOf& memory_of) {
  const int n = layout.num_nodes;
  // Unit k is block (k % N, k / N): node by node, as the receive buffers lie.
  PlacementCheck check = block_check(layout, memory_of, [n](int src, int dst) {
    return static_cast<std::uint64_t>(dst) * n + src;
  });
  check.units = static_cast<std::uint64_t>(n) * n;
  check.expected_place = [n](std::uint64_t k) { return Place{static_cast<int>(k / n), k % n}; };
  check.expected = [n, m = layout.block_bytes](std::uint64_t k, std::uint8_t* bytes) {
    fill_block_pattern(bytes, m, static_cast<int>(k % n), static_cast<int>(k / n));
  };
  check.name = [n](std::uint64_t k) { return block_name(static_cast<int>(k % n), static_cast<int>(k / n)); };
  return verify_placement(check);
}

VerificationReport verify_scatter(const ExchangeLayout& layout, int root, const MemoryOf& memory_of) {
  const int n = layout.num_nodes;
  // Unit k is block (root, k), in slot k of node k. A block of another source cannot be the root's.
  PlacementCheck check = block_check(layout, memory_of, [n, root](int src, int dst) {
    return src == root ? static_cast<std::uint64_t>(dst) : static_cast<std::uint64_t>(n) * n;
  });
  const auto identify_any = check.identify;
  check.identify = [identify_any, n](const std::uint8_t* data) -> std::optional<std::uint64_t> {
    auto unit = identify_any(data);
    if (unit && *unit < static_cast<std::uint64_t>(n)) return unit;
    return std::nullopt;
  };
  check.units = static_cast<std::uint64_t>(n);
  check.expected_place = [](std::uint64_t k) { return Place{static_cast<int>(k), k}; };
  check.expected = [root, m = layout.block_bytes](std::uint64_t k, std::uint8_t* bytes) {
    fill_block_pattern(bytes, m, root, static_cast<int>(k));
  };
  check.name = [root](std::uint64_t k) { return block_name(root, static_cast<int>(k)); };
  return verify_placement(check);
}

}  // namespace meshmp
