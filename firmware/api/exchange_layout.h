// The complete exchange's data in a node's local memory (000 §3.3 data array, 001 §1, 002 §1: node i
// holds N blocks of m bytes, block (i,j) destined for node j): the send buffer holds block (i,j) at j*m,
// the receive buffer block (j,i) at N*m + j*m, and the scratch area the algorithm declares follows
// (Algorithm::scratch_bytes), for algorithms that rearrange data. Every byte of block (i,j) is a pattern of i, j and the byte index, so the verifier
// can tell which block landed where.
#pragma once

#include <cstdint>
#include <vector>

namespace meshmp {

struct ExchangeLayout {
  int num_nodes = 0;
  std::uint32_t block_bytes = 0;
  std::uint64_t scratch_bytes = 0;

  std::uint32_t send_base() const { return 0; }
  std::uint32_t receive_base() const { return buffer_bytes(); }
  std::uint32_t scratch_base() const { return 2 * buffer_bytes(); }
  std::uint32_t buffer_bytes() const { return static_cast<std::uint32_t>(num_nodes) * block_bytes; }
  std::uint64_t memory_bytes() const { return 2ull * buffer_bytes() + scratch_bytes; }

  std::uint32_t send_block(int dst) const { return send_base() + static_cast<std::uint32_t>(dst) * block_bytes; }
  std::uint32_t receive_block(int src) const { return receive_base() + static_cast<std::uint32_t>(src) * block_bytes; }
};

// Byte `index` of block (src, dst): a hash of the three (inline, so that a loop over a block's bytes keeps
// the part of src and dst once).
inline std::uint8_t block_pattern_byte(int src, int dst, std::uint32_t index) {
  std::uint32_t x = static_cast<std::uint32_t>(src) * 0x9E3779B1u ^ static_cast<std::uint32_t>(dst) * 0x85EBCA77u ^
                    (index + 1) * 0xC2B2AE3Du;
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  return static_cast<std::uint8_t>(x);
}
// The `bytes` bytes of block (src, dst).
inline void fill_block_pattern(std::uint8_t* block, std::uint32_t bytes, int src, int dst) {
  for (std::uint32_t b = 0; b < bytes; ++b) block[b] = block_pattern_byte(src, dst, b);
}
// Fills node `node`'s send buffer with its N blocks and clears the rest of its memory.
void fill_exchange_memory(std::vector<std::uint8_t>& memory, const ExchangeLayout& layout, int node);

}  // namespace meshmp
