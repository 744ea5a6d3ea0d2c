// The network's power and area from its activity. See network_power.h; docs/energy.md lists the
// equations with their symbols. Where the model's own arithmetic is dimensionally odd (the wordline
// decoder's array width adds the buffer depth to a length; a write's cell term is an energy not scaled
// by the clock), it is kept as the model computes it, so the figures compare with BookSim2's.
#include "hw/power/network_power.h"

#include <algorithm>
#include <map>

namespace meshmp {

namespace {

// A repeated wire: K-sized repeaters, N per stage, M flip-flop stages.
struct RepeatedWire {
  double K = 1, N = 1, M = 1;
};

// The technology's derived constants and the per-component equations.
class PowerModel {
 public:
  PowerModel(const Technology& t, double width) : t_(t), width_(width) {
    Cw_ = 2.0 * t.Cw_cpl + 2.0 * t.Cw_gnd;
    Ci_delay_ = 3.0 * (t.Cg + t.Cgdl);  // a 1 um inverter (1 um NMOS, 2 um PMOS), for delay
    Co_delay_ = 3.0 * t.Cd;
    Ci_ = 3.0 * t.Cg_pwr;  // the same, for power
    Co_ = 3.0 * t.Cd_pwr;
    clock_hz_ = t.clock_hz();
    clock_period_ = 1.0 / clock_hz_;
    channel_pitch_ = 2.0 * t.MetalPitch;
    crossbar_pitch_ = 2.0 * t.MetalPitch;
    v2f_ = t.Vdd * t.Vdd * clock_hz_;
  }

  double clock_hz() const { return clock_hz_; }

  // The repeaters and stages of a wire of `length` mm: of the sizes whose stage delay meets 0.8 of the
  // clock period, the least M^4 x power (a 64-bit wire at activity 0.2), the first found on ties.
  const RepeatedWire& optimised_wire(double length) {
    auto found = wires_.find(length);
    if (found != wires_.end()) return found->second;
    const double bits = 64, alpha = 0.2;
    double best_metric = 100000000;
    RepeatedWire best{-1, -1, -1};
    for (double K = 1.0; K < 10; K += 0.1)
      for (double N = 1.0; N < 40; N += 1.0)
        for (double M = 1.0; M < 40.0; M += 1.0) {
          const double l = length / (N * M);
          const double k0 = t_.R * (Co_delay_ + Ci_delay_);
          const double k1 = t_.R / K * Cw_ + K * t_.Rw * Ci_delay_;
          const double k2 = 0.5 * t_.Rw * Cw_;
          const double stage_delay = k0 + k1 * l + k2 * l * l;
          const double power = alpha * bits * repeated_wire(length, K, M, N) + wire_dff(M, bits, alpha);
          const double metric = M * M * M * M * power;
          if (N * stage_delay < 0.8 * clock_period_ && metric < best_metric) {
            best_metric = metric;
            best = {K, N, M};
          }
        }
    return wires_.emplace(length, best).first->second;
  }

  // One bit of a repeated wire switching every cycle.
  double repeated_wire(double length, double K, double M, double N) const {
    const double segments = M * N;
    const double switched = K * (Ci_ + Co_) + Cw_ * (length / segments);
    return 0.5 * switched * v2f_ * segments;
  }
  double repeated_wire_leakage(double K, double M, double N) const {
    return K * 0.5 * (t_.IoffN + 2.0 * t_.IoffP) * t_.Vdd * M * N;
  }
  // The clock of M banks of flip-flops across `bits` wires.
  double wire_clock(double M, double bits) const {
    const double columns = t_.H_DFQD1 * t_.MetalPitch / channel_pitch_;
    const double clock_length = bits * channel_pitch_;
    const double Cclk = (1 + 5.0 / 16.0 * (1 + Co_delay_ / Ci_delay_)) * (clock_length * Cw_ * columns + bits * Ci_delay_);
    return M * Cclk * v2f_;
  }
  // M banks of `bits` flip-flops whose data switch at activity `alpha`.
  double wire_dff(double M, double bits, double alpha) const {
    const double Cdin = 2 * 0.8 * (Ci_ + Co_) + 2 * (2.0 / 3.0 * 0.8 * Co_);
    const double Cclk = 2 * 0.8 * (Ci_ + Co_) + 2 * (2.0 / 3.0 * 0.8 * t_.Cg_pwr);
    const double Cint = (alpha * 0.5) * Cdin + alpha * Cclk;
    return Cint * M * bits * v2f_;
  }
  double channel_area(const RepeatedWire& w) const {
    const double dffs = w.M * t_.W_DFQD1 * t_.H_DFQD1;
    const double inverters = w.M * w.N * (t_.W_INVD2 + 3 * w.K) * t_.H_INVD2;
    return width_ * (dffs + inverters) * t_.MetalPitch * t_.MetalPitch;
  }

