// Complete-exchange memory layout and block patterns. See exchange_layout.h.
#include "firmware/api/exchange_layout.h"

#include <cstring>

namespace meshmp {

std::uint8_t block_pattern_byte(int src, int dst, std::uint32_t index) {
  std::uint32_t x = static_cast<std::uint32_t>(src) * 0x9E3779B1u ^ static_cast<std::uint32_t>(dst) * 0x85EBCA77u ^
                    (index + 1) * 0xC2B2AE3Du;
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  return static_cast<std::uint8_t>(x);
}

namespace {
// Clears `memory` to zero, writing only the words that are not zero already: the pages of a fresh node
// memory, which read as zero without being held (tlm/node_memory.h), stay untouched.
void clear_to_zero(std::vector<std::uint8_t>& memory) {
  std::uint8_t* bytes = memory.data();
  std::size_t i = 0;
  for (; i + 8 <= memory.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes + i, 8);
    if (word != 0) std::memset(bytes + i, 0, 8);
  }
  for (; i < memory.size(); ++i)
    if (bytes[i] != 0) bytes[i] = 0;
}
}  // namespace

void fill_exchange_memory(std::vector<std::uint8_t>& memory, const ExchangeLayout& layout, int node) {
  clear_to_zero(memory);
  for (int dst = 0; dst < layout.num_nodes; ++dst) {
    std::uint8_t* block = memory.data() + layout.send_block(dst);
    for (std::uint32_t b = 0; b < layout.block_bytes; ++b) block[b] = block_pattern_byte(node, dst, b);
  }
}

}  // namespace meshmp
