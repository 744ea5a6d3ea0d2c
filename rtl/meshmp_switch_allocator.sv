// Switch allocation, separable input-first (the SystemC twin: hw/switch_allocator.*): each input port
// picks one of its VCs that is active with a ready front flit and a credit on its output VC, round robin
// from the port's pointer; each output port then grants one of the inputs that picked it, round robin from
// its own pointer. Both pointers move past the winner.
module meshmp_switch_allocator #(
  parameter int PORTS = 5,
  parameter int VCS = 4
) (
  input  logic clk,
  input  logic rst,
  // Test only (0 in a real router): 2 lets the last requesting input win at an output instead of the
  // first from the pointer (the co-verification tests must catch it).
  input  logic [1:0] test_fault,
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
  logic [PORTS*4-1:0] input_pointer_q;    // per input port: VC
  logic [PORTS*8-1:0] output_pointer_q;   // per output port: input port
  logic [PORTS-1:0] input_valid;
  logic [3:0] input_vc [PORTS];
  logic [7:0] input_port_wanted [PORTS];

  // Round robin as "the eligible candidate nearest after the pointer" (loops over candidates with
  // constant indices: what a simulator and a synthesizer both handle best).

  // Input stage.
  always_comb
    for (int p = 0; p < PORTS; p++) begin
      int best;
      best = VCS;
      input_vc[p] = 4'd0;
      input_port_wanted[p] = 8'd0;
      for (int v = 0; v < VCS; v++) begin
        int i;
        int distance;
        i = p*VCS + v;
        distance = v - 32'(input_pointer_q[p*4 +: 4]);
        if (distance < 0) distance += VCS;
        if (request[i] && distance < best &&
            has_credit[32'(request_port[i*8 +: 8]) * VCS + 32'(request_out_vc[i*4 +: 4])]) begin
          best = distance;
          input_vc[p] = 4'(v);
          input_port_wanted[p] = request_port[i*8 +: 8];
        end
      end
      input_valid[p] = best < VCS;
    end

  // Output stage.
  always_comb begin
    pop_valid = '0;
    pop_vc = '0;
    for (int o = 0; o < PORTS; o++) begin
      int best;
      best = -1;
      grant_input[o*8 +: 8] = 8'd0;
      for (int p = 0; p < PORTS; p++) begin
        int distance;
        distance = p - 32'(output_pointer_q[o*8 +: 8]);
        if (distance < 0) distance += PORTS;
        if (input_valid[p] && 32'(input_port_wanted[p]) == o &&
            (best < 0 || (test_fault == 2'd2 ? distance > best : distance < best))) begin
          best = distance;
          grant_input[o*8 +: 8] = 8'(p);
        end
      end
      grant[o] = best >= 0;
      for (int p = 0; p < PORTS; p++)
        if (grant[o] && 32'(grant_input[o*8 +: 8]) == p) begin
          pop_valid[p] = 1'b1;
          pop_vc[p*4 +: 4] = input_vc[p];
        end
    end
  end

  always_ff @(posedge clk)
    if (rst) begin
      input_pointer_q <= '0;
      output_pointer_q <= '0;
    end else
      for (int p = 0; p < PORTS; p++) begin
        if (pop_valid[p]) input_pointer_q[p*4 +: 4] <= 32'(input_vc[p]) + 1 == VCS ? 4'd0 : input_vc[p] + 4'd1;
        if (grant[p])
          output_pointer_q[p*8 +: 8] <= 32'(grant_input[p*8 +: 8]) + 1 == PORTS ? 8'd0 : grant_input[p*8 +: 8] + 8'd1;
      end
endmodule
