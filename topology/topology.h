// Cartesian-product interconnection networks (002 §2): every dimension is a path (mesh), a ring (torus)
// or a complete graph (generalized hypercube; the Boolean n-cube has n complete dimensions of size 2).
// Node ids <-> coordinates, the router ports of each dimension, neighbours, distances, the diameter, and
// the status / average status of 002 §3.1 (Theorem 1, Corollary 2) used for the lower bound (3).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace meshmp {

enum class DimensionKind { Path, Ring, Complete };

// Paper 004 §2's shared-resource machines: no router network, K nodes one transfer apart through a
// broadcast bus (A), a global shared memory (B) or an Omega switch (F), or through any fabric registered
// beside them (hw/fabric/fabric.h). Their topology is one complete dimension of size K (every node one hop
// from every other), spelt `name:K`; Topology::fabric() names the machine joining them.
struct FabricSpelling {
  std::string name;                 // "bus", "shared-memory", "omega"
  bool nodes_power_of_two = false;  // K must be a power of two; `power_of_two_reason` says why
  std::string power_of_two_reason;
};
// Lets Topology::parse read `name:K` (hw/fabric registers each fabric's spelling with the fabric). Throws
// ConfigError("topology", name, rule) for an empty name or one a topology already means.
void register_fabric_spelling(FabricSpelling spelling);

struct Dimension {
  DimensionKind kind;
  int size;
};

// A network port of a router: it leads along `dimension` to the node whose coordinate there is
// (own + offset), taken modulo the size on rings and complete graphs. Paths and rings have the two
// ports offset -1 and +1; a complete graph of size k has the k-1 ports offset 1..k-1. A ring of size 2 is
// modelled with one link each way (port +1, which port_of(d, -1) also names): its two neighbours are one
// node, and a second, never-used link would only dilute the link statistics.
struct Port {
  int dimension;
  int offset;
};

class Topology {
 public:
  static constexpr int kMaxNodes = 65536;
  static constexpr int kMaxHypercubeDimension = 16;
  static constexpr int kMaxFabricNodes = 4096;

  // Parses "mesh:8x8", "torus:4x4x4", "ring:8", "hypercube:6", "ghc:3x4", a general product
  // "product:path4xring6xcomplete3", or one of 004's shared-resource machines "bus:K",
  // "shared-memory:K", "omega:K" (K = 2..kMaxFabricNodes, a power of two for omega). Throws ConfigError
  // naming the field `field`.
  static Topology parse(const std::string& spec, const std::string& field = "topology");
  // The nodes a router network's spec names, past kMaxNodes too; -1 when it does not parse (or names a
  // shared-resource machine).
  static std::int64_t nodes_in(const std::string& spec);

  Topology(std::vector<Dimension> dimensions, std::string spec, std::string fabric = "");

  const std::string& spec() const { return spec_; }
  // The shared-resource machine joining the nodes ("bus", ...), or empty for a router network.
  const std::string& fabric() const { return fabric_; }
  // The same from the spec's kind alone, without building the topology (None for any other kind).
  static std::string fabric_of(const std::string& spec);
  int num_nodes() const { return num_nodes_; }
  int num_dimensions() const { return static_cast<int>(dims_.size()); }
  const Dimension& dimension(int d) const { return dims_[d]; }
  bool has_rings() const;

  int coordinate(int node, int d) const {
    return coordinates_[static_cast<std::size_t>(node) * dims_.size() + static_cast<std::size_t>(d)];
  }
  std::vector<int> coordinates(int node) const;
  int node_at(const std::vector<int>& coords) const;
  std::string coordinates_text(int node) const;  // "(x,y,...)"
  // The node whose coordinates are `node`'s except `c` in dimension d.
  int with_coordinate(int node, int d, int c) const { return node + (c - coordinate(node, d)) * stride_[d]; }

  // Network ports, numbered dimension by dimension.
  int num_ports() const { return static_cast<int>(ports_.size()); }
  const Port& port(int p) const { return ports_[p]; }
  // -1 when there is no such port. Ports are numbered dimension by dimension: (-1, +1) on paths and rings,
  // offsets 1..k-1 on complete graphs; a ring of 2 nodes has the one port +1, which is also its -1.
  int port_of(int dimension, int offset) const {
    const int base = first_port_[dimension];
    const Dimension& dim = dims_[dimension];
    if (dim.kind == DimensionKind::Complete) return offset >= 1 && offset < dim.size ? base + offset - 1 : -1;
    if (dim.kind == DimensionKind::Ring && dim.size == 2) return offset == -1 || offset == +1 ? base : -1;
    return offset == -1 ? base : offset == +1 ? base + 1 : -1;
  }
  int compute_neighbor(int node, int p) const;
  // The node at the far end of port p, or -1 when p leads off the edge of a path.
  int neighbor(int node, int p) const { return neighbors_[static_cast<std::size_t>(node) * ports_.size() + p]; }
  // The port through which the neighbour on port p sends back to `node` (the reverse direction).
  int reverse_port(int p) const { return reverse_[p]; }
  // True when port p of `node` is the wrap-around link of a ring (the dateline, 001 §3 / Dally).
  bool crosses_dateline(int node, int p) const;

  int distance(int a, int b) const;
  int dimension_distance(int d, int a, int b) const;
  int diameter() const;

  // 002 §3.1: status s(v) = sum of distances from v to every node, by Theorem 1.
  std::int64_t status(int node) const;
  // 002 Corollary 2: AS(G) = n * sum_i AS(G_i) / |V_i|. Exact as a rational; returned as double.
  double average_status() const;
  // The status of coordinate c within dimension d alone, s_i(v_i) of (6).
  std::int64_t dimension_status(int d, int c) const;

 private:
  // The dimensions a router network's spec names (no limit on their product); ConfigError naming `field`.
  static std::vector<Dimension> parse_dimensions(const std::string& spec, const std::string& field);
  static std::int64_t count_nodes(const std::vector<Dimension>& dims);  // saturates at 2^40

  std::vector<Dimension> dims_;
  std::vector<int> stride_;
  std::vector<Port> ports_;
  std::vector<int> first_port_;  // per dimension: its first port
  std::vector<int> reverse_;
  std::vector<int> neighbors_;  // node * num_ports + port -> node, or -1
  std::vector<int> coordinates_;  // node * num_dimensions + d -> the node's coordinate in d, without a division
  int num_nodes_;
  std::string spec_;
  std::string fabric_;
};

}  // namespace meshmp
