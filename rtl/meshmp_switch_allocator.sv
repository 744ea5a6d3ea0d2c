// Switch allocation, separable input-first (the SystemC twin: hw/router/switch_allocator.*): each input port
// picks one of its VCs that is active with a ready front flit and a credit on its output VC, round robin
// from the port's pointer; each output port then grants one of the inputs that picked it, round robin from
// its own pointer. Both pointers move past the winner.
module meshmp_switch_allocator #(
  parameter int PORTS = 5,
  parameter int VCS = 4           // a power of two
) (
  input  logic clk,
  input  logic rst,
`ifdef MESHMP_FAULT_INJECTION
  // The checked configuration's injected bug (meshmp_router_pkg's FAULT_*): FAULT_LAST_INPUT_WINS lets the
  // last requesting input win at an output instead of the first from the pointer, FAULT_NO_CREDIT_CHECK
  // lets a VC without a credit win, FAULT_TWO_OUTPUTS lets the output port after the one an input picked
  // grant it too. keep_pointers_through_reset (FAULT_POINTERS_OUT_OF_RESET) leaves the round-robin
  // pointers at their power-on values: it is the raw strap, read only at the reset edges (the sampled
  // copy is itself at its power-on value at the first one).
  input  logic [meshmp_router_pkg::FAULT_BITS-1:0] fault,
  input  logic keep_pointers_through_reset,
`endif
  // Per input VC (index port*VCS + vc).
  input  logic [PORTS*VCS-1:0]                            request,
  input  logic [PORTS*VCS*meshmp_flit_pkg::PORT_BITS-1:0] request_port,
  input  logic [PORTS*VCS*meshmp_flit_pkg::VC_BITS-1:0]   request_out_vc,
  // Per output VC: a credit is available this cycle.
  input  logic [PORTS*VCS-1:0]                            has_credit,
  // Per input port: the switch takes the front flit of this VC.
  output logic [PORTS-1:0]                                pop_valid,
  output logic [PORTS*meshmp_flit_pkg::VC_BITS-1:0]       pop_vc,
  // Per output port: the input port it takes a flit from.
  output logic [PORTS-1:0]                                grant,
  output logic [PORTS*meshmp_flit_pkg::PORT_BITS-1:0]     grant_input
);
  localparam int PORT_BITS = meshmp_flit_pkg::PORT_BITS;
  localparam int VC_BITS = meshmp_flit_pkg::VC_BITS;
  localparam int VC_INDEX_BITS = $clog2(VCS);
  localparam int PORT_INDEX_BITS = $clog2(PORTS);

  // The injected bugs, constants 0 in a production router.
  logic last_input_wins, no_credit_check, two_outputs, keep_pointers;
`ifdef MESHMP_FAULT_INJECTION
  assign last_input_wins = fault == meshmp_router_pkg::FAULT_LAST_INPUT_WINS;
  assign no_credit_check = fault == meshmp_router_pkg::FAULT_NO_CREDIT_CHECK;
  assign two_outputs = fault == meshmp_router_pkg::FAULT_TWO_OUTPUTS;
  assign keep_pointers = keep_pointers_through_reset;
`else
  assign {last_input_wins, no_credit_check, two_outputs, keep_pointers} = '0;
