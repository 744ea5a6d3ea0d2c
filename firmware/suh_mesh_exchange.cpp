// suh-mesh: complete exchange on an R x C mesh, R and C even (Suh, Shin, Yalamanchili; 000 §3).
// Nodes P(r, c) (c = coordinate 0, r = coordinate 1) fall in four groups by the parity of r and c; each
// group is an (R/2) x (C/2) submesh whose rows and columns are logical rings of stride 2 (§3.1).
//   Phase 1 (C/2 - 1 steps): EE and OO scatter along their row ring (to c + 2 mod C), EO and OE along
//     their column ring (to r + 2 mod R);
//   Phase 2 (C/2 - 1 steps): the other dimension;
//   Phase 3 (2 steps): inside each 2 x 2 submesh, with the column partner, then with the row partner.
// When R != C a group whose ring is shorter idles in the phase's last (C - R)/2 steps (§3.2). R > C is
// the symmetric assignment: the longer dimension takes the role of the columns (EE and OO start along
// it), so the same code serves both.
// The data array of §3.3: a node whose phase-1 ring runs along dimension p1 (length S1) and phase-2 ring
// along p2 (length S2) holds B[u, v], u < S2, v < S1: the block for the node v hops along p1 and u hops
// along p2 from the first node of its own 2 x 2 submesh. Phase 1 keeps B column-major, so step i's
// message, columns 2i..S1-1, is contiguous; it is received into the same columns of a second array
// (the DMA reads a message when it starts, but a late node could see the next message arrive before its
// own has started, so the arrays alternate by step). Before phase 2 the array is rewritten row-major
// (rows 2j..S2-1 contiguous), before phase 3 into four quadrants by destination: the paper's two
// rearrangements (§3.4c), charged at rho per byte like every local copy. The send and receive buffers of
// this machine are indexed by node (ExchangeLayout), so loading the data array and placing the result
// by source are two more passes of R C m bytes each.
// Readings of the text (documented in docs/architecture.md):
//  - "v hops away" is counted from the first column (row) of the node's 2 x 2 submesh, not from the node:
//    counted from an odd node it would leave that node holding blocks for the next submesh, which phase 3
//    (odd columns exchange with c - 1) could not deliver.
//  - Phase 3 step 2 pairs rows r and r + 1 of the submesh: the even-row nodes (EE, EO) send to r + 1 and
//    the odd-row nodes (OO, OE) to r - 1. §3.2 names EE and OE for r + 1, which for OE (odd r) leaves the
//    submesh: a typo, like OO / EO for r - 1.
#include <algorithm>

#include "firmware/algorithm_registry.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

// A node's view of the data array.
struct Role {
  int p1, p2;          // dimensions of its phase-1 and phase-2 rings
  int s1, s2;          // their lengths
  int base1, base2;    // the first coordinates of its 2 x 2 submesh along p1 and p2
  int coord1, coord2;  // its own coordinates along p1 and p2
};

Role role_of(const Topology& topology, int node) {
  const int c = topology.coordinate(node, 0), r = topology.coordinate(node, 1);
  const int longer = topology.dimension(0).size >= topology.dimension(1).size ? 0 : 1;
  const bool same_parity = (r % 2) == (c % 2);  // EE or OO
  Role role;
  role.p1 = same_parity ? longer : 1 - longer;
  role.p2 = 1 - role.p1;
  role.s1 = topology.dimension(role.p1).size;
  role.s2 = topology.dimension(role.p2).size;
  role.coord1 = topology.coordinate(node, role.p1);
  role.coord2 = topology.coordinate(node, role.p2);
  role.base1 = role.coord1 - role.coord1 % 2;
  role.base2 = role.coord2 - role.coord2 % 2;
  return role;
}

int node_with(const Topology& topology, const Role& role, int along1, int along2) {
  std::vector<int> c(2);
  c[role.p1] = ((along1 % role.s1) + role.s1) % role.s1;
  c[role.p2] = ((along2 % role.s2) + role.s2) % role.s2;
  return topology.node_at(c);
}

// Slot (u, v) of node `node`'s array before phase 2 starts (initially: the block from the node itself).
int initial_destination(const Topology& topology, int node, int u, int v) {
  const Role role = role_of(topology, node);
  return node_with(topology, role, role.base1 + v, role.base2 + u);
}

// Slot (u, v) after phase 2: pair k = v / 2 came from k phase-1 hops back, pair k' = u / 2 from k'
// phase-2 hops back.
struct SlotBlock {
  int source, destination;
};
SlotBlock after_phase2(const Topology& topology, const Role& role, int u, int v) {
  const int k = v / 2, k2 = u / 2;
  return {node_with(topology, role, role.coord1 - 2 * k, role.coord2 - 2 * k2),
          node_with(topology, role, role.base1 + v - 2 * k, role.base2 + u - 2 * k2)};
}

