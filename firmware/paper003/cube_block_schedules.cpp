// Whole-block schedules on the n-cube. See cube_block_schedules.h.
//
// The combined transpose-conversion (003 §6.3), derived bit by bit. A block sits at position (a || b);
// before iteration j its row and column bits above j already hold its destination's, those at and below
// j are still its source's. Its destination's row bit j is rho_a(v)_j and the source holds v in the
// column part as gamma_b(v):
//   rho_a = gamma_b: the bit itself, R = 0;
//   rho_a binary, gamma_b Gray: v_j = G(v)_j xor v_{j+1}, and v_{j+1} is the position's row bit j+1: R = that bit;
//   rho_a Gray, gamma_b binary: G(v)_j = v_j xor v_{j+1}, v_{j+1} = parity of the row bits above j: R = that parity.
// The column bit j likewise gives C from gamma_a and rho_b with the column bits above j. For 003's
// algorithm (rows binary, columns Gray, kept so in A^T) R is "odd block row" and C "odd-parity block
// column", the pseudo-code's flags. For binary -> Gray (both) the derivation gives R and C both
// parities, and for Gray -> binary both block bits: the reverse of what the section's last paragraph
// says (it swaps the two variants); tests/gray_transpose_test.cpp shows the section's reading misplacing
// blocks and this one exact.
#include "firmware/paper003/cube_block_schedules.h"

#include <algorithm>
#include <stdexcept>

#include "firmware/paper003/transpose_layout.h"

