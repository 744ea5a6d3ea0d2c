// VC allocation (the SystemC twin: hw/vc_allocator.*): per output port, the requesting input VCs in
// round-robin order from the port's pointer, each winner taking the lowest free output VC of its class
// range with the credits it needs (wormhole: one; cut-through and store-and-forward: its whole packet).
// An ejection port under the exclusive rule gives its VCs to one packet at a time. The pointer moves past
// the last winner.
module meshmp_vc_allocator #(
  parameter int PORTS = 5,
  parameter int NET_PORTS = 4,
  parameter int VCS = 4
) (
  input  logic clk,
  input  logic rst,
  input  logic [1:0] cfg_switching,
  input  logic       cfg_exclusive_ejection,
  // Per input VC (index port*VCS + vc).
  input  logic [PORTS*VCS-1:0]    request,
  input  logic [PORTS*VCS*8-1:0]  request_port,
  input  logic [PORTS*VCS*4-1:0]  request_vc_begin,
  input  logic [PORTS*VCS*4-1:0]  request_vc_end,
  input  logic [PORTS*VCS*13-1:0] request_packet_flits,
  output logic [PORTS*VCS-1:0]    granted,
  output logic [PORTS*VCS*4-1:0]  granted_vc,
  // Per output VC (index port*VCS + vc).
  input  logic [PORTS*VCS-1:0]    owned,
  input  logic [PORTS*VCS*8-1:0]  credits,
  output logic [PORTS*VCS-1:0]    claim
);
  localparam int IVCS = PORTS * VCS;
  localparam int WORMHOLE = meshmp_flit_pkg::WORMHOLE;

  logic [PORTS*8-1:0] pointer_q;      // per output port: input VC
  logic [PORTS*8-1:0] pointer_next;

  logic [PORTS-1:0] wanted;   // some input VC asks this output port for a VC
  always_comb begin
    wanted = '0;
    if (request != '0)
      for (int i = 0; i < IVCS; i++)
        for (int o = 0; o < PORTS; o++)
          if (request[i] && 32'(request_port[i*8 +: 8]) == o) wanted[o] = 1'b1;
  end

  // Per output port: the input VCs in round-robin order are the request masks rotated so that the
  // pointer's VC comes first (one shifter per output port); the winners claim in that order with constant
  // indices, and the grants rotate back.
  always_comb begin
    granted = '0;
    granted_vc = '0;
    claim = '0;
    pointer_next = pointer_q;
    for (int o = 0; o < PORTS; o++) begin
      logic [IVCS*VCS-1:0] eligible;          // per input VC: the output VCs it may take
      logic [IVCS*VCS-1:0] rotated;
      logic [IVCS-1:0] won;                   // in round-robin order
      logic [IVCS*4-1:0] won_vc;
      logic [VCS-1:0] taken;
      logic exclusive;
      logic busy;
      logic done;
      int last;
      int pointer;
      int next;
      rotated = '0;
      done = 1'b0;
      next = 0;
      pointer = 32'(pointer_q[o*8 +: 8]) < IVCS ? 32'(pointer_q[o*8 +: 8]) : 0;
      exclusive = o >= NET_PORTS && cfg_exclusive_ejection;
      busy = exclusive && owned[o*VCS +: VCS] != '0;
      eligible = '0;
      if (wanted[o])  // "any request" guard: most outputs have none in most cycles
        for (int i = 0; i < IVCS; i++)
          for (int v = 0; v < VCS; v++)
            eligible[i*VCS + v] = request[i] && 32'(request_port[i*8 +: 8]) == o &&
                v >= 32'(request_vc_begin[i*4 +: 4]) && v < 32'(request_vc_end[i*4 +: 4]) && !owned[o*VCS + v] &&
                13'(credits[(o*VCS + v)*8 +: 8]) >=
                    (cfg_switching == 2'(WORMHOLE) ? 13'd1 : request_packet_flits[i*13 +: 13]);
      won = '0;
      won_vc = '0;
      taken = '0;
      last = -1;
      if (eligible != '0) begin
        rotated = (IVCS*VCS)'({eligible, eligible} >> (pointer * VCS));
        for (int k = 0; k < IVCS; k++) begin
          done = busy;
          for (int v = 0; v < VCS; v++)
            if (!done && rotated[k*VCS + v] && !taken[v]) begin
              taken[v] = 1'b1;
              won[k] = 1'b1;
              won_vc[k*4 +: 4] = 4'(v);
              last = k;
              done = 1'b1;
              if (exclusive) busy = 1'b1;
            end
        end
        // Rotate back: round-robin position k is input VC (pointer + k) mod IVCS.
        granted = granted | IVCS'({won, won} >> (IVCS - pointer));
        granted_vc = granted_vc | (IVCS*4)'({won_vc, won_vc} >> ((IVCS - pointer) * 4));
        for (int v = 0; v < VCS; v++) claim[o*VCS + v] = taken[v];
        if (last >= 0) begin
          next = pointer + last + 1;
          if (next >= IVCS) next -= IVCS;
          pointer_next[o*8 +: 8] = 8'(next);
        end
      end
    end
  end

  always_ff @(posedge clk) pointer_q <= rst ? '0 : pointer_next;
endmodule
