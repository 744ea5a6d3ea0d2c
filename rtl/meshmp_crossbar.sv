// Switch traversal (the SystemC twin: the traversal step of hw/router/router.cpp): each granted output port
// takes the flit of its input port, and each input port that sent a flit returns a credit upstream for
// the VC it left. At the edge the input units keep the flits that left (meshmp_input_unit, departed_flit)
// and the crossbar keeps which input each output took: from the edge until the next, each output link
// carries its flit through the crossbar's multiplexers, and the credits are on their registers.
module meshmp_crossbar #(
  parameter int PORTS = 5
) (
  input  logic clk,
  input  logic rst,
  // Test only (0 in a real router): 1 drops every credit of input port 0 VC 0 (the co-verification
  // tests must catch it).
  input  logic [1:0] test_fault,
  input  logic [PORTS-1:0]   grant,            // per output port (meshmp_switch_allocator)
  input  logic [PORTS*8-1:0] grant_input,
  input  logic [PORTS-1:0]   pop_valid,        // per input port
  input  logic [PORTS*4-1:0] pop_vc,
  input  logic [PORTS*4-1:0] departing_vc,     // per input port (meshmp_input_unit): the flit's output VC
  input  logic [PORTS-1:0]   departing_tail,
  input  logic [PORTS*meshmp_flit_pkg::FLIT_STRIDE-1:0] departed_flit,  // per input port, from the edge
  // What crosses to each output unit this cycle.
  output logic [PORTS-1:0]   send,
  output logic [PORTS*4-1:0] send_vc,
  output logic [PORTS-1:0]   send_tail,
  // The links: the flit each output port sent at the last edge, the credits each input port returned.
  output logic [PORTS*meshmp_flit_pkg::FLIT_STRIDE-1:0] flit_out,
  output logic [PORTS-1:0]   credit_out_valid,
  output logic [PORTS*4-1:0] credit_out_vc
);
  localparam int FLIT_STRIDE = meshmp_flit_pkg::FLIT_STRIDE;

  always_comb
    for (int o = 0; o < PORTS; o++) begin
      send[o] = grant[o];
      send_vc[o*4 +: 4] = 4'd0;
      send_tail[o] = 1'b0;
      for (int p = 0; p < PORTS; p++)
        if (32'(grant_input[o*8 +: 8]) == p) begin
          send_vc[o*4 +: 4] = departing_vc[p*4 +: 4];
          send_tail[o] = departing_tail[p];
        end
    end

  logic [PORTS-1:0]   granted_q;
  logic [PORTS*8-1:0] granted_input_q;
  always_comb
    for (int o = 0; o < PORTS; o++) begin
      flit_out[o*FLIT_STRIDE +: FLIT_STRIDE] = '0;
      for (int p = 0; p < PORTS; p++)
        if (granted_q[o] && 32'(granted_input_q[o*8 +: 8]) == p)
          flit_out[o*FLIT_STRIDE +: FLIT_STRIDE] = departed_flit[p*FLIT_STRIDE +: FLIT_STRIDE];
    end

  always_ff @(posedge clk)
    if (rst) begin
      granted_q <= '0;
      granted_input_q <= '0;
      credit_out_valid <= '0;
      credit_out_vc <= '0;
    end else begin
      granted_q <= grant;
      granted_input_q <= grant_input;
      for (int p = 0; p < PORTS; p++)
        credit_out_valid[p] <= pop_valid[p] && !(test_fault == 2'd1 && p == 0 && pop_vc[p*4 +: 4] == 4'd0);
      credit_out_vc <= pop_vc;
    end
endmodule