// The sources of the blocks node `node` puts in its quadrant for `destination`, in slot order
// (row-major: u, then v).
std::vector<int> quadrant_sources(const Topology& topology, int node, int destination) {
  const Role role = role_of(topology, node);
  std::vector<int> sources;
  for (int u = 0; u < role.s2; ++u)
    for (int v = 0; v < role.s1; ++v) {
      const SlotBlock b = after_phase2(topology, role, u, v);
      if (b.destination == destination) sources.push_back(b.source);
    }
  return sources;
}

void suh_mesh(NodeApi& api) {
  const Topology& topology = api.topology();
  const ExchangeLayout& l = api.layout();
  const std::uint32_t m = l.block_bytes;
  const int me = api.id();
  const Role role = role_of(topology, me);
  const auto rc = static_cast<std::uint32_t>(api.num_nodes());
  const int steps_per_ring_phase = std::max(topology.dimension(0).size, topology.dimension(1).size) / 2 - 1;

  // Scratch: two arrays per ring phase, then phase 3's buffers.
  const std::uint32_t array_bytes = rc * m;
  const std::uint32_t a[2] = {l.scratch_base(), l.scratch_base() + array_bytes};
  const std::uint32_t b[2] = {l.scratch_base() + 2 * array_bytes, l.scratch_base() + 3 * array_bytes};
  const std::uint32_t quarter = rc / 4 * m;
  const std::uint32_t to_column_partner = l.scratch_base() + 4 * array_bytes;  // [col | diagonal]
  const std::uint32_t from_column_partner = to_column_partner + 2 * quarter;   // [for me | for row partner]
  const std::uint32_t own_for_row_partner = from_column_partner + 2 * quarter; // right after: step 2's message
  const std::uint32_t own_for_me = own_for_row_partner + quarter;
  const std::uint32_t from_row_partner = own_for_me + quarter;
  // The array holding the latest version of a pair written at step k (pair 0: the initial array).
  auto holder = [](const std::uint32_t (&arrays)[2], int k) { return arrays[k % 2]; };

  // Load the data array B[u, v], column-major, from the send buffer.
  for (int v = 0; v < role.s1; ++v)
    for (int u = 0; u < role.s2; ++u)
      api.local_copy(a[0] + static_cast<std::uint32_t>(v * role.s2 + u) * m,
                     l.send_block(initial_destination(topology, me, u, v)), m);

  // Phase 1: step i sends columns 2i..S1-1 one ring hop on, and receives the predecessor's.
  int step = 0;
  for (int i = 1; i <= steps_per_ring_phase; ++i) {
    api.begin_step(++step);
    if (i > role.s1 / 2 - 1) continue;  // a shorter ring: idle
    const std::uint32_t offset = static_cast<std::uint32_t>(2 * i * role.s2) * m;
    const std::uint32_t bytes = static_cast<std::uint32_t>((role.s1 - 2 * i) * role.s2) * m;
    const int to = node_with(topology, role, role.coord1 + 2, role.coord2);
    const int from = node_with(topology, role, role.coord1 - 2, role.coord2);
    api.send_receive(to, holder(a, i - 1) + offset, from, holder(a, i) + offset, bytes, static_cast<std::uint32_t>(step));
  }

  // First rearrangement: row-major, each pair taken from the array its last step wrote.
  for (int u = 0; u < role.s2; ++u)
    for (int v = 0; v < role.s1; ++v)
      api.local_copy(b[0] + static_cast<std::uint32_t>(u * role.s1 + v) * m,
                     holder(a, v / 2) + static_cast<std::uint32_t>(v * role.s2 + u) * m, m);

  // Phase 2: step j sends rows 2j..S2-1 one ring hop on along p2.
  for (int j = 1; j <= steps_per_ring_phase; ++j) {
    api.begin_step(++step);
    if (j > role.s2 / 2 - 1) continue;
    const std::uint32_t offset = static_cast<std::uint32_t>(2 * j * role.s1) * m;
    const std::uint32_t bytes = static_cast<std::uint32_t>((role.s2 - 2 * j) * role.s1) * m;
    const int to = node_with(topology, role, role.coord1, role.coord2 + 2);
    const int from = node_with(topology, role, role.coord1, role.coord2 - 2);
    api.send_receive(to, holder(b, j - 1) + offset, from, holder(b, j) + offset, bytes, static_cast<std::uint32_t>(step));
  }

  // Second rearrangement: four quadrants by destination inside the 2 x 2 submesh.
  const int c = topology.coordinate(me, 0), r = topology.coordinate(me, 1);
  const int column_partner = topology.node_at({c ^ 1, r});
  const int row_partner = topology.node_at({c, r ^ 1});
  const int diagonal = topology.node_at({c ^ 1, r ^ 1});
  std::uint32_t filled[4] = {0, 0, 0, 0};  // self, row partner, column partner, diagonal
  const std::uint32_t quadrant[4] = {own_for_me, own_for_row_partner, to_column_partner, to_column_partner + quarter};
  for (int u = 0; u < role.s2; ++u)
    for (int v = 0; v < role.s1; ++v) {
      const int dst = after_phase2(topology, role, u, v).destination;
      const int q = dst == me ? 0 : dst == row_partner ? 1 : dst == column_partner ? 2 : 3;
      api.local_copy(quadrant[q] + filled[q]++ * m, holder(b, u / 2) + static_cast<std::uint32_t>(u * role.s1 + v) * m, m);
    }

  // Phase 3: with the column partner, then with the row partner.
  api.begin_step(++step);
  api.send_receive(column_partner, to_column_partner, column_partner, from_column_partner, 2 * quarter,
                   static_cast<std::uint32_t>(step));
  api.begin_step(++step);
  api.send_receive(row_partner, from_column_partner + quarter, row_partner, from_row_partner, 2 * quarter,
                   static_cast<std::uint32_t>(step));

  // Every block for this node, with where it came from: into the receive buffer by source.
  auto place = [&](std::uint32_t at, const std::vector<int>& sources) {
    for (std::size_t k = 0; k < sources.size(); ++k)
      api.local_copy(l.receive_block(sources[k]), at + static_cast<std::uint32_t>(k) * m, m);
  };
  place(own_for_me, quadrant_sources(topology, me, me));
  place(from_column_partner, quadrant_sources(topology, column_partner, me));
  place(from_row_partner, quadrant_sources(topology, diagonal, me));  // the row partner's share from its column partner
  place(from_row_partner + quarter, quadrant_sources(topology, row_partner, me));
}