  // An input buffer of `depth` words of the channel's width: one access's wordline and decoders.
  double wordline(double depth) const {
    const double Ccell = 2 * (4.0 * t_.LAMBDA) * t_.Cg_pwr + 6 * t_.MetalPitch * Cw_;
    const double Cwl = width_ * Ccell;
    const double Warray = 8 * t_.MetalPitch + depth;
    const double x = 1.0 + (5.0 / 16.0) * (1 + Co_ / Ci_);
    const double Cpredecode = x * (Cw_ * Warray * Ci_);
    const double Cdecode = x * Cwl;
    const double Harray = 6 * width_ * t_.MetalPitch;
    const double y = (1 + 0.25) * (1 + Co_ / Ci_);
    const double Cprecharge = y * (Cw_ * Harray + 3 * width_ * Ci_);
    const double Cwren = y * (Cw_ * Harray + 2 * width_ * Ci_);
    return (Cprecharge + Cwren + 2 * Cpredecode + Cdecode) * v2f_;
  }
  double bitline(double depth) const {
    const double Ccell = 4.0 * t_.LAMBDA * t_.Cd_pwr + 8 * t_.MetalPitch * Cw_;
    return depth * Ccell;
  }
  double bit_read(double depth) const { return bitline(depth) * v2f_; }
  double bit_write(double depth) const {
    const double Ccc = 2 * (Co_ + Ci_);
    return 0.5 * Ccc * t_.Vdd * t_.Vdd + bitline(depth) * v2f_;
  }
  double bit_leakage(double depth) const { return depth * t_.IoffSRAM * t_.Vdd; }
  double input_area(double depth) const {
    return (width_ * t_.H_SRAM) * (depth * t_.W_SRAM) * t_.MetalPitch * t_.MetalPitch;
  }

  // One bit from input `from` to output `to` of an inputs x outputs crossbar: the input's row and the
  // output's column, the nearer half of the ports driving half of each.
  double crossbar_bit(double inputs, double outputs, double from, double to) const {
    const double Wxbar = width_ * outputs * crossbar_pitch_;
    const double Hxbar = width_ * inputs * crossbar_pitch_;
    const double CwIn = Wxbar * Cw_, CwOut = Hxbar * Cw_;
    const double Cxi = (1.0 / 16.0) * CwOut, Cxo = 4.0 * Cxi * (Co_delay_ / Ci_delay_);
    const double Cti = (1.0 / 16.0) * CwIn, Cto = 4.0 * Cti * (Co_delay_ / Ci_delay_);
    const double input_driver = 5.0 / 16.0 * (1 + Co_delay_ / Ci_delay_) * (0.5 * Cw_ * Wxbar + Cti);
    double Cin = input_driver + CwIn + Cti + outputs * Cxi;
    if (to < outputs / 2) Cin -= 0.5 * CwIn + outputs / 2 * Cxi;
    double Cout = CwOut + Cto + inputs * Cxo;
    if (from < inputs / 2) Cout -= 0.5 * CwOut + inputs / 2 * Cxo;
    return 0.5 * (Cin + Cout) * v2f_;
  }
  double crossbar_control(double inputs, double outputs) const {
    const double Wxbar = width_ * outputs * crossbar_pitch_;
    const double Hxbar = width_ * inputs * crossbar_pitch_;
    const double Cti = (5.0 / 16.0) * Wxbar * Cw_;
    const double Cctrl = width_ * Cti + (Wxbar + Hxbar) * Cw_;
    const double Cdrive = (5.0 / 16.0) * (1 + Co_delay_ / Ci_delay_) * Cctrl;
    return (Cdrive + Cctrl) * v2f_;
  }
  double crossbar_leakage(double inputs, double outputs) const {
    const double Cxi = (1.0 / 16.0) * width_ * inputs * crossbar_pitch_ * Cw_;
    const double Cti = (1.0 / 16.0) * width_ * outputs * crossbar_pitch_ * Cw_;
    return 0.5 * (t_.IoffN + 2 * t_.IoffP) * width_ * (inputs * outputs * Cxi + inputs * Cti + outputs * Cti) / Ci_;
  }
  double crossbar_area(double inputs, double outputs) const {
    return (inputs * width_ * crossbar_pitch_) * (outputs * width_ * crossbar_pitch_);
  }
  double output_control() const {
    const double Woutmod = width_ * channel_pitch_;
    const double Cenable = (1 + 5.0 / 16.0) * (1.0 + Co_ / Ci_) * (Woutmod * Cw_ + width_ * Ci_);
    return Cenable * v2f_;
  }
  double output_area(double outputs) const {
    return width_ * outputs * t_.W_DFQD1 * t_.H_DFQD1 * t_.MetalPitch * t_.MetalPitch;
  }

