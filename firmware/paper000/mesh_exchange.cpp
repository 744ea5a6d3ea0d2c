// suh-mesh: complete exchange on an a_1 x ... x a_n mesh, every a_i even, n >= 2 (Suh, Shin, Yalamanchili;
// 000 §3 for two dimensions, §4 for n).
// Nodes fall in 2^n groups by the parity of their coordinates; each group is an (a_1/2) x ... x (a_n/2)
// submesh whose lines are logical rings of stride 2 (§3.1).
//   Phases 1..n (max a_i / 2 - 1 steps each): every node scatters along one ring per phase, one
//     dimension per phase, in a group-dependent order that keeps any two groups off the same links;
//   Phase n + 1 (n steps): inside each 2 x ... x 2 submesh, step j with the partner across dimension j.
// The order of the dimensions (§3.2, §4). With the dimensions sorted longest first, D_1 .. D_n:
//   n = 2: nodes whose two coordinates have equal parity (EE, OO) take D_1 then D_2, the others D_2 then
//     D_1 (R > C by the symmetric assignment: the longer side plays the columns);
//   n > 2: nodes even along D_n follow the (n-1)-dimensional order over D_1..D_{n-1} and then take D_n;
//     the others take D_n first and then the (n-1)-dimensional order.
// On every line, in every phase, only one group's ring runs (the nodes of a line that use it share their
// parities), so no two messages of a step share a channel. A group whose ring is shorter than the
// longest idles in the phase's last steps (§3.2).
// The data array of §3.3, in n dimensions: a node holds N slots v = (v_1..v_n), v_k along its phase-k
// dimension; initially slot v holds the block for base + v (base: the first corner of the node's own
// 2 x ... x 2 submesh, coordinates mod the side). Step i of phase k sends the slots with v_k >= 2i one
// ring hop on and receives the predecessor's same slots, so after phase k the slot with v_k = 2q + r
// holds the block of the node 2q hops back, now addressed to base + r along that dimension; after the n
// ring phases a slot holds the block from X - 2q for base + r. During phase k the array keeps v_k
// slowest, so every message is one contiguous run; arrays alternate by step (the DMA reads a message
// when it starts, and a node ahead could deliver the next message before this one's has started).
// Between phases the array is rewritten: the paper's n rearrangements (§4), charged at rho per byte
// like every local copy. Phase n + 1 is laid out so that steps 1 and 2 send contiguous runs (step 1 its
// half for the partner across dimension 1, ordered so that what the receiver forwards in step 2 comes
// first; the rest ordered what stays, then what leaves in step 2, and step 1's message is received right
// behind it). For n >= 3 the later steps' blocks lie in up to 2^(j-1) runs: each such step first copies
// them into one buffer (N/2 blocks, charged at rho; 000 §4 counts no copy inside phase n + 1: with this
// layout the halves that step j - 1 keeps sit at both ends of the region it left, and no layout without
// copies was found). The send and receive buffers of this machine are indexed by node, so
// loading the data array and placing the result by source are two more passes of N m bytes each.
// Readings of the text (documented in docs/architecture.md):
//  - "v hops away" is counted from the first corner of the node's 2 x 2 submesh, not from the node:
//    counted from an odd node it would leave that node holding blocks for the next submesh, which the
//    last phase (odd coordinates exchange with c - 1) could not deliver.
//  - 2-D phase 3 step 2 pairs rows r and r + 1 of the submesh: the even-row nodes (EE, EO) send to r + 1
//    and the odd-row nodes (OO, OE) to r - 1. §3.2 names EE and OE for r + 1, which for OE (odd r) leaves
//    the submesh: a typo, like OO / EO for r - 1.
// On a torus the algorithm runs on the torus's mesh links (the comparison 001 §6 draws): every message
// takes a source route along its own dimension that never crosses a wrap-around link.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <numeric>

#include "firmware/api/algorithm_registry.h"
#include "firmware/api/local_copy_batch.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

constexpr int kMaxSourceRouteHops = 32;  // hw/router/flit_wire.h: a source route holds 32 entries

struct Block {
  int source, destination;
};

