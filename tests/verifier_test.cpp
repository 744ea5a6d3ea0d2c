// The exchange verifier names lost, misplaced, duplicated and corrupted blocks by source, destination
// and place (no simulation: memories are built by hand).
#include <gtest/gtest.h>

#include <cstring>

#include "firmware/api/exchange_verifier.h"

namespace meshmp {
namespace {

struct Memories {
  ExchangeLayout layout;
  std::vector<std::vector<std::uint8_t>> nodes;
  explicit Memories(std::uint32_t block_bytes = 16) : layout{4, block_bytes} {
    for (int d = 0; d < layout.num_nodes; ++d) {
      nodes.emplace_back(layout.memory_bytes());
      fill_exchange_memory(nodes.back(), layout, d);
      for (int s = 0; s < layout.num_nodes; ++s)
        for (std::uint32_t b = 0; b < layout.block_bytes; ++b)
          nodes[d][layout.receive_block(s) + b] = block_pattern_byte(s, d, b);
    }
  }
  std::uint8_t* slot(int node, int src) { return nodes[node].data() + layout.receive_block(src); }
  std::uint32_t block_bytes() const { return layout.block_bytes; }
  VerificationReport verify() {
    return verify_exchange(layout, [&](int n) -> const std::vector<std::uint8_t>& { return nodes[n]; });
  }
};

bool mentions(const VerificationReport& r, const std::string& text) {
  for (const auto& e : r.errors)
    if (e.find(text) != std::string::npos) return true;
  return false;
}

TEST(ExchangeVerifier, AcceptsACompleteExchange) {
  Memories m;
  EXPECT_TRUE(m.verify().ok());
  EXPECT_EQ(m.verify().units_checked, 16u);
}

TEST(ExchangeVerifier, NamesALostBlock) {
  Memories m;
  std::memset(m.slot(2, 1), 0, 16);
  const auto r = m.verify();
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(mentions(r, "block 1->2 lost")) << r.errors.front();
  EXPECT_TRUE(mentions(r, "node 2 slot 1: expected block 1->2, found unrecognised data"));
}

TEST(ExchangeVerifier, NamesMisplacedAndDuplicatedBlocks) {
  Memories m;
  std::memcpy(m.slot(3, 0), m.slot(1, 0), 16);  // block 0->1 also lands in node 3's slot for 0
  auto r = m.verify();
  EXPECT_TRUE(mentions(r, "block 0->1 duplicated: also found at node 3 slot 0")) << r.errors.front();
  EXPECT_TRUE(mentions(r, "block 0->3 lost"));

  Memories swapped;
  std::vector<std::uint8_t> tmp(swapped.slot(2, 0), swapped.slot(2, 0) + 16);
  std::memcpy(swapped.slot(2, 0), swapped.slot(2, 1), 16);
  std::memcpy(swapped.slot(2, 1), tmp.data(), 16);
  r = swapped.verify();
  EXPECT_EQ(r.error_count, 2u);
  EXPECT_TRUE(mentions(r, "block 0->2 misplaced: found at node 2 slot 1 instead of node 2 slot 0"));
  EXPECT_TRUE(mentions(r, "block 1->2 misplaced: found at node 2 slot 0 instead of node 2 slot 1"));
}

// One byte changed anywhere in a block is an error naming the block and its place: the first, a middle and
// the last byte of the last node's last block, with 1-, 2- and 64-byte blocks (a verifier that skipped a
// block's last byte would check nothing at all with 1-byte blocks).
TEST(ExchangeVerifier, NamesABlockWithOneByteChanged) {
  for (const std::uint32_t block_bytes : {1u, 2u, 64u})
    for (const std::uint32_t byte : {0u, block_bytes / 2, block_bytes - 1}) {
      Memories m(block_bytes);
      m.slot(3, 3)[byte] ^= 0x01;  // block 3->3, the last node's last block
      const auto r = m.verify();
      const std::string what = std::to_string(block_bytes) + "-byte blocks, byte " + std::to_string(byte);
      EXPECT_EQ(r.error_count, 2u) << what;  // unrecognised data in its place, and the block lost
      EXPECT_EQ(r.units_correct, 15u) << what;
      EXPECT_TRUE(mentions(r, "node 3 slot 3: expected block 3->3, found unrecognised data (first wrong byte at offset " +
                                  std::to_string(byte) + ")"))
          << what << ": " << (r.errors.empty() ? "" : r.errors.front());
      EXPECT_TRUE(mentions(r, "block 3->3 lost")) << what;
    }
}

// Every bit of every byte of a block is checked: each of the 8 bits of the last byte, flipped alone.
TEST(ExchangeVerifier, NamesEveryBitOfTheLastByte) {
  for (int bit = 0; bit < 8; ++bit) {
    Memories m(2);
    m.slot(3, 3)[1] ^= static_cast<std::uint8_t>(1u << bit);
    EXPECT_FALSE(m.verify().ok()) << "bit " << bit;
  }
}

}  // namespace
}  // namespace meshmp
