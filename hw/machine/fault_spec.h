// The faults a run injects (run.inject_faults, --inject-fault SPEC, repeatable), for verification: what do
// the machine, its verifier, its watchdog and its lockstep checks make of a fault? Each SPEC is one of
//   memory:NODE:ADDRESS[:BIT]   when the run has ended, before the verifier: flip bit BIT (0..7, default 0)
//                               of byte ADDRESS of node NODE's memory;
//   flip:FROM-TO:CYCLE[:BIT]    the first payload flit to leave node FROM's router for its neighbour TO at
//                               or after CYCLE has bit BIT (default 0) of its payload flipped (modulo the
//                               bits it carries);
//   drop:FROM-TO:CYCLE          that flit never arrives;
//   credit:FROM-TO:CYCLE        the first credit TO's router returns to FROM's for that link at or after
//                               CYCLE is withheld.
// Link faults (hw/network/link_faults.h) need the cycle-level router network (either router model); a
// memory fault any machine. The run reports what each did (statistics.faults, the summary).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/network/interconnect.h"
#include "hw/network/link_faults.h"
#include "topology/topology.h"

namespace meshmp {

struct FaultSpec {
  enum class Kind { Memory, Link };
  Kind kind = Kind::Memory;
  std::string text;  // as given
  // Memory.
  int node = 0;
  std::uint64_t address = 0;
  int bit = 0;
  // Link.
  LinkFault link;
};

// The rule every SPEC follows, for messages and the help.
extern const char* const kFaultSpecRule;

// Parses one SPEC; ConfigError("run.inject_faults", text, rule) when it is malformed.
FaultSpec parse_fault_spec(const std::string& text);
// Checks a parsed SPEC against the machine: its nodes and link exist; a link fault needs the cycle-level
// router network. ConfigError("run.inject_faults", text, rule) otherwise.
void check_fault_spec(const FaultSpec& fault, const Topology& topology, NetworkFidelity fidelity);

// What a fault did in a run: the spec, whether it fired, at which cycle, and its effect.
struct FaultReport {
  std::string spec;
  bool fired = false;
  std::uint64_t cycle = 0;
  std::string effect;  // what it changed, or why it never fired
};

}  // namespace meshmp
