// The zero-load timing of this machine: what a message costs when nothing else is in the network, from
// the router parameters alone (docs/architecture.md, "Router microarchitecture"). One place for the
// formula, used by the per-step prediction each run reports next to the paper's cost formula (000 §2,
// 001 §1: t_s + m t_c per step), and held to the measured cycles by tests/timing_test.cpp and
// tests/zero_load_model_test.cpp.
#pragma once

#include <cstdint>

#include "hw/router/router_params.h"

namespace meshmp {

// Packets a message of `bytes` is cut into (a zero-byte message is one header-only packet).
std::uint32_t message_packets(const RouterParams& params, std::uint32_t bytes);
// Flits the message puts on the network: one head per packet plus ceil(bytes / flit_bytes) payload flits.
std::uint32_t message_flits(const RouterParams& params, std::uint32_t bytes);
// Cycles from the first cycle the DMA engine injects a message's first flit to the cycle its last flit
// is ejected at the destination, across `hops` idle links:
//   flits + hops * (pipeline_depth + link_latency) + pipeline_depth + 1
// (+ (hops + 1) * (F - 1) under store-and-forward, F = flits of the last packet).
std::uint64_t zero_load_transfer_cycles(const RouterParams& params, int hops, std::uint32_t bytes);

}  // namespace meshmp
