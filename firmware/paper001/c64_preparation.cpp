// The nine preparation phases of C64 (001 §4). See c64_preparation.h.
#include "firmware/paper001/c64_preparation.h"

#include <vector>

namespace meshmp {

int logical_index(const Topology& topology, int node) {
  const int quarter = topology.dimension(0).size / 4;
  return topology.coordinate(node, 0) / 4 +
         quarter * (topology.coordinate(node, 1) / 4 + quarter * (topology.coordinate(node, 2) / 4));
}

namespace {

// The own blocks in (dx, dy, dz, q) order: per offset triple and per (q_y, q_z), one strided copy of the
// n/4 blocks along x (every 4th block of the send buffer). One local operation per offset triple.
void sort_own_blocks(NodeApi& api, const C64Memory& memory) {
  const Topology& topology = api.topology();
  const ExchangeLayout& layout = api.layout();
  const int n = memory.side, quarter = n / 4;
  const std::uint32_t m = memory.block;
  const std::uint64_t section = memory.nodes() / 64;
  std::vector<LocalCopy> copies;
  for (int offsets = 0; offsets < 64; ++offsets) {
    const SourceOffset d{offsets / 16, offsets / 4 % 4, offsets % 4};  // (dx, dy, dz), dx most significant
    copies.clear();
    for (int qz = 0; qz < quarter; ++qz)
      for (int qy = 0; qy < quarter; ++qy) {
        const int first = topology.node_at({(api.coordinate(0) + d.x) % 4, 4 * qy + (api.coordinate(1) + d.y) % 4,
                                            4 * qz + (api.coordinate(2) + d.z) % 4});
        const std::uint64_t to = offsets * section + (static_cast<std::uint64_t>(qz) * quarter + qy) * quarter;
        copies.push_back({memory.sorted + static_cast<std::uint32_t>(to) * m, layout.send_block(first), m,
                          static_cast<std::uint32_t>(quarter), m, 4 * m});
      }
    api.local_copies(copies);
  }
}

// One phase: `blocks` blocks from `from` one hop along `port` to `to`, as many from `source` into `into`.
void preparation_phase(NodeApi& api, int step, std::uint32_t from, std::uint64_t blocks, int to, int port,
                       int source, std::uint32_t into, bool barrier) {
  const auto bytes = static_cast<std::uint32_t>(blocks * api.layout().block_bytes);
  api.begin_step(step);
  const Handle receive = api.receive(source, into, bytes, static_cast<std::uint32_t>(step));
  api.wait(api.send(to, from, bytes, static_cast<std::uint32_t>(step), {port}));
  api.wait(receive);
  if (barrier) api.hardware_barrier();
}

}  // namespace

void c64_preparation(NodeApi& api, const C64Memory& memory, int first_step, bool barrier, ScratchArena& scratch) {
  const Topology& topology = api.topology();
  const std::uint32_t m = memory.block;
  const std::uint64_t chunk = memory.nodes() / 4;  // a quarter of the blocks: one offset along an axis
  sort_own_blocks(api, memory);

  // Sections held, each an equal run of blocks ordered by the remaining axes' offsets, then q.
  std::vector<std::uint32_t> sections = {memory.sorted};
  int step = first_step;
  for (int axis = 0; axis < 3; ++axis) {
    const std::uint64_t subsection = chunk / sections.size();  // blocks of one offset along `axis` in a section
    std::vector<int> ahead = topology.coordinates(api.id()), behind = ahead;
    const int n = topology.dimension(axis).size;
    ahead[axis] = (ahead[axis] + 1) % n;
    behind[axis] = (behind[axis] + n - 1) % n;
    const int next = topology.node_at(ahead), previous = topology.node_at(behind);
    const int port = topology.port_of(axis, +1);

    // Phase 1: offsets 1, 2, 3 along the axis, by offset, then section. In place when that is one run.
    const auto subsection_bytes = static_cast<std::uint32_t>(subsection) * m;
    std::vector<LocalCopy> gather;  // `to` relative to the gathered message
    for (std::uint32_t offset = 1; offset < 4; ++offset)
      for (std::size_t s = 0; s < sections.size(); ++s)
        gather.push_back({static_cast<std::uint32_t>((offset - 1) * sections.size() + s) * subsection_bytes,
                          sections[s] + offset * subsection_bytes, subsection_bytes});
    bool one_run = true;
    for (std::size_t k = 1; k < gather.size(); ++k)
      one_run = one_run && gather[k].from == gather[k - 1].from + gather[k - 1].length;
    std::uint32_t message = gather.front().from;
    if (!one_run) {
      message = scratch.take(static_cast<std::uint32_t>(3 * chunk) * m);
      for (LocalCopy& piece : gather) piece.to += message;
      api.local_copies(gather);
      // Gathered: every section keeps only its offset-0 subsection.
      for (std::uint32_t section : sections) scratch.give_back(section + subsection_bytes, 3 * subsection_bytes);
    }
    // Phase p receives (4 - p) quarters, and sends as many: phase 1's message, then all but the head of
    // the previous phase's arrival. What a phase has sent is free once it ends.
    std::uint32_t arrivals[4] = {0, 0, 0, 0};
    for (int phase = 1; phase <= 3; ++phase) {
      const std::uint64_t blocks = (4 - phase) * chunk;
      const auto bytes = static_cast<std::uint32_t>(blocks) * m;
      arrivals[phase] = scratch.take(bytes);
      preparation_phase(api, step++, message, blocks, next, port, previous, arrivals[phase], barrier);
      scratch.give_back(message, bytes);
      message = arrivals[phase] + static_cast<std::uint32_t>(chunk) * m;  // what to forward: all but the head
    }

    // Source offset o along the axis: o = 0 the offset-0 subsections of the held sections, o = 1..3 the
    // head of phase o's arrival (one subsection per held section, in the same order).
    std::vector<std::uint32_t> next_sections;
    for (int o = 0; o < 4; ++o)
      for (std::size_t s = 0; s < sections.size(); ++s)
        next_sections.push_back(o == 0 ? sections[s] : arrivals[o] + static_cast<std::uint32_t>(s * subsection) * m);
    sections = std::move(next_sections);
  }

  // The 64 sections (oz, oy, ox) scattered into the units: block j of unit q from section j's block q.
  const auto per_section = static_cast<std::uint32_t>(memory.nodes() / 64);
  std::vector<LocalCopy> scatter;
  for (std::uint32_t j = 0; j < 64; ++j)
    scatter.push_back({memory.units + j * m, sections[j], m, per_section, 64 * m, m});
  api.local_copies(scatter);
}

}  // namespace meshmp
