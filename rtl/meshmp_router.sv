// The wormhole router in RTL: input-buffered, credit-based, virtual channels, the microarchitecture and
// arbitration order of the SystemC router (hw/router/router.cpp; docs/architecture.md, "Router
// microarchitecture"), so that the two are cycle-equivalent at their ports. One module per stage class:
//
//   meshmp_input_unit (per port)      VC FIFOs, slot ages, VC state; the read port of the departing flit
//   meshmp_route_compute (per port)   source routes, the routing table (meshmp_route_table), dateline classes,
//                                     an adaptive function's outputs
//   meshmp_route_select (per port)    the output an adaptive function's head asks for, by the selection policy
//   meshmp_vc_allocator               output VCs, round robin per output port
//   meshmp_switch_allocator           separable input-first, round robin
//   meshmp_crossbar                   switch traversal onto the output links, credits upstream
//   meshmp_output_unit (per port)     credit counters, output VC ownership
//
// One rising edge is one cycle. Between edges the stages decide from the registered state and this
// cycle's returned credits: route computation for VCs whose front head is through its pipeline, VC
// allocation, switch allocation; at the edge the granted flits leave (on the output links until the
// next edge, in output-port order), their credits go upstream, the flits arriving this cycle are
// written with age 0, every flit ages.
//
// Run-time facts are straps, sampled during reset: pipeline depth, switching mode, buffer depth,
// dateline, port model, and per network port its dimension, whether that dimension is a ring and whether
// the port is this router's wrap-around link; for an adaptive routing function (cfg_adaptive: the table's
// choices route) the selection policy, the escape VCs and this router's column. Returned credits are taken at the falling edge before the
// rising edge that counts them (meshmp_output_unit), so every stage decides from registers only. The
// allocators decide in the second half of the cycle, once the credits are in: in the first half their
// requests are held off, so a simulator evaluates them once per cycle instead of after each edge (a
// waveform sampled after the rising edge would then show no requests: cfg_trace_decisions keeps them on).
//
// Ports [0, NET_PORTS) are network ports, [NET_PORTS, PORTS) local (injection = ejection) ports. A
// machine whose routers have fewer network ports leaves the extra ones unused: arbitration keeps the same
// cyclic order over the ports in use, so the outcome is the same.
module meshmp_router #(
  parameter int PORTS = 5,
  parameter int NET_PORTS = 4,
  parameter int VCS = 4,          // virtual channels per port, a power of two
  parameter int MAX_BUFFER = 8,  // slots per VC, a power of two, at least cfg_buffer_flits
  parameter int TABLE_BITS = 12,  // the routing table holds 2^TABLE_BITS destinations
  // One destination's choices in the table (meshmp_route_compute): a count and ROUTE_CHOICES entries of
  // port, VC range, escape and source-column flags.
  parameter int TABLE_CHOICES_BITS = meshmp_router_pkg::CHOICE_COUNT_BITS +
      meshmp_router_pkg::ROUTE_CHOICES * (meshmp_flit_pkg::PORT_BITS + 2 * meshmp_flit_pkg::VC_BITS + 2)
) (
  input  logic clk,
  input  logic rst,
  // Straps (constant during a run): the pipeline depth (1..5), the switching mode (WORMHOLE, CUT_THROUGH,
  // STORE_AND_FORWARD), the credits per VC (the downstream buffer depth), ...
  input  logic [meshmp_router_pkg::PIPELINE_DEPTH_BITS-1:0] cfg_pipeline_depth,
  input  logic [meshmp_router_pkg::SWITCHING_BITS-1:0]      cfg_switching,
  input  logic [meshmp_router_pkg::FLIT_COUNT_BITS-1:0]     cfg_buffer_flits,
  input  logic       cfg_dateline,
  input  logic       cfg_all_port,                 // eject through the channel of the arrival direction
  input  logic       cfg_exclusive_ejection,       // an ejection port takes one packet at a time
  input  logic [NET_PORTS*meshmp_flit_pkg::RING_DIMENSION_BITS-1:0] cfg_port_dimension,
  input  logic [NET_PORTS-1:0]   cfg_port_ring,
  input  logic [NET_PORTS-1:0]   cfg_port_dateline,
  input  logic       cfg_trace_decisions,          // allocate in both halves of the cycle (waveforms)
  input  logic       cfg_adaptive,                 // the table's choices route (an adaptive function)
  input  logic [meshmp_router_pkg::SELECTION_BITS-1:0] cfg_selection,
  input  logic [meshmp_flit_pkg::VC_BITS-1:0]  cfg_escape_vcs,  // VCs below this are escape VCs (0: none)
  input  logic [meshmp_flit_pkg::DST_BITS-1:0] cfg_column,      // this router's coordinate in dimension 0
`ifdef MESHMP_FAULT_INJECTION
  // Only in the checked configuration (rtl/CMakeLists.txt), which the tests verilate: the bug to inject,
  // one of meshmp_router_pkg's FAULT_* (NO_FAULT: none), a strap sampled during reset.
  input  logic [meshmp_router_pkg::FAULT_BITS-1:0] test_fault,
`endif
  // Routing table write port (used during reset).
  input  logic                                  table_write,
  input  logic [TABLE_BITS-1:0]                 table_address,
  input  logic [meshmp_flit_pkg::PORT_BITS-1:0] table_port,   // NO_PORT: eject
  input  logic [TABLE_CHOICES_BITS-1:0]         table_choices,  // meshmp_route_compute's layout
  // Links: the flit arriving on each input port this cycle (valid = its bit VALID), and the credits each
  // output VC gets back this cycle (a count: an ejection channel may return several at once).
  // (Flit k occupies bits [k*FLIT_STRIDE, k*FLIT_STRIDE + FLIT_BITS); the rest of its stride is padding.)
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [PORTS*meshmp_flit_pkg::FLIT_STRIDE-1:0] flit_in,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [PORTS*VCS*meshmp_router_pkg::CREDIT_RETURN_BITS-1:0] credit_in,
  // What crossed the switch at the last edge: a flit per output port, a credit per input port.
  output logic [PORTS*meshmp_flit_pkg::FLIT_STRIDE-1:0] flit_out,
  output logic [PORTS-1:0]                              credit_out_valid,
  output logic [PORTS*meshmp_flit_pkg::VC_BITS-1:0]     credit_out_vc,
  // Performance counter and protocol errors (sticky): buffer overflow, credit beyond the buffer depth,
  // a body flit at the front of an idle VC.
  output logic [meshmp_router_pkg::STALL_COUNTER_BITS-1:0] body_stall_cycles,
  output logic [meshmp_router_pkg::ERROR_BITS-1:0]         error
);
  localparam int FLIT_BITS = meshmp_flit_pkg::FLIT_BITS;
  localparam int FLIT_STRIDE = meshmp_flit_pkg::FLIT_STRIDE;
  localparam int VC_BITS = meshmp_flit_pkg::VC_BITS;
  localparam int PORT_BITS = meshmp_flit_pkg::PORT_BITS;
  localparam int DST_BITS = meshmp_flit_pkg::DST_BITS;
  localparam int DIMENSION_BITS = meshmp_flit_pkg::RING_DIMENSION_BITS;
  localparam int PACKET_FLITS_BITS = meshmp_flit_pkg::PACKET_FLITS_BITS;
  localparam int FLIT_COUNT_BITS = meshmp_router_pkg::FLIT_COUNT_BITS;
  localparam int CREDIT_RETURN_BITS = meshmp_router_pkg::CREDIT_RETURN_BITS;
  localparam int STALL_COUNTER_BITS = meshmp_router_pkg::STALL_COUNTER_BITS;
  localparam int IVCS = PORTS * VCS;   // input VCs, and output VCs
  localparam int CHOICES_BITS = meshmp_router_pkg::CHOICE_COUNT_BITS +
      meshmp_router_pkg::ROUTE_CHOICES * (PORT_BITS + 2 * VC_BITS);   // the outputs offered to one head

  // The straps as sampled during reset: the stages decide from registers only.
  logic [meshmp_router_pkg::PIPELINE_DEPTH_BITS-1:0] depth_q;
  logic [meshmp_router_pkg::SWITCHING_BITS-1:0]      switching_q;
  logic [FLIT_COUNT_BITS-1:0]                        buffer_flits_q;
  logic       dateline_q, all_port_q, exclusive_ejection_q;
  logic [NET_PORTS*DIMENSION_BITS-1:0] port_dimension_q;
  logic [NET_PORTS-1:0]   port_ring_q, port_dateline_q;
  logic       trace_decisions_q;
  logic       adaptive_q;
  logic [meshmp_router_pkg::SELECTION_BITS-1:0] selection_q;
  logic [VC_BITS-1:0]  escape_vcs_q;
  logic [DST_BITS-1:0] column_q;
  always_ff @(posedge clk)
    if (rst) begin
      depth_q <= cfg_pipeline_depth;
      switching_q <= cfg_switching;
      buffer_flits_q <= cfg_buffer_flits;
      dateline_q <= cfg_dateline;
      all_port_q <= cfg_all_port;
      exclusive_ejection_q <= cfg_exclusive_ejection;
      port_dimension_q <= cfg_port_dimension;
      port_ring_q <= cfg_port_ring;
      port_dateline_q <= cfg_port_dateline;
      trace_decisions_q <= cfg_trace_decisions;
      adaptive_q <= cfg_adaptive;
      selection_q <= cfg_selection;
      escape_vcs_q <= cfg_escape_vcs;
      column_q <= cfg_column;
    end
