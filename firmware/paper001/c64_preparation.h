// The nine preparation phases of algorithm C64 on an n x n x n torus (001 §4, Fig. 7, Theorem 3's
// first two terms): three phases along +x, three along +y, three along +z, after which node w holds, for
// every node d of its logical torus C_{w mod 4} = {d : d = w (mod 4) in every coordinate}, the 64 blocks
// (s, d) of the 64 sources s = w - (ox, oy, oz), 0 <= ox, oy, oz <= 3: C64's unit of d.
//
// Block order, chosen so that every forwarded message is one contiguous piece of the one received:
//  - first the node sorts its own blocks (s, d) by the offsets (d_a - w_a) mod 4 along x, y, z (the x
//    offset most significant), then by the destination's logical index q = q_x + (n/4) q_y + (n/4)^2 q_z
//    (q_a = d_a div 4);
//  - phase 1 along an axis sends every held block whose offset along the axis is not 0 (48 n^3/64 blocks),
//    ordered by that offset first; the receiver keeps the head (offset now 0) and forwards the rest,
//    as received, in phase 2 (32 n^3/64), and phase 3 forwards the last quarter (16 n^3/64) — the counts
//    of 001 §4;
//  - a node's held blocks after an axis are sections, one per source offset along the axes done so far
//    (the later axis most significant); phase 1 of the next axis gathers, per offset, the subsection of
//    every section (one strided local copy each, at rho per byte).
// At the end the 64 sections (oz, oy, ox), each the n^3/64 blocks of one source in q order, are scattered
// into the units: unit q holds at block j = 16 oz + 4 oy + ox the block from w - (ox, oy, oz).
#pragma once

#include <cstdint>

#include "firmware/api/node_api.h"
#include "firmware/api/scratch_arena.h"

namespace meshmp {

struct C64Memory {
  int side = 0;             // n
  std::uint32_t block = 0;  // m
  std::uint32_t sorted = 0; // n^3 blocks: the node's own blocks sorted (the receive buffer, free until the end)
  std::uint32_t units = 0;  // n^3 blocks: unit q (64 blocks) at units + 64 q m
  std::uint32_t work = 0;   // the phases' arrivals (4.5 n^3 blocks) and gathered messages (0.75 n^3)

  std::uint64_t nodes() const { return static_cast<std::uint64_t>(side) * side * side; }
  // Blocks of the work area the preparation declares: every arrival and one gathered message, each in
  // bytes of its own. Reusing what the phases have sent, and the receive buffer's free part, it takes
  // 2.75 n^3 of them (tests/tseng_c64_test.cpp).
  std::uint64_t preparation_work_blocks() const { return nodes() * 3 * 3 / 2 + nodes() * 3 / 4; }
};

// Where the 64 blocks of a unit come from: block j of the unit a node w holds is from w - offset(j).
struct SourceOffset {
  int x, y, z;
};
inline SourceOffset unit_block_offset(int j) { return {j % 4, j / 4 % 4, j / 16}; }

// The destination's index in its logical torus (q_x + (n/4) q_y + (n/4)^2 q_z, q_a = d_a div 4).
int logical_index(const Topology& topology, int node);

// Runs the nine phases (statistics steps first_step .. first_step + 8) and fills the units. With
// `barrier`, every phase ends at the hardware barrier. Arrivals and gathered messages take their bytes
// from `scratch` (the work area); what the phases have sent or gathered away is given back to it, the
// free part of the receive buffer (`sorted`) too, which is unused again once the units are filled.
void c64_preparation(NodeApi& api, const C64Memory& memory, int first_step, bool barrier, ScratchArena& scratch);

}  // namespace meshmp