// The dimensions longest first (ties: the lower index first).
std::vector<int> dimensions_longest_first(const Topology& topology) {
  std::vector<int> dims(static_cast<std::size_t>(topology.num_dimensions()));
  std::iota(dims.begin(), dims.end(), 0);
  std::stable_sort(dims.begin(), dims.end(),
                   [&](int a, int b) { return topology.dimension(a).size > topology.dimension(b).size; });
  return dims;
}

// The dimension of each ring phase of `node` (000 §3.2 for the first two of `dims`, §4 beyond).
std::vector<int> phase_dimensions(const Topology& topology, int node, const std::vector<int>& dims, std::size_t n) {
  if (n == 2) {
    const bool equal_parity = topology.coordinate(node, dims[0]) % 2 == topology.coordinate(node, dims[1]) % 2;
    return equal_parity ? std::vector<int>{dims[0], dims[1]} : std::vector<int>{dims[1], dims[0]};
  }
  std::vector<int> order = phase_dimensions(topology, node, dims, n - 1);
  if (topology.coordinate(node, dims[n - 1]) % 2 == 0) order.push_back(dims[n - 1]);
  else order.insert(order.begin(), dims[n - 1]);
  return order;
}

// One node's data array: the dimension and side of each ring phase, its coordinates and its submesh's
// corner.
struct DataArray {
  std::vector<int> dimension;   // per phase k
  std::vector<int> side;        // a of that dimension
  std::vector<int> coordinate;  // the node's coordinate along it
  std::vector<int> corner;      // the submesh's first coordinate along it
  int slots = 0;

  DataArray(const Topology& topology, int node)
      : dimension(phase_dimensions(topology, node, dimensions_longest_first(topology),
                                   static_cast<std::size_t>(topology.num_dimensions()))) {
    for (int d : dimension) {
      side.push_back(topology.dimension(d).size);
      coordinate.push_back(topology.coordinate(node, d));
      corner.push_back(coordinate.back() - coordinate.back() % 2);
    }
    slots = topology.num_nodes();
  }
  int phases() const { return static_cast<int>(dimension.size()); }

  // Slot v <-> a mixed-radix index with phase `slowest`'s coordinate most significant and the others in
  // phase order, the first fastest.
  int index(const std::vector<int>& v, int slowest) const {
    int i = 0;
    for (int k = phases() - 1; k >= 0; --k)
      if (k != slowest) i = i * side[k] + v[k];
    return v[slowest] * (slots / side[slowest]) + i;
  }
  std::vector<int> slot(int i, int slowest) const {
    std::vector<int> v(dimension.size());
    v[slowest] = i / (slots / side[slowest]);
    i %= slots / side[slowest];
    for (int k = 0; k < phases(); ++k)
      if (k != slowest) {
        v[k] = i % side[k];
        i /= side[k];
      }
    return v;
  }

  // The node at `offsets` from this node's corner (or from the node itself), coordinates mod the side.
  int node_at(const Topology& topology, const std::vector<int>& offsets, bool from_corner) const {
    std::vector<int> c(static_cast<std::size_t>(topology.num_dimensions()));
    for (int k = 0; k < phases(); ++k) {
      const int at = (from_corner ? corner[k] : coordinate[k]) + offsets[k];
      c[static_cast<std::size_t>(dimension[k])] = ((at % side[k]) + side[k]) % side[k];
    }
    return topology.node_at(c);
  }
  // Slot v initially: this node's block for corner + v.
  int initial_destination(const Topology& topology, const std::vector<int>& v) const {
    return node_at(topology, v, true);
  }
  // Slot v after the ring phases: the block from the node 2 (v / 2) back for corner + (v mod 2).
  Block after_ring_phases(const Topology& topology, const std::vector<int>& v) const {
    std::vector<int> back(v.size()), home(v.size());
    for (std::size_t k = 0; k < v.size(); ++k) {
      back[k] = -2 * (v[k] / 2);
      home[k] = v[k] % 2;
    }
    return {node_at(topology, back, false), node_at(topology, home, true)};
  }
  // The inverse: the slot that holds the block from `source` for `destination` after the ring phases.
  std::vector<int> slot_holding(const Topology& topology, const Block& b) const {
    std::vector<int> v(dimension.size());
    for (int k = 0; k < phases(); ++k) {
      const int pairs = side[k] / 2;
      const int back = ((coordinate[k] - topology.coordinate(b.source, dimension[k])) / 2 % pairs + pairs) % pairs;
      v[k] = 2 * back + (topology.coordinate(b.destination, dimension[k]) - corner[k]);
    }
    return v;
  }
};

