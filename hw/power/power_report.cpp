// A network's power, energy and area in a result. See power_report.h.
#include "hw/power/power_report.h"

namespace meshmp {

nlohmann::json power_report(const NetworkPower& p, const NetworkActivity& activity, const std::string& technology_file) {
  const std::uint64_t delivered_flits = activity.ejected_flits;
  const double seconds = static_cast<double>(activity.cycles) / p.clock_hz;
  const double energy = p.total_power() * seconds;
  const auto per = [energy](double count) { return count > 0 ? nlohmann::json(energy / count) : nlohmann::json(nullptr); };
  return {{"technology_file", technology_file},
          {"channel_width_bits", activity.channel_width_bits},
          {"clock_ghz", p.clock_hz / 1e9},
          {"cycles", activity.cycles},
          {"watts",
           {{"channel_wire", p.channel_wire},
            {"channel_clock", p.channel_clock},
            {"channel_retiming", p.channel_retiming},
            {"channel_leakage", p.channel_leakage},
            {"input_read", p.input_read},
            {"input_write", p.input_write},
            {"input_leakage", p.input_leakage},
            {"switch", p.switch_traversal},
            {"switch_control", p.switch_control},
            {"switch_leakage", p.switch_leakage},
            {"output_dff", p.output_dff},
            {"output_clock", p.output_clock},
            {"output_control", p.output_control},
            {"leakage", p.leakage_power()},
            {"total", p.total_power()}}},
          {"energy_joules", energy},
          {"energy_per_delivered_flit_joules", per(static_cast<double>(delivered_flits))},
          {"energy_per_delivered_bit_joules",
           per(static_cast<double>(delivered_flits) * static_cast<double>(activity.channel_width_bits))},
          {"area_mm2",
           {{"channel", p.channel_area},
            {"switch", p.switch_area},
            {"input", p.input_area},
            {"output", p.output_area},
            {"total", p.total_area()}}}};
}

}  // namespace meshmp
