// A workload of this program's own, registered with meshmp::register_workload, and the algorithm that
// solves it, registered with meshmp::register_algorithm: "ring-shift", every node's m-byte block moves to
// the next node (i to i+1 mod N), and "shift-by-one", which sends it there in one step. The verifier
// names any block that does not end where the workload says.
#pragma once

namespace library_user {

// Registers the workload "ring-shift" and the algorithm "shift-by-one".
void register_ring_shift();

}  // namespace library_user
