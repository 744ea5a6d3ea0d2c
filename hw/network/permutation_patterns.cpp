// Permutation traffic patterns. See permutation_patterns.h.
#include "hw/network/permutation_patterns.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace meshmp {

namespace {

int log2_exact(int n) {
  int bits = 0;
  while ((1 << bits) < n) ++bits;
  return bits;
}

}  // namespace

std::optional<std::string> permutation_unsupported(const Topology& topology, PermutationPattern pattern) {
  const int n = topology.num_nodes();
  switch (pattern) {
    case PermutationPattern::Transpose:
      if (topology.num_dimensions() != 2 || topology.dimension(0).size != topology.dimension(1).size)
        return "needs a square 2-D topology (node (x,y) sends to (y,x)); " + topology.spec() + " is not";
      return std::nullopt;
    case PermutationPattern::BitComplement:
    case PermutationPattern::BitReverse:
    case PermutationPattern::Shuffle:
      if ((n & (n - 1)) != 0)
        return "needs a power-of-two number of nodes (it permutes the bits of node numbers); " + topology.spec() +
               " has " + std::to_string(n);
      return std::nullopt;
    case PermutationPattern::Tornado:
      for (int d = 0; d < topology.num_dimensions(); ++d)
        if (topology.dimension(d).size < 3)
          return "needs every dimension of 3 nodes or more (half-way less one does not move on 2); " +
                 topology.spec() + " has one of " + std::to_string(topology.dimension(d).size);
      return std::nullopt;
    case PermutationPattern::Neighbour:
    case PermutationPattern::RandomPermutation: return std::nullopt;
  }
  return std::nullopt;
}

std::vector<int> permutation_destinations(const Topology& topology, PermutationPattern pattern, std::uint64_t seed) {
  const int n = topology.num_nodes();
  const int bits = log2_exact(n);
  std::vector<int> dst(static_cast<std::size_t>(n));
  if (pattern == PermutationPattern::RandomPermutation) {
    std::iota(dst.begin(), dst.end(), 0);
    std::mt19937_64 random(seed ^ 0x5eedf00dull);
    for (int i = n - 1; i > 0; --i) std::swap(dst[i], dst[std::uniform_int_distribution<int>(0, i)(random)]);
    return dst;
  }
  for (int src = 0; src < n; ++src) {
    int& d = dst[static_cast<std::size_t>(src)];
    switch (pattern) {
      case PermutationPattern::Transpose: d = topology.node_at({topology.coordinate(src, 1), topology.coordinate(src, 0)}); break;
      case PermutationPattern::BitComplement: d = (n - 1) ^ src; break;
      case PermutationPattern::BitReverse:
        d = 0;
        for (int i = 0; i < bits; ++i) d |= ((src >> i) & 1) << (bits - 1 - i);
        break;
      case PermutationPattern::Shuffle: d = bits == 0 ? src : ((src << 1) | (src >> (bits - 1))) & (n - 1); break;
      case PermutationPattern::Tornado: {
        std::vector<int> c = topology.coordinates(src);
        for (int k = 0; k < topology.num_dimensions(); ++k) {
          const int size = topology.dimension(k).size;
          c[k] = (c[k] + (size + 1) / 2 - 1) % size;
        }
        d = topology.node_at(c);
        break;
      }
      case PermutationPattern::Neighbour: {
        std::vector<int> c = topology.coordinates(src);
        c[0] = (c[0] + 1) % topology.dimension(0).size;
        d = topology.node_at(c);
        break;
      }
      case PermutationPattern::RandomPermutation: break;
    }
  }
  return dst;
}

}  // namespace meshmp
