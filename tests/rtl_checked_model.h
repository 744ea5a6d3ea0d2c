// The checked configuration of the RTL router, for tests only (rtl/CMakeLists.txt, rtl/README.md): p5v4 (4
// network + 1 local ports, 4 VCs) verilated with the router's assertions compiled in and enabled
// (MESHMP_ASSERTIONS, Verilator's --assert) and with the fault-injection strap test_fault
// (MESHMP_FAULT_INJECTION), which the production configurations do not have. Given to RtlRouter or
// DualRouter in place of the matrix's configuration. A violated assertion prints Verilator's "Assertion
// failed in <instance>: ..." on the standard output and aborts the program.
#pragma once

#include "hw/router/rtl_model_port.h"

namespace meshmp {

// The bugs the checked configuration injects, the codes of rtl/meshmp_router_pkg.sv (FAULT_*): the
// lockstep comparisons must catch the first three, the assertions the last two.
enum class RtlFault {
  None = 0,
  DroppedCredit = 1,       // input port 0 returns no credit for VC 0
  LastInputWins = 2,       // switch allocation: at an output, the last requesting input wins
  PointersOutOfReset = 3,  // the switch allocator's pointers keep their power-on values
  NoCreditCheck = 4,       // switch allocation ignores credits: a flit may leave on a full VC
  TwoOutputs = 5,          // the output port after the one an input picked grants it too
};

// The checked configuration with `fault` injected into every model it builds.
RtlModelConfiguration checked_rtl_model(RtlFault fault = RtlFault::None);

// Turns the checked models' assertions off (a test of what the lockstep comparison alone catches) or back
// on (the default): Verilator's run-time switch for every model of the program's context.
void set_rtl_assertions_enabled(bool enabled);

}  // namespace meshmp