`ifdef MESHMP_FAULT_INJECTION
  logic [meshmp_router_pkg::FAULT_BITS-1:0] test_fault_q;
  always_ff @(posedge clk) if (rst) test_fault_q <= test_fault;
`endif

  // The half of the cycle: the rising edge toggles a flag that the falling edge copies, so they differ
  // in the first half (from the rising edge) and agree in the second (from the falling edge, which brings
  // the returned credits). The allocators decide in the second half only, unless a waveform is to show
  // their decisions after the rising edge (cfg_trace_decisions).
  logic half_rise_q, half_fall_q;
  always_ff @(posedge clk) half_rise_q <= rst ? 1'b0 : !half_rise_q;
  always_ff @(negedge clk) half_fall_q <= rst ? 1'b0 : half_rise_q;
  logic allocate;
  assign allocate = half_rise_q == half_fall_q || trace_decisions_q;

  // Input units to route computation and the allocators (per input VC, index port*VCS + vc).
  logic [IVCS-1:0]                   front_vc_class, front_source_routed;
  logic [IVCS*DST_BITS-1:0]          front_destination;
  logic [IVCS*DIMENSION_BITS-1:0]    front_ring_dimension;
  logic [IVCS*PORT_BITS-1:0]         front_route_entry;
  logic [IVCS*DST_BITS-1:0]          front_source_column;
  logic [IVCS*PACKET_FLITS_BITS-1:0] front_packet_flits;
  logic [IVCS-1:0]                   routing;         // an idle VC's ready head is routed this cycle
  logic [IVCS*TABLE_BITS-1:0]        lookup_address;  // route computation reads the table
  logic [IVCS*PORT_BITS-1:0]         lookup_port;
  logic [IVCS*TABLE_CHOICES_BITS-1:0] lookup_choices;
  logic [IVCS*CHOICES_BITS-1:0]      rc_choices;      // an adaptive function's outputs for a head routed now
  logic [IVCS-1:0]                   chosen;          // ... and the one its head asks for this cycle
  logic [IVCS*PORT_BITS-1:0]         chosen_port;
  logic [IVCS*VC_BITS-1:0]           chosen_vc_begin, chosen_vc_end;
  logic [IVCS*DIMENSION_BITS-1:0]    chosen_dimension;
  logic [IVCS*PORT_BITS-1:0]         rc_port;
  logic [IVCS*VC_BITS-1:0]           rc_vc_begin, rc_vc_end;
  logic [IVCS-1:0]                   rc_class;
  logic [IVCS*DIMENSION_BITS-1:0]    rc_dimension;
  logic [IVCS-1:0]                   va_request, va_granted;
  logic [IVCS*PORT_BITS-1:0]         route_port;
  logic [IVCS*VC_BITS-1:0]           route_vc_begin, route_vc_end, va_vc;
  logic [IVCS-1:0]                   sa_request;
  logic [IVCS*VC_BITS-1:0]           out_vc;
  // Output units (per output VC).
  logic [IVCS*FLIT_COUNT_BITS-1:0]   credits;
  logic [IVCS-1:0]                   has_credit, owned, claim;
  // Switch allocation and traversal.
  logic [PORTS-1:0]                  pop_valid, grant, send, send_tail;
  logic [PORTS*VC_BITS-1:0]          pop_vc, send_vc;
  logic [PORTS*PORT_BITS-1:0]        grant_input;
  logic [PORTS*VC_BITS-1:0]          departing_vc;
  logic [PORTS-1:0]                  departing_tail;
  logic [PORTS*FLIT_STRIDE-1:0]      departed_flit;
  // Statistics and errors.
  logic [PORTS*FLIT_COUNT_BITS-1:0]  stalled_bodies;
  logic [PORTS-1:0]                  buffer_overflow, body_at_idle_front, credit_overflow;

  for (genvar p = 0; p < PORTS; p++) begin : g_port
    meshmp_input_unit #(.IN_PORT(p), .NET_PORTS(NET_PORTS), .VCS(VCS), .MAX_BUFFER(MAX_BUFFER)) input_unit (
      .clk, .rst, .cfg_pipeline_depth(depth_q), .cfg_switching(switching_q), .cfg_buffer_flits(buffer_flits_q),
      .cfg_adaptive(adaptive_q), .cfg_column(column_q),
      .allocate,
      .flit_in(flit_in[p*FLIT_STRIDE +: FLIT_BITS]),
      .front_destination(front_destination[p*VCS*DST_BITS +: VCS*DST_BITS]),
      .front_vc_class(front_vc_class[p*VCS +: VCS]),
      .front_ring_dimension(front_ring_dimension[p*VCS*DIMENSION_BITS +: VCS*DIMENSION_BITS]),
      .front_source_routed(front_source_routed[p*VCS +: VCS]),
      .front_route_entry(front_route_entry[p*VCS*PORT_BITS +: VCS*PORT_BITS]),
      .front_source_column(front_source_column[p*VCS*DST_BITS +: VCS*DST_BITS]),
      .front_packet_flits(front_packet_flits[p*VCS*PACKET_FLITS_BITS +: VCS*PACKET_FLITS_BITS]),
      .routing(routing[p*VCS +: VCS]),
      .rc_port(rc_port[p*VCS*PORT_BITS +: VCS*PORT_BITS]),
      .rc_vc_begin(rc_vc_begin[p*VCS*VC_BITS +: VCS*VC_BITS]),
      .rc_vc_end(rc_vc_end[p*VCS*VC_BITS +: VCS*VC_BITS]),
      .rc_class(rc_class[p*VCS +: VCS]),
      .rc_dimension(rc_dimension[p*VCS*DIMENSION_BITS +: VCS*DIMENSION_BITS]),
      .chosen(chosen[p*VCS +: VCS]),
      .chosen_port(chosen_port[p*VCS*PORT_BITS +: VCS*PORT_BITS]),
      .chosen_vc_begin(chosen_vc_begin[p*VCS*VC_BITS +: VCS*VC_BITS]),
      .chosen_vc_end(chosen_vc_end[p*VCS*VC_BITS +: VCS*VC_BITS]),
      .chosen_dimension(chosen_dimension[p*VCS*DIMENSION_BITS +: VCS*DIMENSION_BITS]),
      .va_request(va_request[p*VCS +: VCS]),
      .route_port(route_port[p*VCS*PORT_BITS +: VCS*PORT_BITS]),
      .route_vc_begin(route_vc_begin[p*VCS*VC_BITS +: VCS*VC_BITS]),
      .route_vc_end(route_vc_end[p*VCS*VC_BITS +: VCS*VC_BITS]),
      .va_granted(va_granted[p*VCS +: VCS]),
      .va_vc(va_vc[p*VCS*VC_BITS +: VCS*VC_BITS]),
      .sa_request(sa_request[p*VCS +: VCS]),
      .out_vc(out_vc[p*VCS*VC_BITS +: VCS*VC_BITS]),
      .pop_valid(pop_valid[p]),
      .pop_vc(pop_vc[p*VC_BITS +: VC_BITS]),
      .departing_vc(departing_vc[p*VC_BITS +: VC_BITS]),
      .departing_tail(departing_tail[p]),
      .departed_flit(departed_flit[p*FLIT_STRIDE +: FLIT_BITS]),
      .stalled_bodies(stalled_bodies[p*FLIT_COUNT_BITS +: FLIT_COUNT_BITS]),
      .buffer_overflow(buffer_overflow[p]),
      .body_at_idle_front(body_at_idle_front[p]));

    assign departed_flit[p*FLIT_STRIDE + FLIT_BITS +: FLIT_STRIDE - FLIT_BITS] = '0;

    meshmp_route_compute #(.IN_PORT(p), .NET_PORTS(NET_PORTS), .VCS(VCS), .TABLE_BITS(TABLE_BITS)) route_compute (
      .cfg_adaptive(adaptive_q), .cfg_escape_vcs(escape_vcs_q), .cfg_column(column_q),
      .cfg_dateline(dateline_q), .cfg_all_port(all_port_q), .cfg_port_dimension(port_dimension_q),
      .cfg_port_ring(port_ring_q), .cfg_port_dateline(port_dateline_q),
      .routing(routing[p*VCS +: VCS]),
      .front_destination(front_destination[p*VCS*DST_BITS +: VCS*DST_BITS]),
      .front_vc_class(front_vc_class[p*VCS +: VCS]),
      .front_ring_dimension(front_ring_dimension[p*VCS*DIMENSION_BITS +: VCS*DIMENSION_BITS]),
      .front_source_routed(front_source_routed[p*VCS +: VCS]),
      .front_route_entry(front_route_entry[p*VCS*PORT_BITS +: VCS*PORT_BITS]),
      .front_source_column(front_source_column[p*VCS*DST_BITS +: VCS*DST_BITS]),
      .table_address(lookup_address[p*VCS*TABLE_BITS +: VCS*TABLE_BITS]),
      .table_port(lookup_port[p*VCS*PORT_BITS +: VCS*PORT_BITS]),
      .table_choices(lookup_choices[p*VCS*TABLE_CHOICES_BITS +: VCS*TABLE_CHOICES_BITS]),
      .rc_choices(rc_choices[p*VCS*CHOICES_BITS +: VCS*CHOICES_BITS]),
      .rc_port(rc_port[p*VCS*PORT_BITS +: VCS*PORT_BITS]),
      .rc_vc_begin(rc_vc_begin[p*VCS*VC_BITS +: VCS*VC_BITS]),
      .rc_vc_end(rc_vc_end[p*VCS*VC_BITS +: VCS*VC_BITS]),
      .rc_class(rc_class[p*VCS +: VCS]),
      .rc_dimension(rc_dimension[p*VCS*DIMENSION_BITS +: VCS*DIMENSION_BITS]));

    meshmp_route_select #(.PORTS(PORTS), .VCS(VCS), .NET_PORTS(NET_PORTS)) route_select (
      .clk, .rst, .cfg_selection(selection_q), .cfg_switching(switching_q), .cfg_port_dimension(port_dimension_q),
      .routing(routing[p*VCS +: VCS]),
      .rc_choices(rc_choices[p*VCS*CHOICES_BITS +: VCS*CHOICES_BITS]),
      .requesting(va_request[p*VCS +: VCS]),
      .front_packet_flits(front_packet_flits[p*VCS*PACKET_FLITS_BITS +: VCS*PACKET_FLITS_BITS]),
      .owned, .credits,
      .chosen(chosen[p*VCS +: VCS]),
      .chosen_port(chosen_port[p*VCS*PORT_BITS +: VCS*PORT_BITS]),
      .chosen_vc_begin(chosen_vc_begin[p*VCS*VC_BITS +: VCS*VC_BITS]),
      .chosen_vc_end(chosen_vc_end[p*VCS*VC_BITS +: VCS*VC_BITS]),
      .chosen_dimension(chosen_dimension[p*VCS*DIMENSION_BITS +: VCS*DIMENSION_BITS]));

    meshmp_output_unit #(.VCS(VCS)) output_unit (
      .clk, .rst, .cfg_buffer_flits, .allocate,
      .credit_in(credit_in[p*VCS*CREDIT_RETURN_BITS +: VCS*CREDIT_RETURN_BITS]),
      .credits(credits[p*VCS*FLIT_COUNT_BITS +: VCS*FLIT_COUNT_BITS]),
      .has_credit(has_credit[p*VCS +: VCS]),
      .owned(owned[p*VCS +: VCS]),
      .credit_overflow(credit_overflow[p]),
      .claim(claim[p*VCS +: VCS]),
      .send(send[p]),
      .send_vc(send_vc[p*VC_BITS +: VC_BITS]),
      .send_tail(send_tail[p]));
  end

  meshmp_route_table #(.READ_PORTS(IVCS), .TABLE_BITS(TABLE_BITS), .CHOICES_BITS(TABLE_CHOICES_BITS)) route_table (
    .clk, .write(rst && table_write), .write_address(table_address), .write_port(table_port),
    .write_choices(table_choices), .read_enable(routing), .read_choices(adaptive_q), .read_address(lookup_address),
    .read_port(lookup_port), .read_choice_list(lookup_choices));

  meshmp_vc_allocator #(.PORTS(PORTS), .NET_PORTS(NET_PORTS), .VCS(VCS)) vc_allocator (
    .clk, .rst, .cfg_switching(switching_q), .cfg_exclusive_ejection(exclusive_ejection_q),
    .request(va_request & {IVCS{allocate}}), .request_port(route_port), .request_vc_begin(route_vc_begin),
    .request_vc_end(route_vc_end), .request_packet_flits(front_packet_flits),
    .granted(va_granted), .granted_vc(va_vc), .owned, .credits, .claim);

  meshmp_switch_allocator #(.PORTS(PORTS), .VCS(VCS)) switch_allocator (
    .clk, .rst,
