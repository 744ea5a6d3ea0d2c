// Where a synthetic-traffic source sends each packet (`meshmp traffic --pattern`): the pattern's draw of a
// destination for a source, and the probability of every destination, which the ideal saturation rate
// and the tests weigh. On N nodes:
//  - uniform: any node with probability 1/N (1/(N-1) for each other node when the source is excluded);
//  - hotspot: the hot node with probability f, otherwise uniform;
//  - diagonal (BookSim2's): the source itself with probability 2/3, node (s + 1) mod N with 1/3;
//  - asymmetric (BookSim2's): (s mod N/2) or (s mod N/2) + N/2, each with probability 1/2 (N/2 rounded
//    down: on an odd N the last node receives nothing);
//  - the permutations of hw/network/permutation_patterns.h: one fixed destination per source.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "hw/network/permutation_patterns.h"
#include "topology/topology.h"

namespace meshmp {

enum class TrafficPattern {
  Uniform, Transpose, BitComplement, Hotspot, Neighbour, BitReverse, Shuffle, Tornado, RandomPermutation, Diagonal,
  Asymmetric
};

// The permutation a pattern is, if it is one (every pattern but uniform, hotspot, diagonal and asymmetric).
std::optional<PermutationPattern> permutation_of(TrafficPattern pattern);

// Throws ConfigError("traffic.pattern", ...) for an unknown name.
TrafficPattern parse_traffic_pattern(const std::string& name);
std::string to_string(TrafficPattern pattern);

class DestinationPattern {
 public:
  // `seed` draws a random permutation; the hotspot's node and share apply to the hotspot pattern only.
  DestinationPattern(const Topology& topology, TrafficPattern pattern, bool include_self, int hotspot_node,
                     double hotspot_fraction, std::uint64_t seed);
  // A packet's destination from `src`, drawn from `random` (patterns with a fixed destination draw nothing).
  int draw(int src, std::mt19937_64& random) const;
  // The probability of each node (index = node) as the destination of a packet from `src`; they sum to 1.
  std::vector<double> probabilities(int src) const;

 private:
  int nodes_;
  TrafficPattern pattern_;
  bool include_self_;
  int hotspot_node_;
  double hotspot_fraction_;
  std::vector<int> fixed_destination_;  // a permutation's destination of every source
};

}  // namespace meshmp