 private:
  const Technology& t_;
  double width_;
  double Cw_, Ci_delay_, Co_delay_, Ci_, Co_, clock_period_, clock_hz_, channel_pitch_, crossbar_pitch_, v2f_;
  std::map<double, RepeatedWire> wires_;
};

}  // namespace

NetworkPower network_power(const Technology& technology, const NetworkActivity& activity) {
  const double width = activity.channel_width_bits;
  const double cycles = static_cast<double>(std::max<std::uint64_t>(activity.cycles, 1));
  PowerModel model(technology, width);
  NetworkPower p;
  p.clock_hz = model.clock_hz();
  for (const ChannelActivity& channel : activity.channels) {
    const double length = channel.latency_cycles * technology.wire_length;
    const RepeatedWire wire = model.optimised_wire(length);
    const double a = static_cast<double>(channel.flits) / cycles;
    p.channel_area += model.channel_area(wire);
    p.channel_clock += model.wire_clock(wire.M, width);
    p.channel_wire += model.repeated_wire(length, wire.K, wire.M, wire.N) * a * width;
    p.channel_retiming += model.wire_dff(wire.M, width, a);
    p.channel_leakage += model.repeated_wire_leakage(wire.K, wire.M, wire.N) * width;
  }
  const double depth = static_cast<double>(activity.vcs) * activity.buffer_flits;
  for (const RouterActivity& router : activity.routers) {
    const double ports = router.ports();
    for (int in = 0; in < router.ports(); ++in) {
      p.input_area += model.input_area(depth);
      p.input_leakage += model.bit_leakage(depth) * width;
      const double reads = static_cast<double>(router.buffer_reads(in)) / cycles;
      const double writes = static_cast<double>(router.buffer_writes(in)) / cycles;
      p.input_read += reads * (model.wordline(depth) + model.bit_read(depth) * width);
      p.input_write += writes * (model.wordline(depth) + model.bit_write(depth) * width);
    }
    p.switch_area += model.crossbar_area(ports, ports);
    p.output_area += model.output_area(ports);
    p.switch_leakage += model.crossbar_leakage(ports, ports);
    for (int out = 0; out < router.ports(); ++out) {
      double output_activity = 0;
      for (int in = 0; in < router.ports(); ++in) {
        const double a = static_cast<double>(router.traversals(in, out)) / cycles;
        p.switch_traversal += a * width * model.crossbar_bit(ports, ports, in, out);
        p.switch_control += a * model.crossbar_control(ports, ports);
        output_activity += a;
      }
      p.output_clock += model.wire_clock(1, width);
      p.output_dff += output_activity * model.wire_dff(1, width, 1.0);
      p.output_control += output_activity * model.output_control();
    }
  }
  return p;
}

}  // namespace meshmp
