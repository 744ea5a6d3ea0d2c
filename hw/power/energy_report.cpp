// A run's energy and area. See energy_report.h.
#include "hw/power/energy_report.h"

namespace meshmp {

double RunEnergy::network_dynamic_joules() const {
  if (!network) return 0;
  return (network->total_power() - network->leakage_power()) * static_cast<double>(cycles) / network_clock_hz;
}

double RunEnergy::network_leakage_joules() const { return network ? network->leakage_power() * seconds() : 0; }

double RunEnergy::total_joules() const { return network_dynamic_joules() + network_leakage_joules() + nodes.total(); }

nlohmann::json energy_report(const RunEnergy& run) {
  const double seconds = run.seconds();
  nlohmann::json network = nullptr;
  if (run.network) {
    const NetworkPower& p = *run.network;
    const double per_cycle = static_cast<double>(run.cycles) / run.network_clock_hz;  // watts to joules, dynamic
    network = {{"channel_wire", p.channel_wire * per_cycle},
               {"channel_clock", p.channel_clock * per_cycle},
               {"channel_retiming", p.channel_retiming * per_cycle},
               {"input_read", p.input_read * per_cycle},
               {"input_write", p.input_write * per_cycle},
               {"switch", p.switch_traversal * per_cycle},
               {"switch_control", p.switch_control * per_cycle},
               {"output_dff", p.output_dff * per_cycle},
               {"output_clock", p.output_clock * per_cycle},
               {"output_control", p.output_control * per_cycle},
               {"dynamic", run.network_dynamic_joules()},
               {"leakage", run.network_leakage_joules()},
               {"total", run.network_dynamic_joules() + run.network_leakage_joules()}};
  }
  const NodeEnergy& n = run.nodes;
  nlohmann::json fabric = nullptr;
  if (run.has_fabric)
    fabric = {{"bus", n.bus}, {"memory_banks", n.banks}, {"switch_stages", n.switch_stages}, {"total", n.fabric()}};
  const double total = run.total_joules();
  const double bits = 8.0 * static_cast<double>(run.delivered_bytes);
  return {{"clock_ghz", run.clock_hz / 1e9},
          {"seconds", seconds},
          {"joules",
           {{"network", network},
            {"nodes",
             {{"startups", n.startups},
              {"dma", n.dma},
              {"memory", n.memory},
              {"copies", n.copies},
              {"idle", n.idle},
              {"total", n.nodes()}}},
            {"fabric", fabric},
            {"dynamic", run.network_dynamic_joules() + n.dynamic()},
            {"leakage", run.network_leakage_joules() + n.idle},
            {"total", total}}},
          {"average_watts", seconds > 0 ? total / seconds : 0.0},
          {"delivered_bits", bits},
          {"energy_per_delivered_bit_joules", bits > 0 ? nlohmann::json(total / bits) : nlohmann::json(nullptr)},
          {"energy_delay_product_joule_seconds", total * seconds}};
}

nlohmann::json area_report(const NetworkPower& p, std::size_t routers) {
  const double router_total = p.input_area + p.switch_area + p.output_area;
  return {{"routers", routers},
          {"input_buffers_mm2", p.input_area},
          {"crossbars_mm2", p.switch_area},
          {"output_stages_mm2", p.output_area},
          {"channels_mm2", p.channel_area},
          {"per_router_mm2", routers ? router_total / static_cast<double>(routers) : 0.0},
          {"total_mm2", p.total_area()}};
}

}  // namespace meshmp