// A message's route on a torus: along its one dimension, the mesh way (no wrap-around link). Empty on a
// mesh (dimension-order routing takes that path anyway).
std::vector<int> mesh_route(const Topology& topology, int from, int to) {
  std::vector<int> route;
  for (int d = 0; d < topology.num_dimensions(); ++d) {
    const int delta = topology.coordinate(to, d) - topology.coordinate(from, d);
    if (delta == 0 || topology.dimension(d).kind != DimensionKind::Ring) continue;
    route.assign(static_cast<std::size_t>(std::abs(delta)), topology.port_of(d, delta > 0 ? 1 : -1));
  }
  return route;
}

// Phase n + 1 inside one 2 x ... x 2 submesh, worked out for all its nodes at once (every node can compute
// any node's data array, so each knows the order of the blocks it receives): per step, each node's
// message as a list of (address, block) and where the partner's lands.
struct Placed {
  std::uint32_t address;
  Block block;
};
struct SubmeshStep {
  int partner;
  std::vector<Placed> send;          // the message's blocks where they are held, in message order
  std::uint32_t send_address;        // the message: send's run, or the buffer they are first copied into
  std::uint32_t receive_address;
  bool gathered;
};
struct SubmeshPlan {
  std::vector<Placed> array;         // what the rearrangement writes: [step 1's half | the rest]
  std::vector<SubmeshStep> steps;
  std::vector<Placed> held;          // at the end: every block for this node
};

