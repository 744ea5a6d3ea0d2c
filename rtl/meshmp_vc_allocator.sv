// VC allocation (the SystemC twin: hw/router/vc_allocator.*): per output port, the requesting input VCs in
// round-robin order from the port's pointer, each winner taking the lowest free output VC of its class
// range with the credits it needs (wormhole: one; cut-through and store-and-forward: its whole packet).
// An ejection port under the exclusive rule gives its VCs to one packet at a time. The pointer moves past
// the last winner. Loops with constant indices, no rotated vectors (a simulator's fast path).
module meshmp_vc_allocator #(
  parameter int PORTS = 5,
  parameter int NET_PORTS = 4,
  parameter int VCS = 4
) (
  input  logic clk,
  input  logic rst,
  input  logic [meshmp_router_pkg::SWITCHING_BITS-1:0] cfg_switching,
  input  logic                                         cfg_exclusive_ejection,
  // Per input VC (index port*VCS + vc).
  input  logic [PORTS*VCS-1:0]                                    request,
  input  logic [PORTS*VCS*meshmp_flit_pkg::PORT_BITS-1:0]         request_port,
  input  logic [PORTS*VCS*meshmp_flit_pkg::VC_BITS-1:0]           request_vc_begin,
  input  logic [PORTS*VCS*meshmp_flit_pkg::VC_BITS-1:0]           request_vc_end,
  input  logic [PORTS*VCS*meshmp_flit_pkg::PACKET_FLITS_BITS-1:0] request_packet_flits,
  output logic [PORTS*VCS-1:0]                                    granted,
  output logic [PORTS*VCS*meshmp_flit_pkg::VC_BITS-1:0]           granted_vc,
  // Per output VC (index port*VCS + vc).
  input  logic [PORTS*VCS-1:0]                                    owned,
  input  logic [PORTS*VCS*meshmp_router_pkg::FLIT_COUNT_BITS-1:0] credits,
  output logic [PORTS*VCS-1:0]                                    claim
);
  localparam int IVCS = PORTS * VCS;
  localparam int WORMHOLE = meshmp_flit_pkg::WORMHOLE;
  localparam int PORT_BITS = meshmp_flit_pkg::PORT_BITS;
  localparam int VC_BITS = meshmp_flit_pkg::VC_BITS;
  localparam int PACKET_FLITS_BITS = meshmp_flit_pkg::PACKET_FLITS_BITS;
  localparam int FLIT_COUNT_BITS = meshmp_router_pkg::FLIT_COUNT_BITS;
  localparam int SWITCHING_BITS = meshmp_router_pkg::SWITCHING_BITS;
  localparam int IVC_INDEX_BITS = $clog2(IVCS);   // a round-robin pointer: an input VC

  logic [PORTS*IVC_INDEX_BITS-1:0] pointer_q;      // per output port: input VC
  logic [PORTS*IVC_INDEX_BITS-1:0] pointer_next;

  // Per output port, the input VCs asking it for a VC (bit i: input VC i), and per input VC the output
  // VCs of its class range and the credits it needs (wormhole: one; otherwise its whole packet).
  logic [PORTS*IVCS-1:0] asking;
  logic [IVCS*VCS-1:0]   in_range;
  logic [IVCS*PACKET_FLITS_BITS-1:0] needs;
  always_comb begin
    asking = '0;
    in_range = '0;
    needs = '0;
    if (request != '0)  // "any request" guard: most cycles have none
      for (int i = 0; i < IVCS; i++)
        if (request[i]) begin
          if (32'(request_port[i*PORT_BITS +: PORT_BITS]) < PORTS)
            asking[32'(request_port[i*PORT_BITS +: PORT_BITS]) * IVCS + i] = 1'b1;
          for (int v = 0; v < VCS; v++)
            in_range[i*VCS + v] = v >= 32'(request_vc_begin[i*VC_BITS +: VC_BITS]) &&
                                  v < 32'(request_vc_end[i*VC_BITS +: VC_BITS]);
          needs[i*PACKET_FLITS_BITS +: PACKET_FLITS_BITS] =
              cfg_switching == SWITCHING_BITS'(WORMHOLE)
                  ? PACKET_FLITS_BITS'(1) : request_packet_flits[i*PACKET_FLITS_BITS +: PACKET_FLITS_BITS];
        end
  end

  // Per output port: the asking input VCs in round-robin order from the port's pointer (those at or after
  // it, then those before it: two passes with constant indices), each taking the lowest output VC of its
  // range that is free, not yet taken this cycle, and has the credits it needs.
  always_comb begin
    logic [VCS-1:0] taken;
    logic [VCS-1:0] available;
    logic exclusive;
    logic busy;
    logic found;
    int pointer;
    int last;
    granted = '0;
    granted_vc = '0;
    claim = '0;
    pointer_next = pointer_q;
    for (int o = 0; o < PORTS; o++) begin
      taken = '0;
      available = '0;
      found = 1'b0;
      last = -1;
      pointer = 32'(pointer_q[o*IVC_INDEX_BITS +: IVC_INDEX_BITS]) < IVCS
                    ? 32'(pointer_q[o*IVC_INDEX_BITS +: IVC_INDEX_BITS]) : 0;
      exclusive = o >= NET_PORTS && cfg_exclusive_ejection;
      busy = exclusive && owned[o*VCS +: VCS] != '0;
      if (asking[o*IVCS +: IVCS] != '0) begin
        for (int pass = 0; pass < 2; pass++)
          for (int i = 0; i < IVCS; i++)
            if (asking[o*IVCS + i] && (i >= pointer) == (pass == 0) && !busy) begin
              for (int v = 0; v < VCS; v++)
                available[v] = in_range[i*VCS + v] && !owned[o*VCS + v] && !taken[v] &&
                               PACKET_FLITS_BITS'(credits[(o*VCS + v)*FLIT_COUNT_BITS +: FLIT_COUNT_BITS]) >=
                                   needs[i*PACKET_FLITS_BITS +: PACKET_FLITS_BITS];
              found = 1'b0;
              for (int v = 0; v < VCS; v++)
                if (available[v] && !found) begin
                  found = 1'b1;
                  taken[v] = 1'b1;
                  granted[i] = 1'b1;
                  granted_vc[i*VC_BITS +: VC_BITS] = VC_BITS'(v);
                end
              if (found) begin
                last = i;
                busy = exclusive;
              end
            end
        claim[o*VCS +: VCS] = taken;
        if (last >= 0)
          pointer_next[o*IVC_INDEX_BITS +: IVC_INDEX_BITS] = last + 1 == IVCS ? '0 : IVC_INDEX_BITS'(last + 1);
      end
    end
  end

  always_ff @(posedge clk) pointer_q <= rst ? '0 : pointer_next;
endmodule
