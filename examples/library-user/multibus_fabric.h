// A machine of this program's own, registered with meshmp::register_fabric: "multibus:K", K nodes on a bus
// with a channel per node, so every node transfers at once (the broadcast bus of 004 §2 A with k* = K,
// built from meshmp's TLM-2.0 bus and node DMA engines). A real one would bring its own TLM-2.0 model the
// same way; nothing of meshmp's sources changes.
#pragma once

namespace library_user {

// Registers "multibus"; from then on the topology "multibus:K" names the machine.
void register_multibus_fabric();

}  // namespace library_user