SubmeshPlan plan_submesh_phase(const Topology& topology, int me, std::uint32_t base, std::uint32_t m) {
  const int n = topology.num_dimensions();
  const int blocks = topology.num_nodes();
  const int corner_count = 1 << n;
  std::vector<int> corner_coordinates(static_cast<std::size_t>(n));
  for (int d = 0; d < n; ++d) corner_coordinates[static_cast<std::size_t>(d)] = topology.coordinate(me, d) & ~1;
  auto member = [&](int bits) {
    std::vector<int> c = corner_coordinates;
    for (int d = 0; d < n; ++d) c[static_cast<std::size_t>(d)] += (bits >> d) & 1;
    return topology.node_at(c);
  };
  auto bits_of = [&](int node) {
    int bits = 0;
    for (int d = 0; d < n; ++d) bits |= (topology.coordinate(node, d) & 1) << d;
    return bits;
  };

  // Memory: the array (3N/2 blocks: N/2 for step 1's half, N/2 kept, N/2 received), then N/2 per later
  // step for the message received, and N/2 per gathering step.
  const std::uint32_t half = static_cast<std::uint32_t>(blocks / 2) * m;
  std::vector<std::vector<Placed>> held(static_cast<std::size_t>(corner_count));
  SubmeshPlan mine;
  for (int y = 0; y < corner_count; ++y) {
    const int node = member(y);
    const DataArray array(topology, node);
    std::vector<Block> all;
    for (int i = 0; i < blocks; ++i) all.push_back(array.after_ring_phases(topology, array.slot(i, 0)));
    // Ordered: step 1's half (what the receiver forwards in step 2 first), then what stays, then what
    // leaves in step 2.
    auto differs = [&](const Block& b, int d) { return ((bits_of(b.destination) ^ y) >> d & 1) != 0; };
    std::vector<Block> ordered;
    for (const Block& b : all) if (differs(b, 0) && differs(b, 1)) ordered.push_back(b);
    for (const Block& b : all) if (differs(b, 0) && !differs(b, 1)) ordered.push_back(b);
    for (const Block& b : all) if (!differs(b, 0) && !differs(b, 1)) ordered.push_back(b);
    for (const Block& b : all) if (!differs(b, 0) && differs(b, 1)) ordered.push_back(b);
    for (std::size_t k = 0; k < ordered.size(); ++k)
      held[static_cast<std::size_t>(y)].push_back({base + static_cast<std::uint32_t>(k) * m, ordered[k]});
    if (node == me) mine.array = held[static_cast<std::size_t>(y)];
  }

  std::uint32_t next_free = base + 3 * half;
  for (int j = 0; j < n; ++j) {
    // Every node's message of step j: its blocks whose destination differs from it across dimension j,
    // in address order; gathered into one buffer unless they already form one run.
    std::vector<std::vector<Placed>> message(static_cast<std::size_t>(corner_count));
    std::vector<bool> gathered(static_cast<std::size_t>(corner_count), false);
    for (int y = 0; y < corner_count; ++y) {
      std::vector<Placed>& out = message[static_cast<std::size_t>(y)];
      for (const Placed& p : held[static_cast<std::size_t>(y)])
        if ((bits_of(p.block.destination) ^ y) >> j & 1) out.push_back(p);
      std::sort(out.begin(), out.end(), [](const Placed& a, const Placed& b) { return a.address < b.address; });
      for (std::size_t k = 1; k < out.size(); ++k)
        if (out[k].address != out[k - 1].address + m) gathered[static_cast<std::size_t>(y)] = true;
    }
    // (Every node of the submesh lays its blocks out alike, so they all gather in the same steps.)
    const std::uint32_t gather_address = next_free;
    if (std::find(gathered.begin(), gathered.end(), true) != gathered.end()) next_free += half;
    const std::uint32_t receive_address = j == 0 ? base + 2 * half : next_free;
    if (j > 0) next_free += half;
    std::vector<std::vector<Placed>> next(static_cast<std::size_t>(corner_count));
    for (int y = 0; y < corner_count; ++y) {
      const int partner = y ^ (1 << j);
      for (const Placed& p : held[static_cast<std::size_t>(y)])
        if (!((bits_of(p.block.destination) ^ y) >> j & 1)) next[static_cast<std::size_t>(y)].push_back(p);
      const std::vector<Placed>& in = message[static_cast<std::size_t>(partner)];
      for (std::size_t k = 0; k < in.size(); ++k)
        next[static_cast<std::size_t>(y)].push_back({receive_address + static_cast<std::uint32_t>(k) * m, in[k].block});
      if (member(y) == me) {
        const std::vector<Placed>& out = message[static_cast<std::size_t>(y)];
        const bool gather = gathered[static_cast<std::size_t>(y)];
        mine.steps.push_back({member(partner), out, gather ? gather_address : out.front().address, receive_address,
                              gather});
      }
    }
    held = next;
  }
  for (int y = 0; y < corner_count; ++y)
    if (member(y) == me) mine.held = held[static_cast<std::size_t>(y)];
  return mine;
}

// Phase n + 1 (000 §3: the 2 x .. x 2 submeshes): the blocks rearranged from the ring arrays of the last
// ring phase (`last`) into the plan's array at `submesh_base`, its n steps (each begun by `begin_step`, which
// advances `step`), then every block for this node into the receive buffer by source.
void submesh_phase(NodeApi& api, const DataArray& array, int last, std::uint32_t submesh_base,
                   const std::function<std::uint32_t(int, int)>& ring_array, const std::function<void()>& begin_step,
                   const int& step) {
  const Topology& topology = api.topology();
  const ExchangeLayout& l = api.layout();
  const std::uint32_t m = l.block_bytes;
  const int me = api.id();
  const SubmeshPlan plan = plan_submesh_phase(topology, me, submesh_base, m);
  LocalCopyBatch rearrange(api);  // a local operation per block
  for (const Placed& p : plan.array) {
    const std::vector<int> v = array.slot_holding(topology, p.block);
    rearrange.add(p.address,
                  ring_array(last, v[static_cast<std::size_t>(last)] / 2) +
                      static_cast<std::uint32_t>(array.index(v, last)) * m,
                  m);
  }
  rearrange.flush();
  for (const SubmeshStep& s : plan.steps) {
    begin_step();
    if (s.gathered) {
      LocalCopyBatch gather(api);
      for (std::size_t k = 0; k < s.send.size(); ++k)
        gather.add(s.send_address + static_cast<std::uint32_t>(k) * m, s.send[k].address, m);
      gather.flush();
    }
    const auto tag = static_cast<std::uint32_t>(step);
    const std::uint32_t bytes = static_cast<std::uint32_t>(s.send.size()) * m;
    const Handle r = api.receive(s.partner, s.receive_address, bytes, tag);
    const Handle sent = api.send(s.partner, s.send_address, bytes, tag, mesh_route(topology, me, s.partner));
    api.wait(sent);
    api.wait(r);
  }
  LocalCopyBatch place(api);  // a local operation per block
  for (const Placed& p : plan.held) place.add(l.receive_block(p.block.source), p.address, m);
  place.flush();
}

