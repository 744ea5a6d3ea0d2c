// The nodes' and fabrics' energy. See node_energy.h.
#include "hw/power/node_energy.h"

namespace meshmp {

NodeEnergy node_energy(const Technology& t, const NodeActivity& a, double seconds) {
  const auto d = [](std::uint64_t count) { return static_cast<double>(count); };
  NodeEnergy e;
  e.startups = d(a.startups) * d(a.startup_cycles) * t.node_instruction_energy;
  e.dma = d(a.dma_bytes) * t.node_dma_byte_energy;
  e.memory = (d(a.dma_bytes) + 2 * d(a.copied_bytes)) * t.node_memory_byte_energy;
  e.copies = d(a.copied_bytes) * t.node_copy_byte_energy;
  e.idle = a.nodes * (t.memory_leakage_power(d(a.memory_bytes_per_node)) + t.node_idle_power) * seconds;
  e.bus = d(a.bus_bytes) * t.wire_byte_energy(a.nodes * t.wire_length);
  e.banks = d(a.bank_bytes) * t.bank_byte_energy;
  e.switch_stages = d(a.switch_stage_bytes) * t.wire_byte_energy(t.wire_length);
  return e;
}

}  // namespace meshmp
