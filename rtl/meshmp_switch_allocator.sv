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
  // Test only (0 in a real router): 2 lets the last requesting input win at an output instead of the
  // first from the pointer; keep_pointers_through_reset leaves the round-robin pointers at their power-on
  // values (the co-verification tests must catch both, the second only from a random power-on state). The
  // latter is the raw strap, read only at the reset edges (the sampled copy is itself at its power-on
  // value at the first one).
  input  logic [1:0] test_fault,
  input  logic       keep_pointers_through_reset,
  // Per input VC (index port*VCS + vc).
  input  logic [PORTS*VCS-1:0]   request,
  input  logic [PORTS*VCS*8-1:0] request_port,
  input  logic [PORTS*VCS*4-1:0] request_out_vc,
  // Per output VC: a credit is available this cycle.
  input  logic [PORTS*VCS-1:0]   has_credit,
  // Per input port: the switch takes the front flit of this VC.
  output logic [PORTS-1:0]       pop_valid,
  output logic [PORTS*4-1:0]     pop_vc,
  // Per output port: the input port it takes a flit from.
  output logic [PORTS-1:0]       grant,
  output logic [PORTS*8-1:0]     grant_input
);
  localparam int VC_INDEX_BITS = $clog2(VCS);
  localparam int PORT_INDEX_BITS = $clog2(PORTS);

  logic [PORTS*4-1:0] input_pointer_q;    // per input port: VC
  logic [PORTS*8-1:0] output_pointer_q;   // per output port: input port
  logic [PORTS-1:0]   input_valid;        // per input port: it picked a VC ...
  logic [PORTS*4-1:0] input_vc;           // ... this one ...
  logic [PORTS*8-1:0] input_port_wanted;  // ... which goes to this output port

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
              has_credit[32'(request_port[(p*VCS + c)*8 +: 8]) * VCS + 32'(request_out_vc[(p*VCS + c)*4 +: 4])];
        rotated = {candidates, candidates} >> input_pointer_q[p*4 +: VC_INDEX_BITS];
        for (int k = VCS - 1; k >= 0; k--)
          if (rotated[k]) first = k;
        if (first < VCS) begin
          v = (32'(input_pointer_q[p*4 +: 4]) + first) % VCS;
          input_valid[p] = 1'b1;
          input_vc[p*4 +: 4] = 4'(v);
          input_port_wanted[p*8 +: 8] = request_port[(p*VCS + v)*8 +: 8];
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
        for (int p = 0; p < PORTS; p++) wanting[p] = input_valid[p] && 32'(input_port_wanted[p*8 +: 8]) == o;
        if (wanting != '0) begin
          rotated = {wanting, wanting} >> output_pointer_q[o*8 +: PORT_INDEX_BITS];
          for (int k = PORTS - 1; k >= 0; k--)
            if (rotated[k] && (test_fault != 2'd2 || chosen == PORTS)) chosen = k;
          winner = 32'(output_pointer_q[o*8 +: 8]) + chosen;
          if (winner >= PORTS) winner -= PORTS;
          grant[o] = 1'b1;
          grant_input[o*8 +: 8] = 8'(winner);
          pop_valid[winner] = 1'b1;
          pop_vc[winner*4 +: 4] = input_vc[winner*4 +: 4];
        end
      end
    end
  end

  always_ff @(posedge clk)
    if (rst) begin
      if (!keep_pointers_through_reset) begin
        input_pointer_q <= '0;
        output_pointer_q <= '0;
      end
    end else
      for (int p = 0; p < PORTS; p++) begin
        if (pop_valid[p]) input_pointer_q[p*4 +: 4] <= 32'(input_vc[p*4 +: 4]) + 1 == VCS ? 4'd0 : input_vc[p*4 +: 4] + 4'd1;
        if (grant[p])
          output_pointer_q[p*8 +: 8] <= 32'(grant_input[p*8 +: 8]) + 1 == PORTS ? 8'd0 : grant_input[p*8 +: 8] + 8'd1;
      end
endmodule