void suh_mesh(NodeApi& api) {
  const Topology& topology = api.topology();
  const ExchangeLayout& l = api.layout();
  const std::uint32_t m = l.block_bytes;
  const int me = api.id();
  const DataArray array(topology, me);
  const int n = array.phases();
  const int N = api.num_nodes();
  int longest = 0;
  for (int d = 0; d < n; ++d) longest = std::max(longest, topology.dimension(d).size);
  const int steps_per_ring_phase = longest / 2 - 1;

  // Scratch: two pairs of arrays for the ring phases (a phase's steps alternate within its pair, phases
  // alternate pairs), then phase n + 1's buffers.
  const std::uint32_t array_bytes = static_cast<std::uint32_t>(N) * m;
  auto ring_array = [&](int phase, int step) {
    return l.scratch_base() + static_cast<std::uint32_t>(2 * (phase % 2) + step % 2) * array_bytes;
  };

  // Load the data array from the send buffer, phase 1's coordinate slowest: a local operation per block.
  LocalCopyBatch load(api);
  for (int i = 0; i < N; ++i)
    load.add(ring_array(0, 0) + static_cast<std::uint32_t>(i) * m,
             l.send_block(array.initial_destination(topology, array.slot(i, 0))), m);
  load.flush();

  // sync=barrier: the hardware barrier before every step after the first (000's synchronized steps). Without
  // it a group that idled in a phase's last steps (a shorter ring) starts the next phase early, on lines
  // still in use.
  const bool barrier = api.options().text("sync") == "barrier";
  int step = 0;
  auto begin_step = [&] {
    if (barrier && step > 0) api.hardware_barrier();
    api.begin_step(++step);
  };
  for (int k = 0; k < n; ++k) {
    if (k > 0) {  // rearrange: phase k's coordinate slowest, each slot from the array its last step wrote
      LocalCopyBatch rearrange(api);
      for (int i = 0; i < N; ++i) {
        const std::vector<int> v = array.slot(i, k);
        rearrange.add(ring_array(k, 0) + static_cast<std::uint32_t>(i) * m,
                      ring_array(k - 1, v[static_cast<std::size_t>(k - 1)] / 2) +
                          static_cast<std::uint32_t>(array.index(v, k - 1)) * m,
                      m);
      }
      rearrange.flush();
    }
    // Step i sends the slots with v_k >= 2i one ring hop on and receives the predecessor's.
    const int s = array.side[static_cast<std::size_t>(k)];
    const int per_pair = N / s * 2;  // slots per pair of v_k values
    std::vector<int> ahead(static_cast<std::size_t>(n), 0), behind(static_cast<std::size_t>(n), 0);
    ahead[static_cast<std::size_t>(k)] = 2;
    behind[static_cast<std::size_t>(k)] = -2;
    const int to = array.node_at(topology, ahead, false), from = array.node_at(topology, behind, false);
    for (int i = 1; i <= steps_per_ring_phase; ++i) {
      begin_step();
      if (i > s / 2 - 1) continue;  // a shorter ring: idle
      const std::uint32_t offset = static_cast<std::uint32_t>(i * per_pair) * m;
      const std::uint32_t bytes = static_cast<std::uint32_t>(N - i * per_pair) * m;
      const auto tag = static_cast<std::uint32_t>(step);
      const Handle r = api.receive(from, ring_array(k, i) + offset, bytes, tag);
      const Handle sent = api.send(to, ring_array(k, i - 1) + offset, bytes, tag, mesh_route(topology, me, to));
      api.wait(sent);
      api.wait(r);
    }
  }

  submesh_phase(api, array, n - 1, l.scratch_base() + 4 * array_bytes, ring_array, begin_step, step);
}