`endif

  logic [PORTS*VC_INDEX_BITS-1:0]   input_pointer_q;    // per input port: VC
  logic [PORTS*PORT_INDEX_BITS-1:0] output_pointer_q;   // per output port: input port
  logic [PORTS-1:0]           input_valid;        // per input port: it picked a VC ...
  logic [PORTS*VC_BITS-1:0]   input_vc;           // ... this one ...
  logic [PORTS*PORT_BITS-1:0] input_port_wanted;  // ... which goes to this output port

  // Round robin as "the first candidate in the request mask rotated to start at the pointer" (shifts and
  // loops with constant indices: what a simulator and a synthesizer both handle best). Every stage is
  // guarded by "any request": most ports have none in most cycles.

  // Input stage.
  always_comb begin
    logic [VCS-1:0] candidates;
    logic [2*VCS-1:0] rotated;
    int first;
    int v;
    input_valid = '0;
    input_vc = '0;
    input_port_wanted = '0;
    for (int p = 0; p < PORTS; p++) begin
      candidates = '0;
      rotated = '0;
      first = VCS;
      v = 0;
      if (request[p*VCS +: VCS] != '0) begin
        for (int c = 0; c < VCS; c++)
          candidates[c] = request[p*VCS + c] &&
              (has_credit[32'(request_port[(p*VCS + c)*PORT_BITS +: PORT_BITS]) * VCS +
                          32'(request_out_vc[(p*VCS + c)*VC_BITS +: VC_BITS])] || no_credit_check);
        rotated = {candidates, candidates} >> input_pointer_q[p*VC_INDEX_BITS +: VC_INDEX_BITS];
        for (int k = VCS - 1; k >= 0; k--)
          if (rotated[k]) first = k;
        if (first < VCS) begin
          v = (32'(input_pointer_q[p*VC_INDEX_BITS +: VC_INDEX_BITS]) + first) % VCS;
          input_valid[p] = 1'b1;
          input_vc[p*VC_BITS +: VC_BITS] = VC_BITS'(v);
          input_port_wanted[p*PORT_BITS +: PORT_BITS] = request_port[(p*VCS + v)*PORT_BITS +: PORT_BITS];
        end
      end
    end
  end

  // Output stage.
  always_comb begin
    logic [PORTS-1:0] wanting;
    logic [2*PORTS-1:0] rotated;
    int chosen;
    int winner;
    pop_valid = '0;
    pop_vc = '0;
    grant = '0;
    grant_input = '0;
    for (int o = 0; o < PORTS; o++) begin
      wanting = '0;
      rotated = '0;
      chosen = PORTS;
      winner = 0;
      if (input_valid != '0) begin
        for (int p = 0; p < PORTS; p++)
          wanting[p] = input_valid[p] && (32'(input_port_wanted[p*PORT_BITS +: PORT_BITS]) == o ||
                                          (two_outputs && 32'(input_port_wanted[p*PORT_BITS +: PORT_BITS]) + 1 == o));
        if (wanting != '0) begin
          rotated = {wanting, wanting} >> output_pointer_q[o*PORT_INDEX_BITS +: PORT_INDEX_BITS];
          for (int k = PORTS - 1; k >= 0; k--)
            if (rotated[k] && (!last_input_wins || chosen == PORTS)) chosen = k;
          winner = 32'(output_pointer_q[o*PORT_INDEX_BITS +: PORT_INDEX_BITS]) + chosen;
          if (winner >= PORTS) winner -= PORTS;
          grant[o] = 1'b1;
          grant_input[o*PORT_BITS +: PORT_BITS] = PORT_BITS'(winner);
          pop_valid[winner] = 1'b1;
          pop_vc[winner*VC_BITS +: VC_BITS] = input_vc[winner*VC_BITS +: VC_BITS];
        end
      end
    end
  end

  always_ff @(posedge clk)
    if (rst) begin
      if (!keep_pointers) begin
        input_pointer_q <= '0;
        output_pointer_q <= '0;
      end
    end else
      for (int p = 0; p < PORTS; p++) begin
        if (pop_valid[p])
          input_pointer_q[p*VC_INDEX_BITS +: VC_INDEX_BITS] <=
              32'(input_vc[p*VC_BITS +: VC_BITS]) + 1 == VCS
                  ? '0 : VC_INDEX_BITS'(input_vc[p*VC_BITS +: VC_BITS] + 1'b1);
        if (grant[p])
          output_pointer_q[p*PORT_INDEX_BITS +: PORT_INDEX_BITS] <=
              32'(grant_input[p*PORT_BITS +: PORT_BITS]) + 1 == PORTS
                  ? '0 : PORT_INDEX_BITS'(grant_input[p*PORT_BITS +: PORT_BITS] + 1'b1);
      end

`ifdef MESHMP_ASSERTIONS
  // Invariants (checked configuration, verilated with --assert; rtl/README.md): each granting output
  // takes a flit from exactly one input port, and each input port gives its flit to at most one output,
  // the input it pops. Checked at the edge where the flits cross.
  logic [PORTS-1:0][PORTS-1:0] granted_by_output;  // [output][input]
  logic [PORTS-1:0][PORTS-1:0] granted_by_input;   // [input][output]
  always_comb
    for (int o = 0; o < PORTS; o++)
      for (int p = 0; p < PORTS; p++) begin
        granted_by_output[o][p] = grant[o] && 32'(grant_input[o*PORT_BITS +: PORT_BITS]) == p;
        granted_by_input[p][o] = granted_by_output[o][p];
      end
  for (genvar o = 0; o < PORTS; o++) begin : g_output_grant
    one_input_per_output: assert property (@(posedge clk) disable iff (rst)
        grant[o] |-> $onehot(granted_by_output[o]))
      else $error("switch allocation: output port %0d grants input ports %b", o, granted_by_output[o]);
  end
  for (genvar p = 0; p < PORTS; p++) begin : g_input_grant
    one_output_per_input: assert property (@(posedge clk) disable iff (rst)
        $onehot0(granted_by_input[p]) && pop_valid[p] == (granted_by_input[p] != '0))
      else $error("switch allocation: input port %0d granted by output ports %b (popped %b)", p,
                  granted_by_input[p], pop_valid[p]);
  end
`endif
endmodule
