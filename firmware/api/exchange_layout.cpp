// Complete-exchange memory layout and block patterns. See exchange_layout.h.
#include "firmware/api/exchange_layout.h"

#include <cstring>

namespace meshmp {

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
    fill_block_pattern(memory.data() + layout.send_block(dst), layout.block_bytes, node, dst);
  }
}

}  // namespace meshmp