std::optional<std::string> why_unsupported_mesh(const Topology& topology, const ExchangeParameters&) {
  if (topology.num_dimensions() < 2)
    return ConfigError("topology", topology.spec(),
                       "suh-mesh runs on meshes of two or more dimensions (000 §3, §4)").what();
  bool torus = false;
  for (int d = 0; d < topology.num_dimensions(); ++d) {
    const Dimension& dim = topology.dimension(d);
    if (dim.kind != DimensionKind::Path && dim.kind != DimensionKind::Ring)
      return ConfigError("topology", topology.spec(),
                         "suh-mesh runs on meshes, or on a torus's mesh links (every dimension a path or a ring)")
          .what();
    torus = torus || dim.kind == DimensionKind::Ring;
    if (dim.size % 2 != 0)
      return ConfigError("topology", topology.spec(),
                         "suh-mesh needs every mesh size even (000 §3.1, §4: the 2^n node groups must tile the "
                         "mesh with 2 x ... x 2 submeshes)")
          .what();
    if (torus && dim.size - 2 > kMaxSourceRouteHops)
      return ConfigError("topology", topology.spec(),
                         "suh-mesh on a torus's mesh links needs sides of at most " +
                             std::to_string(kMaxSourceRouteHops + 2) +
                             " (a ring's wrap message crosses the side in one source route of at most " +
                             std::to_string(kMaxSourceRouteHops) + " hops)")
          .what();
  }
  return std::nullopt;
}

// 000 Table 1 under §2's step cost, a_1 the longest side: (n/2) a_1 start-ups, (n/4) a_1^2 a_2..a_n blocks,
// n N m rho.
double suh_mesh_estimate(const Topology& topology, const ExchangeParameters& p) {
  const double n = topology.num_dimensions();
  double longest = 0;
  for (int d = 0; d < topology.num_dimensions(); ++d) longest = std::max<double>(longest, topology.dimension(d).size);
  const double N = topology.num_nodes();
  return n / 2 * longest * static_cast<double>(p.startup_cycles) +
         n / 4 * longest * N * p.block_bytes / p.flit_bytes + n * N * p.block_bytes * p.copy_cycles_per_byte;
}

std::vector<Algorithm> suh_mesh_exchange_algorithms() {
  Algorithm suh;
  suh.name = "suh-mesh";
  suh.summary = "n + 1 phases on an a1 x .. x an mesh (every side even): stride-2 rings, one dimension per phase, "
                "then 2 x .. x 2 submeshes";
  suh.source = "000 §3, §4 (Table 1)";
  suh.why_unsupported = why_unsupported_mesh;
  suh.firmware = suh_mesh;
  suh.estimate_cycles = suh_mesh_estimate;
  suh.estimate_formula = "000 Table 1: (n/2) a1 t_s + (n/4) a1^2 a2..an m t_c + n N m rho";
  suh.options = {{"sync", AlgorithmOption::Type::Choice, "none",
                  "none; barrier: the hardware barrier before every step after the first (000's synchronized "
                  "steps)",
                  {"none", "barrier"}}};
  suh.scratch_bytes = [](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions&) -> std::uint64_t {
    const std::uint32_t block_bytes = parameters.block_bytes;
    // 4 ring arrays, the submesh array (3N/2), N/2 for each later step's message and for each gathering
    // (steps 3..n).
    const auto n = static_cast<std::uint64_t>(topology.num_dimensions());
    const std::uint64_t halves = 4 * 2 + 3 + (n - 1) + (n > 2 ? n - 2 : 0);
    return halves * static_cast<std::uint64_t>(topology.num_nodes()) * block_bytes / 2;
  };
  return {suh};
}

const AlgorithmFamilyRegistration kRegistration{40, suh_mesh_exchange_algorithms};

}  // namespace

}  // namespace meshmp