`ifdef MESHMP_FAULT_INJECTION
    .fault(test_fault_q), .keep_pointers_through_reset(test_fault == meshmp_router_pkg::FAULT_POINTERS_OUT_OF_RESET),
`endif
    .request(sa_request), .request_port(route_port), .request_out_vc(out_vc),
    .has_credit, .pop_valid, .pop_vc, .grant, .grant_input);

  meshmp_crossbar #(.PORTS(PORTS)) crossbar (
    .clk, .rst,
`ifdef MESHMP_FAULT_INJECTION
    .fault(test_fault_q),
`endif
    .grant, .grant_input, .pop_valid, .pop_vc, .departing_vc, .departing_tail, .departed_flit,
    .send, .send_vc, .send_tail, .flit_out, .credit_out_valid, .credit_out_vc);

  // Statistics and sticky protocol errors (the input units keep their buffer overflows themselves).
  logic error_q;
  assign error = {error_q, |credit_overflow, |buffer_overflow};
  always_ff @(posedge clk)
    if (rst) begin
      body_stall_cycles <= '0;
      error_q <= '0;
    end else begin
      logic [STALL_COUNTER_BITS-1:0] stalls;
      stalls = '0;
      for (int p = 0; p < PORTS; p++)
        stalls = stalls + STALL_COUNTER_BITS'(stalled_bodies[p*FLIT_COUNT_BITS +: FLIT_COUNT_BITS]);
      body_stall_cycles <= body_stall_cycles + stalls;
      error_q <= error_q | |body_at_idle_front;
    end
endmodule
