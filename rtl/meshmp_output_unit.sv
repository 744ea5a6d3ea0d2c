// The output unit of one router port (the SystemC twin: hw/router/output_unit.*): per output VC the credits of
// the downstream buffer and whether a packet holds the VC. Credits returned this cycle count at once:
// they are taken at the falling edge, half a cycle before the rising edge that acts on them, so that
// every allocator decision depends on registers only (a simulator then evaluates the allocators once per
// edge instead of whenever an input changes). A VC is claimed by VC allocation and released when its
// packet's tail crosses the switch.
module meshmp_output_unit #(
  parameter int VCS = 4
) (
  input  logic clk,
  input  logic rst,
  input  logic [7:0] cfg_buffer_flits,        // credits per VC (a strap, sampled during reset)
  input  logic       allocate,                // the allocators decide (meshmp_router): credits are read
  input  logic [VCS*4-1:0] credit_in,         // credits returned this cycle, per VC (a count), by the falling edge
  output logic [VCS*8-1:0] credits,           // available this cycle, the returned ones included (valid
                                              // while allocating; in a waveform read credits_q)
  output logic [VCS-1:0]   has_credit,        // at least one credit available this cycle
  output logic [VCS-1:0]   owned,             // held by a packet (at the edge)
  output logic             credit_overflow,   // more credits than the downstream buffer has (sticky)
  input  logic [VCS-1:0]   claim,             // VC allocation gives these VCs to packets
  input  logic             send,              // a flit crosses the switch to this port ...
  input  logic [3:0]       send_vc,           // ... on this VC ...
  input  logic             send_tail          // ... and it is its packet's tail
);
  logic [VCS*8-1:0] credits_q;
  logic [VCS*4-1:0] returned_q;   // taken at the falling edge
  logic [VCS-1:0] owned_q;
  logic [7:0] buffer_flits_q;

  always_ff @(negedge clk) returned_q <= rst ? '0 : credit_in;

  assign owned = owned_q;
  always_comb begin
    credits = '0;
    has_credit = '0;
    if (allocate)  // (the only time they are read: a simulator skips them otherwise)
      for (int v = 0; v < VCS; v++) begin
        credits[v*8 +: 8] = credits_q[v*8 +: 8] + {4'd0, returned_q[v*4 +: 4]};
        has_credit[v] = credits[v*8 +: 8] != 8'd0;
      end
  end

  always_ff @(posedge clk)
    if (rst) begin
      credits_q <= {VCS{cfg_buffer_flits}};
      buffer_flits_q <= cfg_buffer_flits;
      owned_q <= '0;
      credit_overflow <= 1'b0;
    end else
      for (int v = 0; v < VCS; v++) begin
        logic sent;
        sent = send && 32'(send_vc) == v;
        if (credits[v*8 +: 8] > buffer_flits_q) credit_overflow <= 1'b1;
        credits_q[v*8 +: 8] <= credits[v*8 +: 8] - 8'(sent);
        owned_q[v] <= (owned_q[v] || claim[v]) && !(sent && send_tail);
      end
endmodule