namespace meshmp {
namespace {

int bit(int x, int i) { return (x >> i) & 1; }
int parity_above(int part, int j, int half) {
  int p = 0;
  for (int i = j + 1; i < half; ++i) p ^= bit(part, i);
  return p;
}

}  // namespace

int gray_transpose_destination(int x, int n, const CodeChange& codes) {
  const int half = n / 2;
  const int mask = (1 << half) - 1;
  const std::uint32_t row = static_cast<std::uint32_t>(x >> half), column = static_cast<std::uint32_t>(x & mask);
  const std::uint32_t u = codes.rows_gray_before ? gray_inverse(row) : row;
  const std::uint32_t v = codes.columns_gray_before ? gray_inverse(column) : column;
  const std::uint32_t new_row = codes.rows_gray_after ? gray(v) : v;
  const std::uint32_t new_column = codes.columns_gray_after ? gray(u) : u;
  return static_cast<int>((new_row << half) | new_column);
}

IterationFlags gray_transpose_flags(int n, const CodeChange& codes) {
  const int half = n / 2;
  return [half, codes](int position, int j) {
    const int row = position >> half, column = position & ((1 << half) - 1);
    int r = 0, c = 0;
    if (!codes.rows_gray_after && codes.columns_gray_before) r = j + 1 < half ? bit(row, j + 1) : 0;
    if (codes.rows_gray_after && !codes.columns_gray_before) r = parity_above(row, j, half);
    if (!codes.columns_gray_after && codes.rows_gray_before) c = j + 1 < half ? bit(column, j + 1) : 0;
    if (codes.columns_gray_after && !codes.rows_gray_before) c = parity_above(column, j, half);
    return std::pair<int, int>{r, c};
  };
}

MoveSchedule combined_gray_transpose_schedule(int n, const IterationFlags& flags) {
  const int half = n / 2;
  const int nodes = 1 << n;
  std::vector<int> block_at(nodes);  // position -> block
  for (int x = 0; x < nodes; ++x) block_at[x] = x;
  MoveSchedule schedule;
  for (int j = half - 1; j >= 0; --j) {
    std::vector<BlockMove> first, second;
    std::vector<int> next(nodes, -1);
    const int row_dim = j + half, column_dim = j;
    for (int position = 0; position < nodes; ++position) {
      const auto [r, c] = flags(position, j);
      const int s = bit(position, row_dim), t = bit(position, column_dim);
      int target = position;
      target = (target & ~(1 << row_dim)) | ((r ^ t) << row_dim);
      target = (target & ~(1 << column_dim)) | ((c ^ s) << column_dim);
      const int block = block_at[position];
      next[target] = block;
      const int moved = target ^ position;
      if (moved == ((1 << row_dim) | (1 << column_dim))) {
        // Across the diagonal: out on the row dimension, relayed on along the column dimension.
        const int relay = position ^ (1 << row_dim);
        first.push_back({block, position, relay});
        second.push_back({block, relay, target});
      } else if (moved != 0) {
        first.push_back({block, position, target});
      }
    }
    block_at = next;
    schedule.push_back(first);
    schedule.push_back(second);
  }
  return schedule;
}

MoveSchedule naive_gray_transpose_schedule(int n, const CodeChange& codes) {
  const int half = n / 2;
  const int nodes = 1 << n;
  std::vector<int> position(nodes);  // block -> position
  for (int x = 0; x < nodes; ++x) position[x] = x;
  MoveSchedule schedule;
  // One conversion step: every block whose position has bit `control` set crosses dimension `dim`.
  auto convert_step = [&](int dim, int control) {
    std::vector<BlockMove> step;
    for (int b = 0; b < nodes; ++b)
      if (bit(position[b], control)) {
        step.push_back({b, position[b], position[b] ^ (1 << dim)});
        position[b] ^= 1 << dim;
      }
    schedule.push_back(step);
  };
  // Before the transpose the row part must hold gamma_a(u) and the column part rho_a(v).
  auto convert = [&](int offset, bool from_gray, bool to_gray) {
    if (from_gray == to_gray) return;
    if (to_gray)  // binary -> Gray: bit i ^= bit i+1, low bits first (the bits above are still binary)
      for (int i = 0; i + 1 < half; ++i) convert_step(offset + i, offset + i + 1);
    else  // Gray -> binary: bit i ^= binary bit i+1, high bits first
      for (int i = half - 2; i >= 0; --i) convert_step(offset + i, offset + i + 1);
  };
  convert(half, codes.rows_gray_before, codes.columns_gray_after);
  convert(0, codes.columns_gray_before, codes.rows_gray_after);
  // The transpose: swap the halves, SPT's order g(i), f(i) from the top, one dimension per step.
  std::vector<int> target(nodes);
  for (int b = 0; b < nodes; ++b) {
    const int p = position[b];
    target[b] = ((p & ((1 << half) - 1)) << half) | (p >> half);
  }
  for (int i = half - 1; i >= 0; --i)
    for (int dim : {i, i + half}) {
      std::vector<BlockMove> step;
      for (int b = 0; b < nodes; ++b)
        if (bit(position[b], dim) != bit(target[b], dim)) {
          step.push_back({b, position[b], position[b] ^ (1 << dim)});
          position[b] ^= 1 << dim;
        }
      schedule.push_back(step);
    }
  return schedule;
}

int permuted_node(int x, const std::vector<int>& delta) {
  int y = 0;
  for (std::size_t i = 0; i < delta.size(); ++i) y |= bit(x, delta[i]) << i;
  return y;
}

std::vector<std::vector<std::pair<int, int>>> parallel_swaps(const std::vector<int>& delta) {
  // Lemma 15: split the dimension positions into two halves; swapping the k positions of the first
  // half whose data belongs in the second with the k of the second whose data belongs in the first
  // leaves each half a permutation of its own, done concurrently; halves of halves after that.
  // Positions are padded to a power of two (virtual dimensions, as the lemma's proof says).
  const int n = static_cast<int>(delta.size());
  int size = 1;
  while (size < n) size *= 2;
  // wanted[i]: the dimension whose bit must end at position i, as it sits now (identity on padding).
  std::vector<int> where(size);  // where[d]: the position holding source dimension d now
  for (int d = 0; d < size; ++d) where[d] = d;
  std::vector<std::vector<std::pair<int, int>>> steps;
  for (int block = size; block > 1; block /= 2) {
    std::vector<std::pair<int, int>> swaps;
    for (int start = 0; start < size; start += block) {
      const int middle = start + block / 2;
      // Source dimensions sitting in one half but wanted in the other.
      std::vector<int> low_out, high_out;  // positions
      for (int p = start; p < start + block; ++p) {
        int d = -1;
        for (int k = 0; k < size; ++k)
          if (where[k] == p) d = k;
        // The target position of source dimension d: the i with delta[i] == d (padding: itself).
        int target = d;
        for (int i = 0; i < n; ++i)
          if (delta[i] == d) target = i;
        const bool in_low = p < middle, wants_low = target < middle;
        if (in_low && !wants_low) low_out.push_back(p);
        if (!in_low && wants_low) high_out.push_back(p);
      }
      for (std::size_t k = 0; k < low_out.size(); ++k) swaps.emplace_back(low_out[k], high_out[k]);
    }
    for (const auto& [a, b] : swaps)
      for (int d = 0; d < size; ++d) {
        if (where[d] == a) where[d] = b;
        else if (where[d] == b) where[d] = a;
      }
    if (!swaps.empty()) steps.push_back(swaps);
  }
  return steps;
}

std::vector<std::vector<std::pair<int, int>>> swapping_steps(const std::vector<int>& delta) {
  const int n = static_cast<int>(delta.size());
  bool involution = true;
  for (int i = 0; i < n; ++i) involution &= delta[delta[i]] == i;
  if (!involution) return parallel_swaps(delta);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < n; ++i)
    if (i < delta[i]) pairs.emplace_back(i, delta[i]);
  if (pairs.empty()) return {};
  return {pairs};
}

MoveSchedule parallel_swap_schedule(int n, const std::vector<std::vector<std::pair<int, int>>>& swaps) {
  const int nodes = 1 << n;
  std::vector<int> position(nodes);
  for (int x = 0; x < nodes; ++x) position[x] = x;
  MoveSchedule schedule;
  for (const auto& step : swaps)
    for (const auto& [i, k] : step) {
      // The general exchange on (i, k): data whose position bits i and k differ crosses both.
      std::vector<BlockMove> out, on;
      for (int b = 0; b < nodes; ++b) {
        const int p = position[b];
        if (bit(p, i) == bit(p, k)) continue;
        out.push_back({b, p, p ^ (1 << i)});
        on.push_back({b, p ^ (1 << i), p ^ (1 << i) ^ (1 << k)});
        position[b] = p ^ (1 << i) ^ (1 << k);
      }
      schedule.push_back(out);
      schedule.push_back(on);
    }
  return schedule;
}

}  // namespace meshmp
