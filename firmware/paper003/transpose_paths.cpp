// Paths and packet schedules of SPT, DPT and MPT. See transpose_paths.h.
#include "firmware/paper003/transpose_paths.h"

#include <algorithm>
#include <cmath>

namespace meshmp {
namespace {

// The differing bit positions i (within the n/2-bit halves), descending.
std::vector<int> differing_bits(int x, int n) {
  const int half = n / 2;
  const int row = x >> half, column = x & ((1 << half) - 1);
  std::vector<int> bits;
  for (int i = half - 1; i >= 0; --i)
    if (((row ^ column) >> i) & 1) bits.push_back(i);
  return bits;
}

}  // namespace

int transposed_node(int x, int n) {
  const int half = n / 2;
  return ((x & ((1 << half) - 1)) << half) | (x >> half);
}

int transpose_distance(int x, int n) { return static_cast<int>(differing_bits(x, n).size()); }

std::vector<std::vector<int>> transpose_paths(TransposePaths kind, int x, int n) {
  const int half = n / 2;
  const std::vector<int> bits = differing_bits(x, n);  // descending: index k is alpha_{H-1-k}, beta_{H-1-k}
  const int h = static_cast<int>(bits.size());
  if (h == 0) return {};
  auto alpha = [&](int i) { return bits[h - 1 - i] + half; };
  auto beta = [&](int i) { return bits[h - 1 - i]; };
  std::vector<std::vector<int>> paths;
  auto pairs = [&](int first_index, bool alpha_first) {
    std::vector<int> path;
    for (int k = 0; k < h; ++k) {
      const int i = ((first_index - k) % h + h) % h;
      path.push_back(alpha_first ? alpha(i) : beta(i));
      path.push_back(alpha_first ? beta(i) : alpha(i));
    }
    return path;
  };
  switch (kind) {
    case TransposePaths::Single: paths.push_back(pairs(h - 1, false)); break;
    case TransposePaths::Dual:
      paths.push_back(pairs(h - 1, false));
      paths.push_back(pairs(h - 1, true));
      break;
    case TransposePaths::Multiple:
      for (int p = 0; p < h; ++p) paths.push_back(pairs(p + h - 1, true));
      for (int j = 0; j < h; ++j) paths.push_back(pairs(j + h - 1, false));
      break;
  }
  return paths;
}

std::vector<PathPacket> transpose_packets(TransposePaths kind, int x, int n, std::uint64_t elements,
                                          std::uint64_t packet_elements) {
  std::vector<PathPacket> packets;
  const auto paths = static_cast<std::uint64_t>(transpose_paths(kind, x, n).size());
  if (paths == 0) return packets;
  const auto period = static_cast<std::uint64_t>(2 * transpose_distance(x, n));
  std::uint64_t offset = 0;
  for (std::uint64_t p = 0; p < paths; ++p) {
    const std::uint64_t share = elements / paths + (p < elements % paths ? 1 : 0);
    std::uint64_t count = packet_elements == 0 ? 1 : (share + packet_elements - 1) / packet_elements;
    if (kind == TransposePaths::Multiple) count = std::max<std::uint64_t>(count, 2);
    count = std::max<std::uint64_t>(1, std::min(count, share));
    for (std::uint64_t m = 0; m < count; ++m) {
      PathPacket packet;
      packet.path = static_cast<int>(p);
      packet.elements = share / count + (m < share % count ? 1 : 0);
      packet.offset = offset;
      packet.departure = kind == TransposePaths::Multiple ? period * (m / 2) + m % 2 : m;
      offset += packet.elements;
      if (packet.elements) packets.push_back(packet);
    }
  }
  return packets;
}

std::uint64_t mpt_class_packet_elements(std::uint64_t elements, int distance, double element_transfer_cycles,
                                        double startup_cycles) {
  const double k_optimal = std::sqrt(elements * element_transfer_cycles / (2 * startup_cycles)) / (2 * distance);
  const auto k = static_cast<std::uint64_t>(std::max(1.0, std::round(k_optimal)));
  const std::uint64_t packets = 4 * k * static_cast<std::uint64_t>(distance);
  return (elements + packets - 1) / packets;
}

}  // namespace meshmp
