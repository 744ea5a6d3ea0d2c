// Destination patterns of synthetic traffic. See destination_pattern.h.
#include "hw/network/destination_pattern.h"

#include "topology/config_error.h"

namespace meshmp {

TrafficPattern parse_traffic_pattern(const std::string& name) {
  if (name == "uniform") return TrafficPattern::Uniform;
  if (name == "transpose") return TrafficPattern::Transpose;
  if (name == "bit-complement") return TrafficPattern::BitComplement;
  if (name == "hotspot") return TrafficPattern::Hotspot;
  if (name == "neighbour" || name == "neighbor") return TrafficPattern::Neighbour;
  if (name == "bit-reverse" || name == "bitrev") return TrafficPattern::BitReverse;
  if (name == "shuffle") return TrafficPattern::Shuffle;
  if (name == "tornado") return TrafficPattern::Tornado;
  if (name == "random-permutation" || name == "randperm") return TrafficPattern::RandomPermutation;
  if (name == "diagonal") return TrafficPattern::Diagonal;
  if (name == "asymmetric") return TrafficPattern::Asymmetric;
  throw ConfigError("traffic.pattern", name,
                    "expected uniform, transpose, bit-complement, bit-reverse, shuffle, tornado, neighbour, "
                    "random-permutation, hotspot, diagonal or asymmetric");
}

std::optional<PermutationPattern> permutation_of(TrafficPattern pattern) {
  switch (pattern) {
    case TrafficPattern::Uniform:
    case TrafficPattern::Hotspot:
    case TrafficPattern::Diagonal:
    case TrafficPattern::Asymmetric: return std::nullopt;
    case TrafficPattern::Transpose: return PermutationPattern::Transpose;
    case TrafficPattern::BitComplement: return PermutationPattern::BitComplement;
    case TrafficPattern::Neighbour: return PermutationPattern::Neighbour;
    case TrafficPattern::BitReverse: return PermutationPattern::BitReverse;
    case TrafficPattern::Shuffle: return PermutationPattern::Shuffle;
    case TrafficPattern::Tornado: return PermutationPattern::Tornado;
    case TrafficPattern::RandomPermutation: return PermutationPattern::RandomPermutation;
  }
  return std::nullopt;
}

std::string to_string(TrafficPattern pattern) {
  switch (pattern) {
    case TrafficPattern::Uniform: return "uniform";
    case TrafficPattern::Transpose: return "transpose";
    case TrafficPattern::BitComplement: return "bit-complement";
    case TrafficPattern::Hotspot: return "hotspot";
    case TrafficPattern::Neighbour: return "neighbour";
    case TrafficPattern::BitReverse: return "bit-reverse";
    case TrafficPattern::Shuffle: return "shuffle";
    case TrafficPattern::Tornado: return "tornado";
    case TrafficPattern::RandomPermutation: return "random-permutation";
    case TrafficPattern::Diagonal: return "diagonal";
    case TrafficPattern::Asymmetric: return "asymmetric";
  }
  return "?";
}

DestinationPattern::DestinationPattern(const Topology& topology, TrafficPattern pattern, bool include_self,
                                       int hotspot_node, double hotspot_fraction, std::uint64_t seed)
    : nodes_(topology.num_nodes()),
      pattern_(pattern),
      include_self_(include_self),
      hotspot_node_(hotspot_node),
      hotspot_fraction_(hotspot_fraction) {
  if (const auto permutation = permutation_of(pattern))
    fixed_destination_ = permutation_destinations(topology, *permutation, seed);
}

int DestinationPattern::draw(int src, std::mt19937_64& random) const {
  auto chance = [&random](double probability) {
    return std::uniform_real_distribution<double>(0.0, 1.0)(random) < probability;
  };
  auto uniform = [&] {
    if (include_self_) return std::uniform_int_distribution<int>(0, nodes_ - 1)(random);
    const int d = std::uniform_int_distribution<int>(0, nodes_ - 2)(random);
    return d >= src ? d + 1 : d;
  };
  if (!fixed_destination_.empty()) return fixed_destination_[static_cast<std::size_t>(src)];
  switch (pattern_) {
    case TrafficPattern::Hotspot: return chance(hotspot_fraction_) ? hotspot_node_ : uniform();
    case TrafficPattern::Diagonal: return chance(1.0 / 3) ? (src + 1) % nodes_ : src;
    case TrafficPattern::Asymmetric: {
      const int half = nodes_ / 2;
      return src % half + (std::uniform_int_distribution<int>(0, 1)(random) ? half : 0);
    }
    default: return uniform();
  }
}

std::vector<double> DestinationPattern::probabilities(int src) const {
  std::vector<double> p(static_cast<std::size_t>(nodes_), 0.0);
  auto at = [&p](int node) -> double& { return p[static_cast<std::size_t>(node)]; };
  auto uniform = [&](double weight) {
    const int others = include_self_ ? nodes_ : nodes_ - 1;
    for (int dst = 0; dst < nodes_; ++dst)
      if (include_self_ || dst != src) at(dst) += weight / others;
  };
  if (!fixed_destination_.empty()) {
    at(fixed_destination_[static_cast<std::size_t>(src)]) = 1;
    return p;
  }
  switch (pattern_) {
    case TrafficPattern::Hotspot:
      at(hotspot_node_) += hotspot_fraction_;
      uniform(1 - hotspot_fraction_);
      break;
    case TrafficPattern::Diagonal:
      at((src + 1) % nodes_) += 1.0 / 3;
      at(src) += 2.0 / 3;
      break;
    case TrafficPattern::Asymmetric: {
      const int half = nodes_ / 2;
      at(src % half) += 0.5;
      at(src % half + half) += 0.5;
      break;
    }
    default: uniform(1);
  }
  return p;
}

}  // namespace meshmp
