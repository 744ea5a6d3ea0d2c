// The paths of the two-dimensional transposes on a Boolean n-cube (003 §6.1): node x = (x_r || x_c), n/2
// bits each, sends all its elements to tr(x) = (x_c || x_r). The dimensions to route are the bits where
// x_r and x_c differ: alpha_i (row part, dimension i + n/2) and beta_i (column part, dimension i), H(x) of
// each, in descending order alpha_{H-1} .. alpha_0, beta_{H-1} .. beta_0.
//  - SPT (§6.1.1): one path, g(n/2-1) f(n/2-1) ... g(0) f(0) with g the column and f the row dimension:
//    beta_{H-1} alpha_{H-1} ... beta_0 alpha_0 over the differing bits;
//  - DPT (§6.1.2): that path and the one with each pair permuted, alpha first;
//  - MPT (§6.1.3): 2H(x) paths, path p < H: alpha_{(p+H-1) mod H} beta_{(p+H-1) mod H} ... alpha_p beta_p,
//    path p >= H (j = p - H): beta_{(j+H-1) mod H} alpha_{(j+H-1) mod H} ... beta_j alpha_j.
// A packet leaving x on path p at cycle c crosses hop h during cycle c + h. The departure schedules:
// SPT / DPT one packet per path per cycle; MPT two packets per path every 2H(x) cycles (cycles
// 2H i and 2H i + 1, Lemma 14's (2, 2H(x))-disjointness).
#pragma once

#include <cstdint>
#include <vector>

namespace meshmp {

enum class TransposePaths { Single, Dual, Multiple };

// Node x's transpose partner on an n-cube (n even).
int transposed_node(int x, int n);
// H(x): the row and column bits that differ.
int transpose_distance(int x, int n);
// The paths of node x, each the list of dimensions it crosses in order.
std::vector<std::vector<int>> transpose_paths(TransposePaths kind, int x, int n);

// One packet of a source's data: on path `path`, leaving at cycle `departure`, carrying `elements`
// elements from `offset` of the source's packed data.
struct PathPacket {
  int path = 0;
  std::uint64_t departure = 0;
  std::uint64_t offset = 0;
  std::uint64_t elements = 0;
};

// The packets of node x's `elements` elements on its paths: split evenly over the paths, each share cut
// into packets of at most `packet_elements` (0: one packet per path; MPT: at least two per path, the
// pair Lemma 14 sends), leaving on the schedule of the path kind.
std::vector<PathPacket> transpose_packets(TransposePaths kind, int x, int n, std::uint64_t elements,
                                          std::uint64_t packet_elements);

// MPT's packet size for a class H (003 §6.1.3, Theorem 2): 4 k H packets of ceil(PQ/(4 k H N)) with
// k = max(1, round(sqrt(PQ t_c / (2 N tau)) / (2H))) (the optimal k, at least one).
std::uint64_t mpt_class_packet_elements(std::uint64_t elements, int distance, double element_transfer_cycles,
                                        double startup_cycles);

}  // namespace meshmp
