// The wormhole router in RTL: input-buffered, credit-based, virtual channels, the microarchitecture and
// arbitration order of the SystemC router (hw/router.cpp; docs/architecture.md, "Router
// microarchitecture"), so that the two are cycle-equivalent at their ports. One rising edge is one cycle:
//
//   evaluate (from the state at the edge and this cycle's credits; computed in the clocked process, once
//   per edge, as a simulator evaluates it fastest):
//     route computation for VCs whose front head is through its pipeline; VC allocation (per output port,
//     round robin over input VCs from a pointer, each winner taking the lowest free output VC of its
//     class range with the credits it needs); switch allocation (separable input-first, round robin);
//   update (at the edge): the granted flits leave (registered outputs, in output-port order), their
//     credits go upstream, the flits arriving this cycle are written with age 0, every flit ages.
//
// Ages: per input VC a write-history shift register (bit k set when a flit was written k cycles ago,
// k < AGE_SATURATION); the young flits are the newest, so the i-th newest flit's age is the position of
// the i-th set bit, and every older flit is old enough for any stage.
//
// Route computation is by table (one output port per destination, 8'hff = eject), loaded at reset from
// the machine's routing function through the table write port, as table-routed networks are configured;
// a source-routed head follows its route instead. Dateline VC classes on rings as in
// hw/routing_unit.cpp. Run-time facts are straps: pipeline depth, switching mode, buffer depth, dateline,
// port model, and per network port its dimension, whether that dimension is a ring and whether the port is
// this router's wrap-around link.
//
// Ports [0, NET_PORTS) are network ports, [NET_PORTS, PORTS) local (injection = ejection) ports. A machine
// whose routers have fewer network ports leaves the extra ones unused: arbitration keeps the same cyclic
// order over the ports in use, so the outcome is the same.
module meshmp_router #(
  parameter int PORTS = 5,
  parameter int NET_PORTS = 4,
  parameter int VCS = 4,
  parameter int MAX_BUFFER = 8,  // slots per VC, a power of two, at least cfg_buffer_flits
  parameter int TABLE_BITS = 12  // the routing table holds 2^TABLE_BITS destinations
) (
  input  logic clk,
  input  logic rst,
  // Straps (constant during a run).
  input  logic [2:0] cfg_pipeline_depth,           // 1..5
  input  logic [1:0] cfg_switching,                // WORMHOLE, CUT_THROUGH, STORE_AND_FORWARD
  input  logic [7:0] cfg_buffer_flits,             // credits per VC (downstream buffer depth)
  input  logic       cfg_dateline,
  input  logic       cfg_all_port,                 // eject through the channel of the arrival direction
  input  logic       cfg_exclusive_ejection,       // an ejection port takes one packet at a time
  input  logic [NET_PORTS*5-1:0] cfg_port_dimension,
  input  logic [NET_PORTS-1:0]   cfg_port_ring,
  input  logic [NET_PORTS-1:0]   cfg_port_dateline,
  // Test only (0 in a real router): 1 drops every credit of input port 0 VC 0, 2 lets the last requesting
  // input win switch allocation at an output instead of the first from the pointer. The co-verification
  // tests must catch both.
  input  logic [1:0] test_fault,
  // Routing table write port (used during reset).
  input  logic                  table_write,
  input  logic [TABLE_BITS-1:0] table_address,
  input  logic [7:0]            table_port,
  // Links: the flit arriving on each input port this cycle (valid = its bit VALID), and the credits each
  // output VC gets back this cycle (a count: an ejection channel may return several at once).
  input  logic [PORTS*meshmp_flit_pkg::FLIT_BITS-1:0] flit_in,
  input  logic [PORTS*VCS*4-1:0]     credit_in,
  // What crossed the switch at the last edge: a flit per output port, a credit per input port.
  output logic [PORTS*meshmp_flit_pkg::FLIT_BITS-1:0] flit_out,
  output logic [PORTS-1:0]           credit_out_valid,
  output logic [PORTS*4-1:0]         credit_out_vc,
  // Performance counter and protocol errors (sticky): buffer overflow, credit beyond the buffer depth,
  // a body flit at the front of an idle VC.
  output logic [63:0] body_stall_cycles,
  output logic [2:0]  error
);
  // The wire format's fields (rtl/meshmp_flit_pkg.sv).
  localparam int FLIT_BITS = meshmp_flit_pkg::FLIT_BITS;
  localparam int VALID = meshmp_flit_pkg::VALID;
  localparam int HEAD = meshmp_flit_pkg::HEAD;
  localparam int TAIL = meshmp_flit_pkg::TAIL;
  localparam int VC_BITS = meshmp_flit_pkg::VC_BITS;
  localparam int VC = meshmp_flit_pkg::VC;
  localparam int DST = meshmp_flit_pkg::DST;
  localparam int VC_CLASS = meshmp_flit_pkg::VC_CLASS;
  localparam int RING_DIMENSION_BITS = meshmp_flit_pkg::RING_DIMENSION_BITS;
  localparam int RING_DIMENSION = meshmp_flit_pkg::RING_DIMENSION;
  localparam int NO_RING_DIMENSION = meshmp_flit_pkg::NO_RING_DIMENSION;
  localparam int ROUTE_LENGTH_BITS = meshmp_flit_pkg::ROUTE_LENGTH_BITS;
  localparam int ROUTE_LENGTH = meshmp_flit_pkg::ROUTE_LENGTH;
  localparam int ROUTE_POSITION_BITS = meshmp_flit_pkg::ROUTE_POSITION_BITS;
  localparam int ROUTE_POSITION = meshmp_flit_pkg::ROUTE_POSITION;
  localparam int PACKET_FLITS_BITS = meshmp_flit_pkg::PACKET_FLITS_BITS;
  localparam int PACKET_FLITS = meshmp_flit_pkg::PACKET_FLITS;
  localparam int ROUTE = meshmp_flit_pkg::ROUTE;
  localparam int WORMHOLE = meshmp_flit_pkg::WORMHOLE;
  localparam int STORE_AND_FORWARD = meshmp_flit_pkg::STORE_AND_FORWARD;
  localparam int AGE_SATURATION = meshmp_flit_pkg::AGE_SATURATION;
  localparam int IVCS = PORTS * VCS;       // input VCs, and output VCs
  localparam int SLOT_BITS = $clog2(MAX_BUFFER);
  localparam int IVC_BITS = $clog2(IVCS);
  localparam logic [1:0] IDLE = 2'd0, WAITING = 2'd1, ACTIVE = 2'd2;

  // ---- State ----
  logic [SLOT_BITS-1:0] front [IVCS];
  logic [7:0] count [IVCS];
  logic [7:0] tails [IVCS];
  logic [AGE_SATURATION-1:0] history [IVCS];
  logic [1:0] state [IVCS];
  logic [7:0] route_port [IVCS];            // decided by route computation
  logic [3:0] route_vc_begin [IVCS], route_vc_end [IVCS];
  logic       route_class [IVCS];
  logic [4:0] route_dimension [IVCS];
  logic [3:0] out_vc [IVCS];                // decided by VC allocation
  logic [7:0] credits [IVCS];               // per output VC
  logic       owned [IVCS];  // per output VC: held by a packet
  logic [7:0] va_pointer [PORTS];           // per output port: input VC index
  logic [3:0] sa_input_pointer [PORTS];     // per input port: VC
  logic [7:0] sa_output_pointer [PORTS];    // per output port: input port
  logic [7:0] route_table [2**TABLE_BITS];

  // ---- Evaluate ----
  function automatic int bits_set(input logic [AGE_SATURATION-1:0] h);
    int n;
    n = 0;
    for (int k = 0; k < AGE_SATURATION; k++) n = n + 32'(h[k]);
    bits_set = n;
  endfunction

  // Age of the flit `behind` places behind the front of a VC holding `n` flits with history `h`.
  function automatic int age_of(input logic [AGE_SATURATION-1:0] h, input int n, input int behind);
    int newest_first;
    int seen;
    int age;
    newest_first = n - 1 - behind;
    seen = 0;
    age = AGE_SATURATION;
    if (newest_first < bits_set(h))
      for (int k = 0; k < AGE_SATURATION; k++)
        if (h[k]) begin
          if (seen == newest_first && age == AGE_SATURATION) age = k;
          seen = seen + 1;
        end
    age_of = age;
  endfunction

  logic [7:0] effective_credits [IVCS];  // with this cycle's returns
  logic       credit_overflow;
  logic       write_vc [IVCS];           // a flit arrives in this VC this cycle
  logic       tail_written [IVCS];
  logic       buffer_overflow;
  int         count_now [IVCS];           // flits held, the one arriving included
  logic [AGE_SATURATION-1:0] history_now [IVCS];
  logic [FLIT_BITS-1:0] front_flit [IVCS];
  logic       front_ready [IVCS];
  logic       body_at_idle_front;
  // Route computation results and VC states after this cycle's route computation and VC allocation.
  logic [7:0] rc_port [IVCS];
  logic [3:0] rc_vc_begin [IVCS], rc_vc_end [IVCS];
  logic       rc_class [IVCS];
  logic [4:0] rc_dimension [IVCS];
  logic       va_request [IVCS];
  logic       va_granted [IVCS];
  logic [3:0] va_vc [IVCS];
  logic [1:0] state_now [IVCS];
  logic [3:0] out_vc_now [IVCS];
  logic       owned_now [IVCS];
  logic [7:0] va_pointer_next [PORTS];
  logic       va_wanted [PORTS];            // some input VC asks this output for a VC
  // Switch allocation.
  logic       sa_input_valid [PORTS];
  logic [3:0] sa_input_vc [PORTS];
  logic       sa_grant [PORTS];           // per output port
  logic [7:0] sa_grant_input [PORTS];
  int         stalled_bodies;

  // Evaluate: decisions from the state at the edge and this cycle's inputs (called at the edge). Its
  // blocking assignments to the decision variables are deliberate: the cycle is computed once per edge.
  /* verilator lint_off BLKSEQ */
  task automatic evaluate();
    // Credits returned this cycle count at once.
    credit_overflow = 1'b0;
    for (int o = 0; o < IVCS; o++) begin
      effective_credits[o] = credits[o] + {4'd0, credit_in[o*4 +: 4]};
      if (effective_credits[o] > cfg_buffer_flits) credit_overflow = 1'b1;
    end

    // Buffer write of the arriving flits (age 0: never eligible in the cycle they arrive).
    buffer_overflow = 1'b0;
    for (int i = 0; i < IVCS; i++) begin
      write_vc[i] = 1'b0;
      tail_written[i] = 1'b0;
    end
    for (int p = 0; p < PORTS; p++)
      if (flit_in[p*FLIT_BITS + VALID]) begin
        write_vc[p*VCS + 32'(flit_in[p*FLIT_BITS + VC +: VC_BITS])] = 1'b1;
        tail_written[p*VCS + 32'(flit_in[p*FLIT_BITS + VC +: VC_BITS])] = flit_in[p*FLIT_BITS + TAIL];
        if (count[p*VCS + 32'(flit_in[p*FLIT_BITS + VC +: VC_BITS])] >= cfg_buffer_flits) buffer_overflow = 1'b1;
      end

    // Route computation for ready heads of idle VCs, then VC allocation requests.
    body_at_idle_front = 1'b0;
    for (int i = 0; i < IVCS; i++) begin
      int in_port;
      logic [7:0] port;
      logic [4:0] dim;
      logic cls;
      in_port = i / VCS;
      count_now[i] = 32'(count[i]) + 32'(write_vc[i]);
      history_now[i] = history[i] | {{(AGE_SATURATION-1){1'b0}}, write_vc[i]};
      // (count_now > 0 first: an empty VC costs the simulator no age computation.)
      front_ready[i] = count_now[i] > 0 &&
          age_of(history_now[i], count_now[i], 0) >=
          (front_flit[i][HEAD] ? 32'(cfg_pipeline_depth) : (cfg_pipeline_depth > 3'd2 ? 2 : 32'(cfg_pipeline_depth)));
      rc_port[i] = route_port[i];
      rc_vc_begin[i] = route_vc_begin[i];
      rc_vc_end[i] = route_vc_end[i];
      rc_class[i] = route_class[i];
      rc_dimension[i] = route_dimension[i];
      state_now[i] = state[i];
      va_request[i] = 1'b0;
      if (state[i] != ACTIVE && front_ready[i]) begin
        if (state[i] == IDLE) begin
          if (!front_flit[i][HEAD]) body_at_idle_front = 1'b1;
          else begin
            // The output port: the next entry of a source route, else the routing table.
            if (front_flit[i][ROUTE_LENGTH +: ROUTE_LENGTH_BITS] != 0)
              port = front_flit[i][ROUTE_POSITION +: ROUTE_POSITION_BITS] < front_flit[i][ROUTE_LENGTH +: ROUTE_LENGTH_BITS]
                         ? front_flit[i][ROUTE + 8*32'(front_flit[i][ROUTE_POSITION +: ROUTE_POSITION_BITS]) +: 8]
                         : 8'hff;
            else
              port = route_table[front_flit[i][DST +: TABLE_BITS]];
            if (port == 8'hff) begin
              rc_port[i] = 8'(NET_PORTS + ((cfg_all_port && in_port < NET_PORTS) ? in_port : 0));
              rc_vc_begin[i] = 4'd0;
              rc_vc_end[i] = 4'(VCS);
              rc_class[i] = 1'b0;
              rc_dimension[i] = 5'(NO_RING_DIMENSION);
            end else begin
              dim = cfg_port_dimension[32'(port)*5 +: 5];
              rc_port[i] = port;
              rc_dimension[i] = dim;
              if (!cfg_dateline || !cfg_port_ring[32'(port)]) begin
                rc_vc_begin[i] = 4'd0;
                rc_vc_end[i] = 4'(VCS);
                rc_class[i] = 1'b0;
              end else begin
                cls = front_flit[i][RING_DIMENSION +: RING_DIMENSION_BITS] == dim ? front_flit[i][VC_CLASS] : 1'b0;
                if (cfg_port_dateline[32'(port)]) cls = 1'b1;
                rc_class[i] = cls;
                rc_vc_begin[i] = cls ? 4'(VCS / 2) : 4'd0;
                rc_vc_end[i] = cls ? 4'(VCS) : 4'(VCS / 2);
              end
            end
            state_now[i] = WAITING;
          end
        end
        if (state_now[i] == WAITING) begin
          // Store-and-forward: the packet's tail is in the buffer and through its pipeline.
          va_request[i] = cfg_switching != 2'(STORE_AND_FORWARD) ||
              (32'(tails[i]) + 32'(tail_written[i]) > 0 &&
               age_of(history_now[i], count_now[i], 32'(front_flit[i][PACKET_FLITS +: PACKET_FLITS_BITS]) - 1) >=
                   32'(cfg_pipeline_depth));
        end
      end
    end

    // VC allocation: per output port, input VCs in round-robin order from the pointer.
    for (int i = 0; i < IVCS; i++) begin
      va_granted[i] = 1'b0;
      va_vc[i] = 4'd0;
      owned_now[i] = owned[i];
    end
    for (int o = 0; o < PORTS; o++) va_wanted[o] = 1'b0;
    for (int i = 0; i < IVCS; i++)
      if (va_request[i]) va_wanted[32'(rc_port[i])] = 1'b1;
    for (int o = 0; o < PORTS; o++) begin
      int last_winner;
      logic exclusive;
      logic any_owned;
      last_winner = -1;
      va_pointer_next[o] = va_pointer[o];
      if (va_wanted[o]) begin  // "any request" guard: most outputs have none in most cycles
        exclusive = o >= NET_PORTS && cfg_exclusive_ejection;
        any_owned = 1'b0;
        for (int v = 0; v < VCS; v++) any_owned |= owned[o*VCS + v];
        for (int k = 0; k < IVCS; k++) begin
          int i;
          int needed;
          logic done;
          i = 32'(va_pointer[o]) + k;
          if (i >= IVCS) i -= IVCS;
          if (va_request[i] && 32'(rc_port[i]) == o) begin
            needed = cfg_switching == 2'(WORMHOLE) ? 1 : 32'(front_flit[i][PACKET_FLITS +: PACKET_FLITS_BITS]);
            done = 1'b0;
            for (int v = 0; v < VCS; v++)
              if (!done && v >= 32'(rc_vc_begin[i]) && v < 32'(rc_vc_end[i]) && !owned_now[o*VCS + v] &&
                  !(exclusive && any_owned) && 32'(effective_credits[o*VCS + v]) >= needed) begin
                owned_now[o*VCS + v] = 1'b1;
                any_owned = 1'b1;
                va_granted[i] = 1'b1;
                va_vc[i] = 4'(v);
                last_winner = i;
                done = 1'b1;
              end
          end
        end
        if (last_winner >= 0) va_pointer_next[o] = 8'((last_winner + 1) % IVCS);
      end
    end
    for (int i = 0; i < IVCS; i++) begin
      out_vc_now[i] = va_granted[i] ? va_vc[i] : out_vc[i];
      if (va_granted[i]) state_now[i] = ACTIVE;
    end

    // Switch allocation, input first: each input port picks one VC with a ready front flit and a credit,
    // round robin from its pointer; a body flit through its pipeline that does not leave is a stall.
    stalled_bodies = 0;
    for (int p = 0; p < PORTS; p++) begin
      sa_input_valid[p] = 1'b0;
      sa_input_vc[p] = 4'd0;
      for (int k = 0; k < VCS; k++) begin
        int v;
        logic [IVC_BITS-1:0] i;
        v = 32'(sa_input_pointer[p]) + k;
        if (v >= VCS) v -= VCS;
        i = IVC_BITS'(p*VCS + v);
        if (state_now[i] == ACTIVE && front_ready[i]) begin
          if (!sa_input_valid[p] &&
              effective_credits[32'(rc_port[i])*VCS + 32'(out_vc_now[i])] != 8'd0) begin
            sa_input_valid[p] = 1'b1;
            sa_input_vc[p] = 4'(v);
          end
        end
      end
      for (int v = 0; v < VCS; v++)
        if (state_now[p*VCS + v] == ACTIVE && front_ready[p*VCS + v] && !front_flit[p*VCS + v][HEAD])
          stalled_bodies++;
    end
    // ... then each output port grants one requesting input, round robin from its pointer.
    for (int o = 0; o < PORTS; o++) begin
      sa_grant[o] = 1'b0;
      sa_grant_input[o] = 8'd0;
      for (int k = 0; k < PORTS; k++) begin
        int p;
        p = 32'(sa_output_pointer[o]) + k;
        if (p >= PORTS) p -= PORTS;
        if ((!sa_grant[o] || test_fault == 2'd2) && sa_input_valid[p] &&
            32'(rc_port[p*VCS + 32'(sa_input_vc[p])]) == o) begin
          sa_grant[o] = 1'b1;
          sa_grant_input[o] = 8'(p);
        end
      end
      if (sa_grant[o] && !front_flit[32'(sa_grant_input[o])*VCS + 32'(sa_input_vc[32'(sa_grant_input[o])])][HEAD])
        stalled_bodies--;
    end
  endtask

  // ---- Update ----
  // The next state; the edge copies it (one write per register per cycle).
  logic [SLOT_BITS-1:0] front_next [IVCS];
  logic [7:0] count_next [IVCS];
  logic [7:0] tails_next [IVCS];
  logic [AGE_SATURATION-1:0] history_next [IVCS];
  logic [1:0] state_next [IVCS];
  logic [7:0] credits_next [IVCS];
  logic       owned_next [IVCS];
  logic [3:0] sa_input_pointer_next [PORTS];
  logic [7:0] sa_output_pointer_next [PORTS];
  logic [PORTS*FLIT_BITS-1:0] flit_out_next;
  logic [PORTS-1:0]           credit_out_valid_next;
  logic [PORTS*4-1:0]         credit_out_vc_next;

  // The next state from those decisions (called at the edge, after evaluate()).
  task automatic compute_next();
    logic popped [IVCS];
    for (int i = 0; i < IVCS; i++) begin
      popped[i] = 1'b0;
      credits_next[i] = effective_credits[i];
      owned_next[i] = owned_now[i];
    end
    for (int p = 0; p < PORTS; p++) begin
      sa_input_pointer_next[p] = sa_input_pointer[p];
      sa_output_pointer_next[p] = sa_output_pointer[p];
    end
    flit_out_next = '0;
    credit_out_valid_next = '0;
    credit_out_vc_next = '0;
    // Switch traversal, in output-port order: the flit leaves (a head carries its new routing state),
    // its credit goes upstream, the output VC's credit is consumed, the tail releases the output VC.
    for (int o = 0; o < PORTS; o++)
      if (sa_grant[o]) begin
        int p;
        int v;
        logic [IVC_BITS-1:0] i;
        logic [FLIT_BITS-1:0] f;
        p = 32'(sa_grant_input[o]);
        v = 32'(sa_input_vc[p]);
        i = IVC_BITS'(p*VCS + v);
        f = front_flit[i];
        if (f[HEAD]) begin
          f[VC_CLASS] = rc_class[i];
          f[RING_DIMENSION +: RING_DIMENSION_BITS] = rc_dimension[i];
          if (f[ROUTE_LENGTH +: ROUTE_LENGTH_BITS] != 0 && o < NET_PORTS)
            f[ROUTE_POSITION +: ROUTE_POSITION_BITS] = f[ROUTE_POSITION +: ROUTE_POSITION_BITS] + 6'd1;
        end
        f[VC +: VC_BITS] = out_vc_now[i];
        flit_out_next[o*FLIT_BITS +: FLIT_BITS] = f;
        credit_out_valid_next[p] = !(test_fault == 2'd1 && p == 0 && v == 0);
        credit_out_vc_next[p*4 +: 4] = 4'(v);
        credits_next[o*VCS + 32'(out_vc_now[i])] = credits_next[o*VCS + 32'(out_vc_now[i])] - 8'd1;
        if (f[TAIL]) owned_next[o*VCS + 32'(out_vc_now[i])] = 1'b0;
        popped[i] = 1'b1;
        sa_input_pointer_next[p] = 4'((v + 1) % VCS);
        sa_output_pointer_next[o] = 8'((p + 1) % PORTS);
      end
    // Per input VC: pop, VC state, ages (the young flits shift; a popped young front takes its bit along).
    for (int i = 0; i < IVCS; i++) begin
      logic [AGE_SATURATION-1:0] h;
      logic cleared;
      h = history_now[i];
      state_next[i] = state_now[i];
      front_next[i] = front[i];
      if (popped[i]) begin
        if (bits_set(h) == count_now[i]) begin
          cleared = 1'b0;
          for (int k = AGE_SATURATION - 1; k >= 0; k--)
            if (h[k] && !cleared) begin
              h[k] = 1'b0;
              cleared = 1'b1;
            end
        end
        front_next[i] = front[i] + 1'b1;
        if (front_flit[i][TAIL]) state_next[i] = IDLE;
      end
      count_next[i] = 8'(count_now[i] - 32'(popped[i]));
      tails_next[i] = 8'(32'(tails[i]) + 32'(tail_written[i]) - 32'(popped[i] && front_flit[i][TAIL]));
      history_next[i] = {h[AGE_SATURATION-2:0], 1'b0};
    end
  endtask
  /* verilator lint_on BLKSEQ */

  always_ff @(posedge clk) begin
    if (rst) begin
      for (int i = 0; i < IVCS; i++) begin
        front[i] <= '0;
        count[i] <= '0;
        tails[i] <= '0;
        history[i] <= '0;
        state[i] <= IDLE;
        route_port[i] <= '0;
        route_vc_begin[i] <= '0;
        route_vc_end[i] <= '0;
        route_class[i] <= '0;
        route_dimension[i] <= '0;
        out_vc[i] <= '0;
        credits[i] <= cfg_buffer_flits;
        owned[i] <= 1'b0;
      end
      for (int p = 0; p < PORTS; p++) begin
        va_pointer[p] <= '0;
        sa_input_pointer[p] <= '0;
        sa_output_pointer[p] <= '0;
      end
      flit_out <= '0;
      credit_out_valid <= '0;
      credit_out_vc <= '0;
      body_stall_cycles <= '0;
      error <= '0;
    end else begin
      // The whole cycle is computed here, once per edge, rather than in combinational blocks that a
      // simulator would re-evaluate whenever an input or a register changes.
      evaluate();
      compute_next();
`ifdef SYNTHESIS
      // yosys reads no whole-array assignment: element by element.
      for (int i = 0; i < IVCS; i++) begin
        front[i] <= front_next[i];
        count[i] <= count_next[i];
        tails[i] <= tails_next[i];
        history[i] <= history_next[i];
        state[i] <= state_next[i];
        route_port[i] <= rc_port[i];
        route_vc_begin[i] <= rc_vc_begin[i];
        route_vc_end[i] <= rc_vc_end[i];
        route_class[i] <= rc_class[i];
        route_dimension[i] <= rc_dimension[i];
        out_vc[i] <= out_vc_now[i];
        credits[i] <= credits_next[i];
        owned[i] <= owned_next[i];
      end
      for (int p = 0; p < PORTS; p++) begin
        va_pointer[p] <= va_pointer_next[p];
        sa_input_pointer[p] <= sa_input_pointer_next[p];
        sa_output_pointer[p] <= sa_output_pointer_next[p];
      end
`else
      // Whole arrays: a simulator copies them at once.
      front <= front_next;
      count <= count_next;
      tails <= tails_next;
      history <= history_next;
      state <= state_next;
      route_port <= rc_port;
      route_vc_begin <= rc_vc_begin;
      route_vc_end <= rc_vc_end;
      route_class <= rc_class;
      route_dimension <= rc_dimension;
      out_vc <= out_vc_now;
      credits <= credits_next;
      owned <= owned_next;
      va_pointer <= va_pointer_next;
      sa_input_pointer <= sa_input_pointer_next;
      sa_output_pointer <= sa_output_pointer_next;
`endif
      flit_out <= flit_out_next;
      credit_out_valid <= credit_out_valid_next;
      credit_out_vc <= credit_out_vc_next;
      body_stall_cycles <= body_stall_cycles + 64'(stalled_bodies);
      error <= error | {body_at_idle_front, credit_overflow, buffer_overflow};
    end
  end

  // The routing table: one entry written per reset edge.
  always_ff @(posedge clk)
    if (rst && table_write) route_table[table_address] <= table_port;

  // Buffer write: each input port writes at most one flit per cycle, into its own memory.
  for (genvar p = 0; p < PORTS; p++) begin : g_input_buffer
    logic [FLIT_BITS-1:0] memory [VCS*MAX_BUFFER];
    logic [VC_BITS-1:0] vc;
    logic [SLOT_BITS-1:0] slot;
    assign vc = flit_in[p*FLIT_BITS + VC +: VC_BITS];
    assign slot = SLOT_BITS'(32'(front[p*VCS + 32'(vc)]) + 32'(count[p*VCS + 32'(vc)]));
    always_ff @(posedge clk)
      if (!rst && flit_in[p*FLIT_BITS + VALID]) memory[32'(vc)*MAX_BUFFER + 32'(slot)] <= flit_in[p*FLIT_BITS +: FLIT_BITS];
    for (genvar v = 0; v < VCS; v++) begin : g_front
      assign front_flit[p*VCS + v] = memory[v*MAX_BUFFER + 32'(front[p*VCS + v])];
    end
  end
endmodule
