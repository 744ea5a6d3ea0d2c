// A technology: the device, wire and cell parameters the network's power and area model prices activity
// with (hw/power/network_power.h). The keys are those of BookSim2's technology file (its
// src/power/techfile.txt), so that file is read as it is; the defaults are its values, the 2007 ITRS
// predictions for a 32 nm high-performance library at 70 C.
//
// The file format (docs/energy.md): one `KEY = VALUE;` a line, `//` starting a comment to the end of the
// line, blank lines skipped; a key not given keeps its default.
#pragma once

#include <string>

namespace meshmp {

struct Technology {
  // Cell footprints in metal pitches: a D2 inverter, a D1 flip-flop, a D1 NAND, an SRAM cell.
  double H_INVD2 = 8, W_INVD2 = 3, H_DFQD1 = 8, W_DFQD1 = 16, H_ND2D1 = 8, W_ND2D1 = 3, H_SRAM = 8, W_SRAM = 6;
  double Vdd = 0.9;            // supply [V]
  double R = 606.321;          // a 1 um inverter's drive resistance [Ohm]
  double IoffSRAM = 3.2e-7;    // leakage of a two-port SRAM cell's bitlines [A]
  double IoffP = 1.02e-6;      // PMOS off current [A/um]
  double IoffN = 1.02e-6;      // NMOS off current [A/um]
  double Cg_pwr = 5.34e-16;    // gate capacitance, for power [F/um]
  double Cd_pwr = 2.67e-16;    // drain capacitance, for power [F/um]
  double Cgdl = 1.068e-16;     // gate-drain overlap, for delay [F/um]
  double Cg = 5.34e-16;        // gate capacitance, for delay [F/um]
  double Cd = 2.67e-16;        // drain capacitance, for delay [F/um]
  double LAMBDA = 0.016;       // [um per lambda]
  double MetalPitch = 8.0e-5;  // [mm]
  double Rw = 0.720044;        // wire resistance [Ohm/mm]
  double Cw_gnd = 2.67339e-13; // wire capacitance to the layers above and below [F/mm]
  double Cw_cpl = 2.67339e-13; // wire coupling capacitance to its neighbours [F/mm]
  double wire_length = 2.0;    // a link of one cycle's latency [mm]
};

// The technology in `text` (the contents of file `path`, named in errors) over the defaults. Throws
// ConfigError naming `field`, the file, the line and the key: a line that is not `KEY = VALUE;`, an
// unknown key, a key given twice, a value that is not a finite number or is negative (a footprint or a
// length, a voltage, a resistance or a capacitance zero too).
Technology parse_technology(const std::string& field, const std::string& path, const std::string& text);

// The technology file named by option `field` (read through topology/input_file.h), or the defaults when
// `path` is empty.
Technology read_technology(const std::string& field, const std::string& path);

}  // namespace meshmp
