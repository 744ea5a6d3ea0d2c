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
  // Credits per VC (a strap, sampled during reset).
  input  logic [meshmp_router_pkg::FLIT_COUNT_BITS-1:0]        cfg_buffer_flits,
  // The allocators decide (meshmp_router): credits are read.
  input  logic                                                 allocate,
  // Credits returned this cycle, per VC (a count), by the falling edge.
  input  logic [VCS*meshmp_router_pkg::CREDIT_RETURN_BITS-1:0] credit_in,
  // Available this cycle, the returned ones included (valid while allocating; in a waveform read credits_q).
  output logic [VCS*meshmp_router_pkg::FLIT_COUNT_BITS-1:0]    credits,
  output logic [VCS-1:0]   has_credit,        // at least one credit available this cycle
  output logic [VCS-1:0]   owned,             // held by a packet (at the edge)
  output logic             credit_overflow,   // more credits than the downstream buffer has (sticky)
  input  logic [VCS-1:0]   claim,             // VC allocation gives these VCs to packets
  input  logic             send,              // a flit crosses the switch to this port ...
  input  logic [meshmp_flit_pkg::VC_BITS-1:0] send_vc,  // ... on this VC ...
  input  logic             send_tail          // ... and it is its packet's tail
);
  localparam int FLIT_COUNT_BITS = meshmp_router_pkg::FLIT_COUNT_BITS;
  localparam int CREDIT_RETURN_BITS = meshmp_router_pkg::CREDIT_RETURN_BITS;

  logic [VCS*FLIT_COUNT_BITS-1:0]    credits_q;
  logic [VCS*CREDIT_RETURN_BITS-1:0] returned_q;   // taken at the falling edge
  logic [VCS-1:0] owned_q;
  logic [FLIT_COUNT_BITS-1:0] buffer_flits_q;

  always_ff @(negedge clk) returned_q <= rst ? '0 : credit_in;

  assign owned = owned_q;
  always_comb begin
    credits = '0;
    has_credit = '0;
    if (allocate)  // (the only time they are read: a simulator skips them otherwise)
      for (int v = 0; v < VCS; v++) begin
        credits[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] = credits_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] +
            FLIT_COUNT_BITS'(returned_q[v*CREDIT_RETURN_BITS +: CREDIT_RETURN_BITS]);
        has_credit[v] = credits[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] != '0;
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
        if (credits[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] > buffer_flits_q) credit_overflow <= 1'b1;
        credits_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] <=
            credits[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] - FLIT_COUNT_BITS'(sent);
        owned_q[v] <= (owned_q[v] || claim[v]) && !(sent && send_tail);
      end

`ifdef MESHMP_ASSERTIONS
  // Invariants (checked configuration, verilated with --assert; rtl/README.md): a flit leaves on an output
  // VC only with a credit for it (the downstream buffer has room), and every VC's credit counter stays
  // within 0..the buffer depth (a flit sent without a credit wraps it below 0, past the depth).
  logic send_has_credit;
  always_comb begin
    send_has_credit = 1'b0;
    for (int v = 0; v < VCS; v++)
      if (32'(send_vc) == v) send_has_credit = has_credit[v];
  end
  flit_only_with_credit: assert property (@(posedge clk) disable iff (rst) send |-> send_has_credit)
    else $error("a flit leaves on output VC %0d, which has no credit (its downstream buffer is full)", send_vc);
  for (genvar v = 0; v < VCS; v++) begin : g_vc
    credits_within_buffer: assert property (@(posedge clk) disable iff (rst)
        credits_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] <= buffer_flits_q)
      else $error("output VC %0d holds %0d credits, outside 0..%0d", v, credits_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS],
                  buffer_flits_q);
  end
`endif
endmodule
