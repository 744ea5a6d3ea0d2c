// Router-wide definitions shared by the stage modules: the VC states and the age of a buffered flit
// from its VC's write history (docs/architecture.md, "Router microarchitecture").
//
// Ages: per input VC a write-history shift register (bit k set when a flit was written k cycles ago,
// k < AGE_SATURATION); the young flits are the newest, so the i-th newest flit's age is the position of
// the i-th set bit, and every older flit is old enough for any stage.
package meshmp_router_pkg;
  // Ages saturate here: no pipeline is deeper (hw/router/input_unit.h, kAgeSaturation).
  localparam int AGE_SATURATION = 5;

  // The state of an input VC: no packet, a routed head waiting for an output VC, a packet holding one.
  localparam logic [1:0] IDLE = 2'd0, WAITING = 2'd1, ACTIVE = 2'd2;

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
