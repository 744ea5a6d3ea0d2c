// Router-wide definitions shared by the stage modules: the widths of the router's own numbers, the VC states,
// the faults the checked configuration can inject, and the age of a buffered flit
// from its VC's write history (docs/architecture.md, "Router microarchitecture").
//
// Ages: per input VC a write-history shift register (bit k set when a flit was written k cycles ago,
// k < AGE_SATURATION); the young flits are the newest, so the i-th newest flit's age is the position of
// the i-th set bit, and every older flit is old enough for any stage.
package meshmp_router_pkg;
  // Ages saturate here: no pipeline is deeper (hw/router/input_unit.h, kAgeSaturation).
  localparam int AGE_SATURATION = 5;

  // Widths of the router's own numbers; those a flit carries (VC numbers, ports, destinations, dimensions,
  // packet lengths) are meshmp_flit_pkg's. Ports and straps keep these widths: hw/router/rtl_router.cpp
  // packs them.
  localparam int FLIT_COUNT_BITS = 8;       // flits of one VC's buffer: held, credits, the depth strap
                                            // cfg_buffer_flits; also a port's stalled body flits in a cycle
  localparam int CREDIT_RETURN_BITS = 4;    // credits returned to one output VC in one cycle (credit_in)
  localparam int PIPELINE_DEPTH_BITS = 3;   // the strap cfg_pipeline_depth, 1..5
  localparam int SWITCHING_BITS = 2;        // the strap cfg_switching (meshmp_flit_pkg's switching modes)
  localparam int STALL_COUNTER_BITS = 64;   // the performance counter body_stall_cycles
  localparam int ERROR_BITS = 3;            // the sticky protocol errors (meshmp_router's error)

  // Adaptive routing by the routing table's choices (meshmp_route_table, meshmp_route_select): up to
  // ROUTE_CHOICES outputs per destination, in the routing function's order, and the policy that picks one.
  localparam int ROUTE_CHOICES = 4;
  localparam int CHOICE_COUNT_BITS = 3;     // 0..ROUTE_CHOICES outputs (0: the table's one port decides)
  localparam int SELECTION_BITS = 1;        // the strap cfg_selection
  localparam logic [SELECTION_BITS-1:0] SELECT_FIRST = SELECTION_BITS'(0),         // the first output with a VC
                                        SELECT_MOST_CREDITS = SELECTION_BITS'(1);  // the most credits on such VCs

  // The state of an input VC: no packet, a routed head waiting for an output VC, a packet holding one.
  localparam int STATE_BITS = 2;
  localparam logic [STATE_BITS-1:0] IDLE = STATE_BITS'(0), WAITING = STATE_BITS'(1),
                                    ACTIVE = STATE_BITS'(2);

`ifdef MESHMP_FAULT_INJECTION
  // The bugs a test injects into the checked configuration (rtl/CMakeLists.txt) through its strap
  // test_fault, which a production router does not have (rtl/README.md, "Assertions and fault injection").
  // The lockstep comparisons must catch the first three (hw/router/dual_router.h), the assertions the
  // other two.
  localparam int FAULT_BITS = 3;
  /* verilator lint_off UNUSEDPARAM */
  localparam logic [FAULT_BITS-1:0] NO_FAULT = FAULT_BITS'(0);
  /* verilator lint_on UNUSEDPARAM */
  // Input port 0 returns no credit for VC 0.
  localparam logic [FAULT_BITS-1:0] FAULT_DROPPED_CREDIT = FAULT_BITS'(1);
  // Switch allocation: at an output, the last requesting input from the pointer wins, not the first.
  localparam logic [FAULT_BITS-1:0] FAULT_LAST_INPUT_WINS = FAULT_BITS'(2);
  // The switch allocator's round-robin pointers keep their power-on values through the reset.
  localparam logic [FAULT_BITS-1:0] FAULT_POINTERS_OUT_OF_RESET = FAULT_BITS'(3);
  // Switch allocation ignores credits: a flit may leave on an output VC whose downstream buffer is full.
  localparam logic [FAULT_BITS-1:0] FAULT_NO_CREDIT_CHECK = FAULT_BITS'(4);
  // The output port after the one an input picked grants that input too: two grants for one input.
  localparam logic [FAULT_BITS-1:0] FAULT_TWO_OUTPUTS = FAULT_BITS'(5);
`endif

  function automatic int bits_set(input logic [AGE_SATURATION-1:0] history);
    int n;
    n = 0;
    for (int k = 0; k < AGE_SATURATION; k++) n = n + 32'(history[k]);
    bits_set = n;
  endfunction

  // Age (saturating) of the flit `behind` places behind the front of a VC holding `held` flits.
  function automatic int age_of(input logic [AGE_SATURATION-1:0] history, input int held, input int behind);
    int newest_first;
    int seen;
    int age;
    newest_first = held - 1 - behind;
    seen = 0;
    age = AGE_SATURATION;
    if (newest_first < bits_set(history))
      for (int k = 0; k < AGE_SATURATION; k++)
        if (history[k]) begin
          if (seen == newest_first && age == AGE_SATURATION) age = k;
          seen = seen + 1;
        end
    age_of = age;
  endfunction
endpackage
