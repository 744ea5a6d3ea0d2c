// The memory-mapped register file of a node's DMA engine / network interface, as the processor sees it
// through TLM-2.0 b_transport (32-bit registers, little endian). A descriptor is written field by field,
// then the COMMAND register starts it; a write may be a burst of consecutive registers, written in
// address order, so that one transaction PEER..COMMAND writes and starts a descriptor. DESCRIPTOR_ID
// returns its number; writing QUERY selects a descriptor whose state STATUS then reads; COMPLETED counts
// the descriptors done (all of them are when it equals the number issued). The engine raises its
// completion interrupt (an sc_event) whenever a descriptor completes and COMPLETED has reached
// IRQ_THRESHOLD. DESCRIPTOR_ID, COMPLETED, STEP_MARK, IRQ_THRESHOLD and DONE_TABLE have no side effect:
// the engine grants them by TLM-2.0 direct memory interface too (hw/node/dma_register_file.h).
#pragma once

#include <cstdint>

namespace meshmp::dma {

constexpr std::uint64_t kPeer = 0x00;          // destination (send) or source (receive) node
constexpr std::uint64_t kLocalAddress = 0x04;  // byte address in local memory
constexpr std::uint64_t kLength = 0x08;        // bytes
constexpr std::uint64_t kTag = 0x0c;           // message tag, matched by the receiver
constexpr std::uint64_t kChannel = 0x10;       // injection channel; kAutoChannel = by first hop
constexpr std::uint64_t kRouteLength = 0x14;   // source-route length; 0 = routed by the routers
constexpr std::uint64_t kCommand = 0x18;       // write kCommandSend or kCommandReceive
constexpr std::uint64_t kDescriptorId = 0x1c;  // read: the descriptor the last command created
constexpr std::uint64_t kQuery = 0x20;         // write: the descriptor STATUS reports on
constexpr std::uint64_t kStatus = 0x24;        // read: kStatusPending / kStatusDone
constexpr std::uint64_t kCompleted = 0x28;     // read: number of completed descriptors
// Performance monitor: the algorithm step the following sends belong to. Stamped on their host-side
// records for the per-step statistics (which messages a step carried, the contention they met); never
// on the wire.
constexpr std::uint64_t kStepMark = 0x2c;
// Interrupt moderation: a completion raises the interrupt only once COMPLETED has reached IRQ_THRESHOLD
// (0, its reset value: every completion raises it). A processor waiting for all it issued sets it to that
// number and sleeps through the completions before the last.
constexpr std::uint64_t kIrqThreshold = 0x30;
// Shared-memory machines (004 §2 B): the global memory's byte address a SHARED_READ / SHARED_WRITE moves
// LENGTH bytes from / to (LOCAL_ADDRESS is the local end).
constexpr std::uint64_t kGlobalAddress = 0x34;
// A strided access (tlm/strided_access.h): the global memory's LENGTH bytes lie in pieces of GLOBAL_PIECE
// bytes, one every GLOBAL_STRIDE bytes from GLOBAL_ADDRESS (the local end stays contiguous). GLOBAL_PIECE
// 0, its reset value, is one piece of LENGTH.
constexpr std::uint64_t kGlobalPiece = 0x38;
constexpr std::uint64_t kGlobalStride = 0x3c;
constexpr std::uint64_t kRoute = 0x40;         // source route: one output port per byte, up to 32
// DONE_TABLE (read only): one bit per descriptor, set once it is done: descriptor d is bit d % 32 of the
// word at DONE_TABLE + 4 * (d / 32); descriptors not issued read 0. What STATUS says of the descriptor
// QUERY selects, without the write: the engine grants it by direct memory interface.
constexpr std::uint64_t kDoneTable = 0x1000;
constexpr std::uint64_t kDoneTableEnd = kDoneTable + 4 * (std::uint64_t{1} << 27);  // 2^32 descriptors

// PEER of a send on a fabric that broadcasts (004 §2 A's bus): every other node receives the message.
constexpr std::uint32_t kPeerAllOthers = 0xfffffffe;

constexpr std::uint32_t kCommandSend = 1;
constexpr std::uint32_t kCommandReceive = 2;
constexpr std::uint32_t kCommandSharedRead = 3;   // global memory -> local memory (shared-memory machines)
constexpr std::uint32_t kCommandSharedWrite = 4;  // local memory -> global memory
constexpr std::uint32_t kAutoChannel = 0xffffffff;
constexpr std::uint32_t kStatusPending = 0;
constexpr std::uint32_t kStatusDone = 1;

}  // namespace meshmp::dma
