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
`ifdef MESHMP_FAULT_INJECTION
  // The checked configuration's injected bug (meshmp_router_pkg's FAULT_*): FAULT_DROPPED_CREDIT drops
  // every credit of input port 0 VC 0.
  input  logic [meshmp_router_pkg::FAULT_BITS-1:0] fault,
`endif
  input  logic [PORTS-1:0]                            grant,           // per output port (meshmp_switch_allocator)
  input  logic [PORTS*meshmp_flit_pkg::PORT_BITS-1:0] grant_input,
  input  logic [PORTS-1:0]                            pop_valid,       // per input port
  input  logic [PORTS*meshmp_flit_pkg::VC_BITS-1:0]   pop_vc,
  // Per input port (meshmp_input_unit): the output VC of the flit that leaves, whether it is a tail, and
  // from the edge the flit itself.
  input  logic [PORTS*meshmp_flit_pkg::VC_BITS-1:0]   departing_vc,
  input  logic [PORTS-1:0]                            departing_tail,
  input  logic [PORTS*meshmp_flit_pkg::FLIT_STRIDE-1:0] departed_flit,
  // What crosses to each output unit this cycle.
  output logic [PORTS-1:0]                            send,
  output logic [PORTS*meshmp_flit_pkg::VC_BITS-1:0]   send_vc,
  output logic [PORTS-1:0]                            send_tail,
  // The links: the flit each output port sent at the last edge, the credits each input port returned.
  output logic [PORTS*meshmp_flit_pkg::FLIT_STRIDE-1:0] flit_out,
  output logic [PORTS-1:0]                            credit_out_valid,
  output logic [PORTS*meshmp_flit_pkg::VC_BITS-1:0]   credit_out_vc
);
  localparam int FLIT_STRIDE = meshmp_flit_pkg::FLIT_STRIDE;
  localparam int PORT_BITS = meshmp_flit_pkg::PORT_BITS;
  localparam int VC_BITS = meshmp_flit_pkg::VC_BITS;

  // The injected bug, a constant 0 in a production router.
  logic drop_credit;
`ifdef MESHMP_FAULT_INJECTION
  assign drop_credit = fault == meshmp_router_pkg::FAULT_DROPPED_CREDIT;
`else
  assign drop_credit = 1'b0;
`endif

  always_comb
    for (int o = 0; o < PORTS; o++) begin
      send[o] = grant[o];
      send_vc[o*VC_BITS +: VC_BITS] = '0;
      send_tail[o] = 1'b0;
      for (int p = 0; p < PORTS; p++)
        if (32'(grant_input[o*PORT_BITS +: PORT_BITS]) == p) begin
          send_vc[o*VC_BITS +: VC_BITS] = departing_vc[p*VC_BITS +: VC_BITS];
          send_tail[o] = departing_tail[p];
        end
    end

  logic [PORTS-1:0]           granted_q;
  logic [PORTS*PORT_BITS-1:0] granted_input_q;
  always_comb
    for (int o = 0; o < PORTS; o++) begin
      flit_out[o*FLIT_STRIDE +: FLIT_STRIDE] = '0;
      for (int p = 0; p < PORTS; p++)
        if (granted_q[o] && 32'(granted_input_q[o*PORT_BITS +: PORT_BITS]) == p)
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
        credit_out_valid[p] <= pop_valid[p] && !(drop_credit && p == 0 && pop_vc[p*VC_BITS +: VC_BITS] == '0);
      credit_out_vc <= pop_vc;
    end
endmodule
