// Zero-load timing of one message. See zero_load_model.h.
#include "hw/network/zero_load_model.h"

#include <algorithm>

namespace meshmp {

std::uint32_t message_packets(const RouterParams& params, std::uint32_t bytes) {
  const std::uint64_t per_packet = static_cast<std::uint64_t>(params.max_packet_payload_flits) * params.flit_bytes;
  return bytes == 0 ? 1 : static_cast<std::uint32_t>((bytes + per_packet - 1) / per_packet);
}

std::uint32_t message_flits(const RouterParams& params, std::uint32_t bytes) {
  const std::uint32_t payload_flits = static_cast<std::uint32_t>((std::uint64_t{bytes} + params.flit_bytes - 1) / params.flit_bytes);
  return message_packets(params, bytes) + payload_flits;
}

std::uint64_t zero_load_transfer_cycles(const RouterParams& params, int hops, std::uint32_t bytes) {
  const std::uint64_t h = static_cast<std::uint64_t>(hops);
  std::uint64_t cycles = message_flits(params, bytes) + h * (params.pipeline_depth + params.link_latency_cycles) +
                         params.pipeline_depth + 1;
  if (params.switching == SwitchingMode::StoreAndForward) {
    const std::uint32_t payload_flits = static_cast<std::uint32_t>((std::uint64_t{bytes} + params.flit_bytes - 1) / params.flit_bytes);
    const std::uint32_t last_payload = payload_flits == 0 ? 0 : payload_flits - (message_packets(params, bytes) - 1) * params.max_packet_payload_flits;
    cycles += (h + 1) * last_payload;
  }
  return cycles;
}

}  // namespace meshmp
