// The input unit of one router port: a FIFO per VC in the port's flit memory, each slot's age as a write
// history (meshmp_router_pkg), and the per-VC state that BookSim2-style routers keep at the input (idle /
// waiting for an output VC / active, the route, the output VC held). It presents each VC's front flit to
// route computation and the allocators and reads the one flit the switch takes from this port per cycle
// (switch allocation is input-first, so one read port suffices). The SystemC twin: hw/router/input_unit.*.
module meshmp_input_unit #(
  parameter int NET_PORTS = 4,   // output ports below this are network ports (a source route advances)
  parameter int VCS = 4,
  parameter int MAX_BUFFER = 8   // slots per VC, a power of two, at least cfg_buffer_flits
) (
  input  logic clk,
  input  logic rst,
  input  logic [2:0] cfg_pipeline_depth,
  input  logic [1:0] cfg_switching,
  input  logic [7:0] cfg_buffer_flits,
  input  logic       allocate,             // the allocators decide (meshmp_router): switch requests are on
  // The flit arriving on this port this cycle (written with age 0 at the edge).
  input  logic [meshmp_flit_pkg::FLIT_BITS-1:0] flit_in,
  // Each VC's front flit as route computation and the allocators see it: a head's header fields (zero when
  // the front is a body flit, which neither reads).
  output logic [VCS*16-1:0] front_destination,
  output logic [VCS-1:0]    front_vc_class,
  output logic [VCS*5-1:0]  front_ring_dimension,
  output logic [VCS-1:0]    front_source_routed,
  output logic [VCS*8-1:0]  front_route_entry,    // the next source-route entry, 8'hff past the last
  output logic [VCS*13-1:0] front_packet_flits,
  // Route computation's decision for the VCs whose front head is routed this cycle (an idle VC's ready
  // head).
  output logic [VCS-1:0]    routing,
  input  logic [VCS*8-1:0]  rc_port,
  input  logic [VCS*4-1:0]  rc_vc_begin,
  input  logic [VCS*4-1:0]  rc_vc_end,
  input  logic [VCS-1:0]    rc_class,
  input  logic [VCS*5-1:0]  rc_dimension,
  // VC allocation: requests with their route (this cycle's route computation included), grants.
  output logic [VCS-1:0]    va_request,
  output logic [VCS*8-1:0]  route_port,
  output logic [VCS*4-1:0]  route_vc_begin,
  output logic [VCS*4-1:0]  route_vc_end,
  input  logic [VCS-1:0]    va_granted,
  input  logic [VCS*4-1:0]  va_vc,
  // Switch allocation and traversal.
  output logic [VCS-1:0]    sa_request,           // active, front flit ready
  output logic [VCS*4-1:0]  out_vc,               // the output VC held (this cycle's grant included)
  input  logic              pop_valid,            // the switch takes the front flit of VC pop_vc
  input  logic [3:0]        pop_vc,
  output logic [3:0]        departing_vc,         // its output VC
  output logic              departing_tail,
  output logic [meshmp_flit_pkg::FLIT_BITS-1:0] departed_flit,  // from the edge: the flit that left, with
                                                                  // its output VC and routing state
  // Statistics and protocol errors.
  output logic [7:0] stalled_bodies,              // ready body flits of active VCs that stay
  output logic       buffer_overflow,             // a flit arrived at a full VC (sticky)
  output logic       body_at_idle_front           // a ready body flit at the front of an idle VC
);
  localparam int FLIT_BITS = meshmp_flit_pkg::FLIT_BITS;
  localparam int VALID = meshmp_flit_pkg::VALID;
  localparam int HEAD = meshmp_flit_pkg::HEAD;
  localparam int TAIL = meshmp_flit_pkg::TAIL;
  localparam int VC = meshmp_flit_pkg::VC;
  localparam int VC_BITS = meshmp_flit_pkg::VC_BITS;
  localparam int DST = meshmp_flit_pkg::DST;
  localparam int VC_CLASS = meshmp_flit_pkg::VC_CLASS;
  localparam int RING_DIMENSION = meshmp_flit_pkg::RING_DIMENSION;
  localparam int RING_DIMENSION_BITS = meshmp_flit_pkg::RING_DIMENSION_BITS;
  localparam int ROUTE_LENGTH = meshmp_flit_pkg::ROUTE_LENGTH;
  localparam int ROUTE_LENGTH_BITS = meshmp_flit_pkg::ROUTE_LENGTH_BITS;
  localparam int ROUTE_POSITION = meshmp_flit_pkg::ROUTE_POSITION;
  localparam int ROUTE_POSITION_BITS = meshmp_flit_pkg::ROUTE_POSITION_BITS;
  localparam int PACKET_FLITS = meshmp_flit_pkg::PACKET_FLITS;
  localparam int PACKET_FLITS_BITS = meshmp_flit_pkg::PACKET_FLITS_BITS;
  localparam int ROUTE = meshmp_flit_pkg::ROUTE;
  localparam int STORE_AND_FORWARD = meshmp_flit_pkg::STORE_AND_FORWARD;
  localparam int AGE_SATURATION = meshmp_router_pkg::AGE_SATURATION;
  localparam logic [1:0] IDLE = meshmp_router_pkg::IDLE;
  localparam logic [1:0] WAITING = meshmp_router_pkg::WAITING;
  localparam logic [1:0] ACTIVE = meshmp_router_pkg::ACTIVE;
  localparam int SLOT_BITS = $clog2(MAX_BUFFER);
  localparam int VC_INDEX_BITS = $clog2(VCS);   // VCS is a power of two

  // ---- State ----
  logic [FLIT_BITS-1:0] memory [VCS*MAX_BUFFER];  // VC v's FIFO in slots [v*MAX_BUFFER, (v+1)*MAX_BUFFER)
  logic [VCS*SLOT_BITS-1:0] front_q;
  logic [VCS*8-1:0] count_q;  // flits held
  logic [VCS*8-1:0] tails_q;  // tail flits held
  logic [VCS*AGE_SATURATION-1:0] history_q;  // bit 0 is always clear between edges
  logic [VCS*2-1:0] state_q;
  logic [VCS*8-1:0] route_port_q;
  logic [VCS*4-1:0] route_vc_begin_q;
  logic [VCS*4-1:0] route_vc_end_q;
  logic [VCS*1-1:0] route_class_q;
  logic [VCS*5-1:0] route_dimension_q;
  logic [VCS*4-1:0] out_vc_q;

  // ---- Front flits (from the state at the edge) ----
  // A flit arriving this cycle has age 0, so it is never ready and leaves every front's age unchanged:
  // the registered state decides.
  logic [VCS-1:0] front_ready;  // through its pipeline (a head: depth cycles; a body flit: up to 2)
  logic [VCS-1:0] front_head;
  logic [VCS-1:0] front_tail;
  logic [VCS-1:0] tail_ready;   // store-and-forward: the front head's packet's tail is held and through its
                                // pipeline
  always_comb
    for (int v = 0; v < VCS; v++) begin
      logic [$clog2(VCS*MAX_BUFFER)-1:0] slot;
      int position;
      slot = $clog2(VCS*MAX_BUFFER)'(v*MAX_BUFFER + 32'(front_q[v*SLOT_BITS +: SLOT_BITS]));
      position = 0;
      front_head[v] = 1'b0;
      front_tail[v] = 1'b0;
      front_destination[v*16 +: 16] = '0;
      front_vc_class[v] = 1'b0;
      front_ring_dimension[v*5 +: 5] = '0;
      front_source_routed[v] = 1'b0;
      front_route_entry[v*8 +: 8] = 8'hff;
      front_packet_flits[v*13 +: 13] = '0;
      front_ready[v] = 1'b0;
      tail_ready[v] = 1'b0;
      if (count_q[v*8 +: 8] != 0) begin  // an empty VC has no front (and costs a simulator nothing)
        front_head[v] = memory[slot][HEAD];
        front_tail[v] = memory[slot][TAIL];
        if (front_head[v]) begin  // what route computation and VC allocation read of a head
          front_destination[v*16 +: 16] = memory[slot][DST +: 16];
          front_vc_class[v] = memory[slot][VC_CLASS];
          front_ring_dimension[v*5 +: 5] = memory[slot][RING_DIMENSION +: RING_DIMENSION_BITS];
          front_source_routed[v] = memory[slot][ROUTE_LENGTH +: ROUTE_LENGTH_BITS] != 0;
          position = 32'(memory[slot][ROUTE_POSITION +: ROUTE_POSITION_BITS]);
          if (position < 32'(memory[slot][ROUTE_LENGTH +: ROUTE_LENGTH_BITS]))
            front_route_entry[v*8 +: 8] = memory[slot][ROUTE + 8*position +: 8];
          front_packet_flits[v*13 +: 13] = memory[slot][PACKET_FLITS +: PACKET_FLITS_BITS];
        end
        front_ready[v] =
            meshmp_router_pkg::age_of(history_q[v*AGE_SATURATION +: AGE_SATURATION], 32'(count_q[v*8 +: 8]), 0) >=
            (front_head[v] ? 32'(cfg_pipeline_depth) : (cfg_pipeline_depth > 3'd2 ? 2 : 32'(cfg_pipeline_depth)));
        if (cfg_switching == 2'(STORE_AND_FORWARD) && front_head[v] && tails_q[v*8 +: 8] != 0)
          tail_ready[v] =
              meshmp_router_pkg::age_of(history_q[v*AGE_SATURATION +: AGE_SATURATION], 32'(count_q[v*8 +: 8]),
                                        32'(front_packet_flits[v*13 +: 13]) - 1) >= 32'(cfg_pipeline_depth);
      end
    end

  // ---- VC state: route computation taken, VC allocation requested ----
  logic [VCS-1:0] routed_now;   // an idle VC's ready head is routed this cycle
  assign routing = routed_now;
  always_comb begin
    body_at_idle_front = 1'b0;
    for (int v = 0; v < VCS; v++) begin
      routed_now[v] = state_q[v*2 +: 2] == IDLE && front_ready[v] && front_head[v];
      if (state_q[v*2 +: 2] == IDLE && front_ready[v] && !front_head[v]) body_at_idle_front = 1'b1;
    end
  end
  always_comb
    for (int v = 0; v < VCS; v++) begin
      route_port[v*8 +: 8] = routed_now[v] ? rc_port[v*8 +: 8] : route_port_q[v*8 +: 8];
      route_vc_begin[v*4 +: 4] = routed_now[v] ? rc_vc_begin[v*4 +: 4] : route_vc_begin_q[v*4 +: 4];
      route_vc_end[v*4 +: 4] = routed_now[v] ? rc_vc_end[v*4 +: 4] : route_vc_end_q[v*4 +: 4];
      va_request[v] = (routed_now[v] || (state_q[v*2 +: 2] == WAITING && front_ready[v])) &&
                      (cfg_switching != 2'(STORE_AND_FORWARD) || tail_ready[v]);
    end

  // ---- VC state after allocation: switch requests ----
  always_comb
    for (int v = 0; v < VCS; v++) begin
      out_vc[v*4 +: 4] = va_granted[v] ? va_vc[v*4 +: 4] : out_vc_q[v*4 +: 4];
      sa_request[v] = allocate && (state_q[v*2 +: 2] == ACTIVE || va_granted[v]) && front_ready[v];
    end

  // ---- The read port: the flit the switch takes ----
  assign departing_vc = out_vc[(32'(pop_vc[VC_INDEX_BITS-1:0]))*4 +: 4];
  assign departing_tail = front_tail[32'(pop_vc[VC_INDEX_BITS-1:0])];

  always_comb begin
    stalled_bodies = 8'd0;
    if (sa_request != '0)  // (no requests in the first half of the cycle: sampled at the edge)
      for (int v = 0; v < VCS; v++)
        if (sa_request[v] && !front_head[v] && !(pop_valid && 32'(pop_vc) == v)) stalled_bodies = stalled_bodies + 8'd1;
  end

  // ---- Update ----
  logic write;
  logic [VC_BITS-1:0] write_vc;
  assign write = flit_in[VALID];
  assign write_vc = flit_in[VC +: VC_BITS];

  always_ff @(posedge clk) begin
    if (rst) begin
      buffer_overflow <= 1'b0;
      departed_flit <= '0;
      front_q <= '0;
      count_q <= '0;
      tails_q <= '0;
      history_q <= '0;
      state_q <= {VCS{IDLE}};
      route_port_q <= '0;
      route_vc_begin_q <= '0;
      route_vc_end_q <= '0;
      route_class_q <= '0;
      route_dimension_q <= '0;
      out_vc_q <= '0;
    end else begin
      if (write && count_q[32'(write_vc[VC_INDEX_BITS-1:0])*8 +: 8] >= cfg_buffer_flits) buffer_overflow <= 1'b1;
      if (pop_valid) begin
        // The flit leaves with its output VC; a head carries its new routing state.
        int v;
        logic [FLIT_BITS-1:0] f;
        v = 32'(pop_vc[VC_INDEX_BITS-1:0]);
        f = memory[$clog2(VCS*MAX_BUFFER)'(v*MAX_BUFFER + 32'(front_q[v*SLOT_BITS +: SLOT_BITS]))];
        if (f[HEAD]) begin
          f[VC_CLASS] = routed_now[v] ? rc_class[v] : route_class_q[v];
          f[RING_DIMENSION +: RING_DIMENSION_BITS] =
              routed_now[v] ? rc_dimension[v*5 +: 5] : route_dimension_q[v*5 +: 5];
          if (f[ROUTE_LENGTH +: ROUTE_LENGTH_BITS] != 0 && 32'(route_port[v*8 +: 8]) < NET_PORTS)
            f[ROUTE_POSITION +: ROUTE_POSITION_BITS] = f[ROUTE_POSITION +: ROUTE_POSITION_BITS] + 6'd1;
        end
        f[VC +: VC_BITS] = out_vc[v*4 +: 4];
        departed_flit <= f;
      end
      if (write) begin
        int v;
        v = 32'(write_vc[VC_INDEX_BITS-1:0]);
        memory[v*MAX_BUFFER + 32'(SLOT_BITS'(32'(front_q[v*SLOT_BITS +: SLOT_BITS]) + 32'(count_q[v*8 +: 8])))] <= flit_in;
      end
      for (int v = 0; v < VCS; v++) begin
        logic written;
        logic popped;
        logic [AGE_SATURATION-1:0] history;
        written = write && 32'(write_vc) == v;
        popped = pop_valid && 32'(pop_vc) == v;
        // Ages: the young flits shift; a popped young front takes its bit along.
        history = history_q[v*AGE_SATURATION +: AGE_SATURATION] | {{(AGE_SATURATION-1){1'b0}}, written};
        if (history != '0) begin  // (a VC with no young flit costs a simulator nothing)
          if (popped && meshmp_router_pkg::bits_set(history) == 32'(count_q[v*8 +: 8]) + 32'(written))
            for (int k = 0; k < AGE_SATURATION; k++)
              if (history[k] && history >> (k + 1) == '0) history[k] = 1'b0;
          history_q[v*AGE_SATURATION +: AGE_SATURATION] <= {history[AGE_SATURATION-2:0], 1'b0};
        end
        if (written || popped) begin
          count_q[v*8 +: 8] <= 8'(32'(count_q[v*8 +: 8]) + 32'(written) - 32'(popped));
          tails_q[v*8 +: 8] <=
              8'(32'(tails_q[v*8 +: 8]) + 32'(written && flit_in[TAIL]) - 32'(popped && front_tail[v]));
        end
        if (popped) front_q[v*SLOT_BITS +: SLOT_BITS] <= front_q[v*SLOT_BITS +: SLOT_BITS] + 1'b1;
        if (routed_now[v]) begin
          route_port_q[v*8 +: 8] <= rc_port[v*8 +: 8];
          route_vc_begin_q[v*4 +: 4] <= rc_vc_begin[v*4 +: 4];
          route_vc_end_q[v*4 +: 4] <= rc_vc_end[v*4 +: 4];
          route_class_q[v] <= rc_class[v];
          route_dimension_q[v*5 +: 5] <= rc_dimension[v*5 +: 5];
        end
        if (va_granted[v]) out_vc_q[v*4 +: 4] <= va_vc[v*4 +: 4];
        if (popped && front_tail[v]) state_q[v*2 +: 2] <= IDLE;
        else if (va_granted[v]) state_q[v*2 +: 2] <= ACTIVE;
        else if (routed_now[v]) state_q[v*2 +: 2] <= WAITING;
      end
    end
  end
endmodule
