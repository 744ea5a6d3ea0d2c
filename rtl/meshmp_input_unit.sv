// The input unit of one router port: a FIFO per VC in the port's flit memory, each slot's age as a write
// history (meshmp_router_pkg), and the per-VC state that BookSim2-style routers keep at the input (idle /
// waiting for an output VC / active, the route, the output VC held). It presents each VC's front flit to
// route computation and the allocators and reads the one flit the switch takes from this port per cycle
// (switch allocation is input-first, so one read port suffices). The SystemC twin: hw/router/input_unit.*.
// Under an adaptive function a head leaving its source router (a local port) carries that router's column
// in its header's free route field (hw/router/flit.h, source_column), which routers on its way read.
module meshmp_input_unit #(
  parameter int IN_PORT = 0,     // this port
  parameter int NET_PORTS = 4,   // output ports below this are network ports (a source route advances)
  parameter int VCS = 4,
  parameter int MAX_BUFFER = 8   // slots per VC, a power of two, at least cfg_buffer_flits
) (
  input  logic clk,
  input  logic rst,
  input  logic [meshmp_router_pkg::PIPELINE_DEPTH_BITS-1:0] cfg_pipeline_depth,
  input  logic [meshmp_router_pkg::SWITCHING_BITS-1:0]      cfg_switching,
  input  logic [meshmp_router_pkg::FLIT_COUNT_BITS-1:0]     cfg_buffer_flits,
  input  logic                                             cfg_adaptive,
  input  logic [meshmp_flit_pkg::DST_BITS-1:0]             cfg_column,
  input  logic allocate,                   // the allocators decide (meshmp_router): switch requests are on
  // The flit arriving on this port this cycle (written with age 0 at the edge).
  input  logic [meshmp_flit_pkg::FLIT_BITS-1:0] flit_in,
  // Each VC's front flit as route computation and the allocators see it: a head's header fields (zero when
  // the front is a body flit, which neither reads), the next source-route entry among them.
  output logic [VCS*meshmp_flit_pkg::DST_BITS-1:0]            front_destination,
  output logic [VCS-1:0]                                      front_vc_class,
  output logic [VCS*meshmp_flit_pkg::RING_DIMENSION_BITS-1:0] front_ring_dimension,
  output logic [VCS-1:0]                                      front_source_routed,
  output logic [VCS*meshmp_flit_pkg::PORT_BITS-1:0]           front_route_entry,  // NO_PORT past the last
  output logic [VCS*meshmp_flit_pkg::DST_BITS-1:0]            front_source_column,
  output logic [VCS*meshmp_flit_pkg::PACKET_FLITS_BITS-1:0]   front_packet_flits,
  // Route computation's decision for the VCs whose front head is routed this cycle (an idle VC's ready
  // head).
  output logic [VCS-1:0]                                      routing,
  input  logic [VCS*meshmp_flit_pkg::PORT_BITS-1:0]           rc_port,
  input  logic [VCS*meshmp_flit_pkg::VC_BITS-1:0]             rc_vc_begin,
  input  logic [VCS*meshmp_flit_pkg::VC_BITS-1:0]             rc_vc_end,
  input  logic [VCS-1:0]                                      rc_class,
  input  logic [VCS*meshmp_flit_pkg::RING_DIMENSION_BITS-1:0] rc_dimension,
  // An adaptive function's output chosen this cycle (meshmp_route_select), where `chosen` is set: it
  // replaces the decision above (VC class 0: adaptive routing runs on topologies without rings).
  input  logic [VCS-1:0]                                      chosen,
  input  logic [VCS*meshmp_flit_pkg::PORT_BITS-1:0]           chosen_port,
  input  logic [VCS*meshmp_flit_pkg::VC_BITS-1:0]             chosen_vc_begin,
  input  logic [VCS*meshmp_flit_pkg::VC_BITS-1:0]             chosen_vc_end,
  input  logic [VCS*meshmp_flit_pkg::RING_DIMENSION_BITS-1:0] chosen_dimension,
  // VC allocation: requests with their route (this cycle's route computation included), grants.
  output logic [VCS-1:0]                                      va_request,
  output logic [VCS*meshmp_flit_pkg::PORT_BITS-1:0]           route_port,
  output logic [VCS*meshmp_flit_pkg::VC_BITS-1:0]             route_vc_begin,
  output logic [VCS*meshmp_flit_pkg::VC_BITS-1:0]             route_vc_end,
  input  logic [VCS-1:0]                                      va_granted,
  input  logic [VCS*meshmp_flit_pkg::VC_BITS-1:0]             va_vc,
  // Switch allocation and traversal: requests (active, front flit ready) with the output VC held (this
  // cycle's grant included); the switch takes the front flit of VC pop_vc, which leaves on its output VC
  // (departing_vc), and from the edge departed_flit is that flit with its output VC and routing state.
  output logic [VCS-1:0]                                      sa_request,
  output logic [VCS*meshmp_flit_pkg::VC_BITS-1:0]             out_vc,
  input  logic                                                pop_valid,
  input  logic [meshmp_flit_pkg::VC_BITS-1:0]                 pop_vc,
  output logic [meshmp_flit_pkg::VC_BITS-1:0]                 departing_vc,
  output logic                                                departing_tail,
  output logic [meshmp_flit_pkg::FLIT_BITS-1:0]               departed_flit,
  // Statistics and protocol errors: ready body flits of active VCs that stay, a flit arrived at a full VC
  // (sticky), a ready body flit at the front of an idle VC.
  output logic [meshmp_router_pkg::FLIT_COUNT_BITS-1:0]       stalled_bodies,
  output logic                                                buffer_overflow,
  output logic                                                body_at_idle_front
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
  localparam int ROUTE_ENTRY_BITS = meshmp_flit_pkg::ROUTE_ENTRY_BITS;
  localparam int DST_BITS = meshmp_flit_pkg::DST_BITS;
  localparam int PORT_BITS = meshmp_flit_pkg::PORT_BITS;
  localparam logic [PORT_BITS-1:0] NO_PORT = meshmp_flit_pkg::NO_PORT;
  localparam int STORE_AND_FORWARD = meshmp_flit_pkg::STORE_AND_FORWARD;
  localparam int AGE_SATURATION = meshmp_router_pkg::AGE_SATURATION;
  localparam int FLIT_COUNT_BITS = meshmp_router_pkg::FLIT_COUNT_BITS;
  localparam int SWITCHING_BITS = meshmp_router_pkg::SWITCHING_BITS;
  localparam int PIPELINE_DEPTH_BITS = meshmp_router_pkg::PIPELINE_DEPTH_BITS;
  localparam int STATE_BITS = meshmp_router_pkg::STATE_BITS;
  localparam logic [STATE_BITS-1:0] IDLE = meshmp_router_pkg::IDLE;
  localparam logic [STATE_BITS-1:0] WAITING = meshmp_router_pkg::WAITING;
  localparam logic [STATE_BITS-1:0] ACTIVE = meshmp_router_pkg::ACTIVE;
  localparam int SLOT_BITS = $clog2(MAX_BUFFER);
  localparam int VC_INDEX_BITS = $clog2(VCS);   // VCS is a power of two

  // ---- State ----
  logic [FLIT_BITS-1:0] memory [VCS*MAX_BUFFER];  // VC v's FIFO in slots [v*MAX_BUFFER, (v+1)*MAX_BUFFER)
  logic [VCS*SLOT_BITS-1:0] front_q;
  logic [VCS*FLIT_COUNT_BITS-1:0] count_q;  // flits held
  logic [VCS*FLIT_COUNT_BITS-1:0] tails_q;  // tail flits held
  logic [VCS*AGE_SATURATION-1:0] history_q;  // bit 0 is always clear between edges
  logic [VCS*STATE_BITS-1:0] state_q;
  logic [VCS*PORT_BITS-1:0] route_port_q;
  logic [VCS*VC_BITS-1:0] route_vc_begin_q;
  logic [VCS*VC_BITS-1:0] route_vc_end_q;
  logic [VCS-1:0] route_class_q;
  logic [VCS*RING_DIMENSION_BITS-1:0] route_dimension_q;
  logic [VCS*VC_BITS-1:0] out_vc_q;

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
      front_destination[v*DST_BITS +: DST_BITS] = '0;
      front_vc_class[v] = 1'b0;
      front_ring_dimension[v*RING_DIMENSION_BITS +: RING_DIMENSION_BITS] = '0;
      front_source_routed[v] = 1'b0;
      front_route_entry[v*PORT_BITS +: PORT_BITS] = NO_PORT;
      front_source_column[v*DST_BITS +: DST_BITS] = '0;
      front_packet_flits[v*PACKET_FLITS_BITS +: PACKET_FLITS_BITS] = '0;
      front_ready[v] = 1'b0;
      tail_ready[v] = 1'b0;
      // An empty VC has no front (and costs a simulator nothing).
      if (count_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] != 0) begin
        front_head[v] = memory[slot][HEAD];
        front_tail[v] = memory[slot][TAIL];
        if (front_head[v]) begin  // what route computation and VC allocation read of a head
          front_destination[v*DST_BITS +: DST_BITS] = memory[slot][DST +: DST_BITS];
          front_vc_class[v] = memory[slot][VC_CLASS];
          front_ring_dimension[v*RING_DIMENSION_BITS +: RING_DIMENSION_BITS] =
              memory[slot][RING_DIMENSION +: RING_DIMENSION_BITS];
          front_source_routed[v] = memory[slot][ROUTE_LENGTH +: ROUTE_LENGTH_BITS] != 0;
          front_source_column[v*DST_BITS +: DST_BITS] = memory[slot][ROUTE +: DST_BITS];
          position = 32'(memory[slot][ROUTE_POSITION +: ROUTE_POSITION_BITS]);
          if (position < 32'(memory[slot][ROUTE_LENGTH +: ROUTE_LENGTH_BITS]))
            front_route_entry[v*PORT_BITS +: PORT_BITS] =
                memory[slot][ROUTE + ROUTE_ENTRY_BITS*position +: ROUTE_ENTRY_BITS];
          front_packet_flits[v*PACKET_FLITS_BITS +: PACKET_FLITS_BITS] =
              memory[slot][PACKET_FLITS +: PACKET_FLITS_BITS];
        end
        front_ready[v] =
            meshmp_router_pkg::age_of(history_q[v*AGE_SATURATION +: AGE_SATURATION],
                                      32'(count_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS]), 0) >=
            (front_head[v] ? 32'(cfg_pipeline_depth)
                           : (cfg_pipeline_depth > PIPELINE_DEPTH_BITS'(2) ? 2 : 32'(cfg_pipeline_depth)));
        if (cfg_switching == SWITCHING_BITS'(STORE_AND_FORWARD) && front_head[v] &&
            tails_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] != 0)
          tail_ready[v] =
              meshmp_router_pkg::age_of(history_q[v*AGE_SATURATION +: AGE_SATURATION],
                                        32'(count_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS]),
                                        32'(front_packet_flits[v*PACKET_FLITS_BITS +: PACKET_FLITS_BITS]) - 1) >=
              32'(cfg_pipeline_depth);
      end
    end

  // ---- VC state: route computation taken, VC allocation requested ----
  logic [VCS-1:0] routed_now;   // an idle VC's ready head is routed this cycle
  assign routing = routed_now;
  always_comb begin
    body_at_idle_front = 1'b0;
    for (int v = 0; v < VCS; v++) begin
      routed_now[v] = state_q[v*STATE_BITS +: STATE_BITS] == IDLE && front_ready[v] && front_head[v];
      if (state_q[v*STATE_BITS +: STATE_BITS] == IDLE && front_ready[v] && !front_head[v]) body_at_idle_front = 1'b1;
    end
  end
  always_comb
    for (int v = 0; v < VCS; v++)
      va_request[v] = (routed_now[v] || (state_q[v*STATE_BITS +: STATE_BITS] == WAITING && front_ready[v])) &&
                      (cfg_switching != SWITCHING_BITS'(STORE_AND_FORWARD) || tail_ready[v]);
  // The route this cycle: an adaptive function's chosen output, this cycle's route computation, or the
  // one taken before.
  logic [VCS-1:0] route_class;
  logic [VCS*RING_DIMENSION_BITS-1:0] route_dimension;
  always_comb
    for (int v = 0; v < VCS; v++) begin
      route_port[v*PORT_BITS +: PORT_BITS] =
          chosen[v]     ? chosen_port[v*PORT_BITS +: PORT_BITS]
          : routed_now[v] ? rc_port[v*PORT_BITS +: PORT_BITS] : route_port_q[v*PORT_BITS +: PORT_BITS];
      route_vc_begin[v*VC_BITS +: VC_BITS] =
          chosen[v]     ? chosen_vc_begin[v*VC_BITS +: VC_BITS]
          : routed_now[v] ? rc_vc_begin[v*VC_BITS +: VC_BITS] : route_vc_begin_q[v*VC_BITS +: VC_BITS];
      route_vc_end[v*VC_BITS +: VC_BITS] =
          chosen[v]     ? chosen_vc_end[v*VC_BITS +: VC_BITS]
          : routed_now[v] ? rc_vc_end[v*VC_BITS +: VC_BITS] : route_vc_end_q[v*VC_BITS +: VC_BITS];
      route_class[v] = chosen[v] ? 1'b0 : routed_now[v] ? rc_class[v] : route_class_q[v];
      route_dimension[v*RING_DIMENSION_BITS +: RING_DIMENSION_BITS] =
          chosen[v]     ? chosen_dimension[v*RING_DIMENSION_BITS +: RING_DIMENSION_BITS]
          : routed_now[v] ? rc_dimension[v*RING_DIMENSION_BITS +: RING_DIMENSION_BITS]
                          : route_dimension_q[v*RING_DIMENSION_BITS +: RING_DIMENSION_BITS];
    end

  // ---- VC state after allocation: switch requests ----
  always_comb
    for (int v = 0; v < VCS; v++) begin
      out_vc[v*VC_BITS +: VC_BITS] = va_granted[v] ? va_vc[v*VC_BITS +: VC_BITS] : out_vc_q[v*VC_BITS +: VC_BITS];
      sa_request[v] = allocate && (state_q[v*STATE_BITS +: STATE_BITS] == ACTIVE || va_granted[v]) && front_ready[v];
    end

  // ---- The read port: the flit the switch takes ----
  assign departing_vc = out_vc[(32'(pop_vc[VC_INDEX_BITS-1:0]))*VC_BITS +: VC_BITS];
  assign departing_tail = front_tail[32'(pop_vc[VC_INDEX_BITS-1:0])];

  always_comb begin
    stalled_bodies = '0;
    if (sa_request != '0)  // (no requests in the first half of the cycle: sampled at the edge)
      for (int v = 0; v < VCS; v++)
        if (sa_request[v] && !front_head[v] && !(pop_valid && 32'(pop_vc) == v)) stalled_bodies = stalled_bodies + 1'b1;
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
      if (write && count_q[32'(write_vc[VC_INDEX_BITS-1:0])*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] >= cfg_buffer_flits)
        buffer_overflow <= 1'b1;
      if (pop_valid) begin
        // The flit leaves with its output VC; a head carries its new routing state.
        int v;
        logic [FLIT_BITS-1:0] f;
        v = 32'(pop_vc[VC_INDEX_BITS-1:0]);
        f = memory[$clog2(VCS*MAX_BUFFER)'(v*MAX_BUFFER + 32'(front_q[v*SLOT_BITS +: SLOT_BITS]))];
        if (f[HEAD]) begin
          f[VC_CLASS] = route_class[v];
          f[RING_DIMENSION +: RING_DIMENSION_BITS] = route_dimension[v*RING_DIMENSION_BITS +: RING_DIMENSION_BITS];
          if (f[ROUTE_LENGTH +: ROUTE_LENGTH_BITS] != 0 && 32'(route_port[v*PORT_BITS +: PORT_BITS]) < NET_PORTS)
            f[ROUTE_POSITION +: ROUTE_POSITION_BITS] = f[ROUTE_POSITION +: ROUTE_POSITION_BITS] + 1'b1;
          if (cfg_adaptive && IN_PORT >= NET_PORTS && f[ROUTE_LENGTH +: ROUTE_LENGTH_BITS] == 0)
            f[ROUTE +: DST_BITS] = cfg_column;
        end
        f[VC +: VC_BITS] = out_vc[v*VC_BITS +: VC_BITS];
        departed_flit <= f;
      end
      if (write) begin
        int v;
        v = 32'(write_vc[VC_INDEX_BITS-1:0]);
        memory[v*MAX_BUFFER + 32'(SLOT_BITS'(32'(front_q[v*SLOT_BITS +: SLOT_BITS]) +
                                            32'(count_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS])))] <= flit_in;
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
          if (popped && meshmp_router_pkg::bits_set(history) ==
                            32'(count_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS]) + 32'(written))
            for (int k = 0; k < AGE_SATURATION; k++)
              if (history[k] && history >> (k + 1) == '0) history[k] = 1'b0;
          history_q[v*AGE_SATURATION +: AGE_SATURATION] <= {history[AGE_SATURATION-2:0], 1'b0};
        end
        if (written || popped) begin
          count_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] <=
              FLIT_COUNT_BITS'(32'(count_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS]) + 32'(written) - 32'(popped));
          tails_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] <=
              FLIT_COUNT_BITS'(32'(tails_q[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS]) + 32'(written && flit_in[TAIL]) -
                               32'(popped && front_tail[v]));
        end
        if (popped) front_q[v*SLOT_BITS +: SLOT_BITS] <= front_q[v*SLOT_BITS +: SLOT_BITS] + 1'b1;
        if (routed_now[v] || chosen[v]) begin
          route_port_q[v*PORT_BITS +: PORT_BITS] <= route_port[v*PORT_BITS +: PORT_BITS];
          route_vc_begin_q[v*VC_BITS +: VC_BITS] <= route_vc_begin[v*VC_BITS +: VC_BITS];
          route_vc_end_q[v*VC_BITS +: VC_BITS] <= route_vc_end[v*VC_BITS +: VC_BITS];
          route_class_q[v] <= route_class[v];
          route_dimension_q[v*RING_DIMENSION_BITS +: RING_DIMENSION_BITS] <=
              route_dimension[v*RING_DIMENSION_BITS +: RING_DIMENSION_BITS];
        end
        if (va_granted[v]) out_vc_q[v*VC_BITS +: VC_BITS] <= va_vc[v*VC_BITS +: VC_BITS];
        if (popped && front_tail[v]) state_q[v*STATE_BITS +: STATE_BITS] <= IDLE;
        else if (va_granted[v]) state_q[v*STATE_BITS +: STATE_BITS] <= ACTIVE;
        else if (routed_now[v]) state_q[v*STATE_BITS +: STATE_BITS] <= WAITING;
      end
    end
  end
endmodule