std::optional<std::string> supports_mesh(const Topology& topology, const ExchangeParameters&) {
  if (topology.num_dimensions() != 2 || topology.dimension(0).kind != DimensionKind::Path ||
      topology.dimension(1).kind != DimensionKind::Path)
    return ConfigError("topology", topology.spec(),
                       "suh-mesh runs on a 2-D mesh (mesh:CxR; the n-dimensional extension of 000 §4 is not built "
                       "yet)").what();
  if (topology.dimension(0).size % 2 != 0 || topology.dimension(1).size % 2 != 0)
    return ConfigError("topology", topology.spec(),
                       "suh-mesh needs both mesh sizes even (000 §3.1: the four node groups must tile the mesh with "
                       "2 x 2 submeshes)").what();
  return std::nullopt;
}

// 000 Table 1 under §2's step cost: C start-ups (C the longer side), R C^2 / 2 blocks, 2 R C m rho.
double suh_mesh_estimate(const Topology& topology, const ExchangeParameters& p) {
  const double longer = std::max(topology.dimension(0).size, topology.dimension(1).size);
  const double shorter = std::min(topology.dimension(0).size, topology.dimension(1).size);
  return longer * static_cast<double>(p.startup_cycles) + shorter * longer * longer / 2 * p.block_bytes / p.flit_bytes +
         2 * shorter * longer * p.block_bytes * p.copy_cycles_per_byte;
}

}  // namespace

std::vector<Algorithm> suh_mesh_exchange_algorithms() {
  Algorithm suh;
  suh.name = "suh-mesh";
  suh.summary = "three phases on an R x C mesh (R, C even): stride-2 rings along rows and columns, then 2x2 submeshes";
  suh.source = "000 §3 (Table 1)";
  suh.supports = supports_mesh;
  suh.firmware = suh_mesh;
  suh.estimate_cycles = suh_mesh_estimate;
  suh.estimate_formula = "000 Table 1: C t_s + R C^2 / 2 m t_c + 2 R C m rho";
  suh.scratch_bytes = [](const Topology& topology, std::uint32_t block_bytes, const AlgorithmOptions&) -> std::uint64_t {
    return 6ull * static_cast<std::uint64_t>(topology.num_nodes()) * block_bytes;  // 4 arrays, 2 arrays' worth for phase 3
  };
  return {suh};
}

}  // namespace meshmp
