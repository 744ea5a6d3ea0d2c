// A technology: the device, wire and cell parameters the network's power and area model prices activity
// with (hw/power/network_power.h), and the energies of the nodes' events and of 004's fabrics
// (hw/power/node_energy.h). The network's keys are those of BookSim2's technology file (its
// src/power/techfile.txt), so that file is read as it is; their defaults are its values, the 2007 ITRS
// predictions for a 32 nm high-performance library at 70 C. The node keys default to Horowitz's 45 nm
// figures (ISSCC 2014, "Computing's energy problem"); docs/energy.md derives each.
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

  // The nodes (docs/energy.md, "Nodes and fabrics"): energy per event [J], static power [W].
  double node_instruction_energy = 70e-12;  // one instruction of a simple core; a start-up is t_s of them
  double node_dma_byte_energy = 2.5e-12;    // a byte through the DMA engine's staging buffer (write + read)
  double node_memory_byte_energy = 12.5e-12;  // a byte read or written in a node's local memory
  double node_copy_byte_energy = 17.5e-12;  // a copied byte's load and store instructions (8 bytes each)
  double node_idle_power = 0;               // a node's static power beyond its memory's leakage [W]
  // 004's fabrics: a byte read or written in a bank of the global memory [J]. The bus and the switch are
  // priced as wires (wire_byte_energy): the bus spans every node's tile, a switch stage one tile.
  double bank_byte_energy = 12.5e-12;

  // The clock the network model is designed for: 20 FO4 delays of a 1 um inverter.
  double clock_hz() const { return 1.0 / (20.0 * R * (3.0 * Cd + 12.0 * Cg + 12.0 * Cgdl)); }
  // One byte over `length_mm` of unrepeated wire: 8 bits, each switching with activity 1/2, at
  // 1/2 C V^2 per transition, C = 2 (Cw_gnd + Cw_cpl) per mm (as the network model's wires).
  double wire_byte_energy(double length_mm) const {
    return 8 * 0.5 * 0.5 * 2 * (Cw_gnd + Cw_cpl) * length_mm * Vdd * Vdd;
  }
  // A node's memory of `bytes` leaking as SRAM cells (IoffSRAM each, as the input buffers leak).
  double memory_leakage_power(double bytes) const { return 8 * bytes * IoffSRAM * Vdd; }
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
