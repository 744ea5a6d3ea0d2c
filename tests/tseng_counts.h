// 001's exact counts for the gather-scatter schedule on a ring of 2^d nodes (d >= 3), as the tests of
// tseng-ring and tseng-t1 assert them: the largest message of each phase (Lemmas 2-5, Corollary 1, plus
// the blocks the §2.4 overlap adds by the proof of Theorem 1) and their total (Theorem 1).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace meshmp {

// Lemma 2 / 5 with Corollary 1 (0 <= l <= d-3), Lemma 3 (GP_{d-2}), Lemma 4 (SP_{d-2}): blocks of the
// largest message of a positive phase, before the §2.4 changes.
inline std::uint64_t lemma_blocks(int d, int l, bool gathering) {
  if (l == d - 2) return gathering ? (1ull << (2 * d - 6)) + 3 * (1ull << (d - 3)) : 1;
  if (l == 0) return std::max<std::uint64_t>((1ull << (d - 1)) - 1, 2);
  const std::uint64_t case1 = (1ull << (d + l - 1)) - 5 * (1ull << (2 * l - 1)) + 3 * (1ull << (l - 1));
  const std::uint64_t case2 = 7 * (1ull << (2 * l - 2));
  return std::max(case1, case2);
}

// The per-phase counts with the blocks §2.4 adds (001 proof of Theorem 1).
inline std::vector<std::uint64_t> expected_phase_blocks(int d) {
  std::vector<std::uint64_t> blocks;
  for (int l = 0; l <= d - 2; ++l) blocks.push_back(lemma_blocks(d, l, true) + (l == 0 || (d == 3 && l == 1)));
  for (int l = d - 2; l >= 0; --l) blocks.push_back(lemma_blocks(d, l, false) + (l == 0));
  return blocks;
}

// Theorem 1's transmission count: Lemma 6 plus 3 (d = 3) or 2 (d >= 4).
inline std::uint64_t theorem1_blocks(int d) {
  const std::uint64_t lemma6 = d <= 5 ? ((31ull << (2 * d - 1)) / 32 + 3 * (1ull << (d - 3)) - 1) / 3
                                      : ((65ull << (2 * d - 1)) / 64 - 3 * (1ull << (d - 2)) - 1) / 3;
  return lemma6 + (d == 3 ? 3 : 2);
}

}  // namespace meshmp
