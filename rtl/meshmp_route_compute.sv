// Route computation for the VCs of one input port (the SystemC twin: hw/router/routing_unit.cpp): the output
// port of a head flit is the next entry of its source route, else the routing table's entry for its
// destination (NO_PORT: eject here), and its VC range is its dateline class on a ring (dimension-order
// routing on tori: a packet that crossed this ring's wrap-around link, or crosses it now, uses the upper
// half of the VCs). Combinational; the input unit takes the result when the VC is idle.
//
// Under an adaptive function (cfg_adaptive) a head the routers route also gets the outputs the function
// offers (hw/router/routing_unit.cpp, adaptive_choices), from the table's choices for its destination,
// each with its VC range: a head that arrived on an escape VC (below cfg_escape_vcs) keeps to the escape
// outputs (Duato), and an output marked for the source's column only (odd-even: a north or south turn of an
// eastbound packet in an even column) is offered while the head is still in the column its source router
// wrote into its header (meshmp_input_unit). meshmp_route_select picks among them.
module meshmp_route_compute #(
  parameter int IN_PORT = 0,     // the input port these VCs belong to
  parameter int NET_PORTS = 4,
  parameter int VCS = 4,
  parameter int TABLE_BITS = 12,
  // The table's choices (meshmp_route_table): a count in the low CHOICE_COUNT_BITS, then entry k of
  // TABLE_CHOICE_BITS: output port, VC range begin and end, escape output, source's column only.
  parameter int TABLE_CHOICE_BITS = meshmp_flit_pkg::PORT_BITS + 2 * meshmp_flit_pkg::VC_BITS + 2,
  parameter int TABLE_CHOICES_BITS = meshmp_router_pkg::CHOICE_COUNT_BITS + meshmp_router_pkg::ROUTE_CHOICES * TABLE_CHOICE_BITS,
  // The outputs offered (meshmp_route_select): a count, then entry k of CHOICE_BITS: port, VC range.
  parameter int CHOICE_BITS = meshmp_flit_pkg::PORT_BITS + 2 * meshmp_flit_pkg::VC_BITS,
  parameter int CHOICES_BITS = meshmp_router_pkg::CHOICE_COUNT_BITS + meshmp_router_pkg::ROUTE_CHOICES * CHOICE_BITS
) (
  input  logic cfg_adaptive,
  input  logic [meshmp_flit_pkg::VC_BITS-1:0]  cfg_escape_vcs,
  input  logic [meshmp_flit_pkg::DST_BITS-1:0] cfg_column,   // this router's coordinate in dimension 0
  input  logic cfg_dateline,
  input  logic cfg_all_port,                    // eject through the channel of the arrival direction
  input  logic [NET_PORTS*meshmp_flit_pkg::RING_DIMENSION_BITS-1:0] cfg_port_dimension,
  input  logic [NET_PORTS-1:0]   cfg_port_ring,
  input  logic [NET_PORTS-1:0]   cfg_port_dateline,
  // The VCs whose front head is routed this cycle (the others' results are not used: a simulator skips
  // them), and each VC's front head (meshmp_input_unit).
  input  logic [VCS-1:0]                                      routing,
  input  logic [VCS*meshmp_flit_pkg::DST_BITS-1:0]            front_destination,
  input  logic [VCS-1:0]                                      front_vc_class,
  input  logic [VCS*meshmp_flit_pkg::RING_DIMENSION_BITS-1:0] front_ring_dimension,
  input  logic [VCS-1:0]                                      front_source_routed,
  input  logic [VCS*meshmp_flit_pkg::PORT_BITS-1:0]           front_route_entry,
  input  logic [VCS*meshmp_flit_pkg::DST_BITS-1:0]            front_source_column,
  // The routing table's answer for each front's destination.
  output logic [VCS*TABLE_BITS-1:0]                           table_address,
  input  logic [VCS*meshmp_flit_pkg::PORT_BITS-1:0]           table_port,
  input  logic [VCS*TABLE_CHOICES_BITS-1:0]                   table_choices,
  // The outputs an adaptive function offers (count 0: the decision below is the route).
  output logic [VCS*CHOICES_BITS-1:0]                         rc_choices,
  // The decision.
  output logic [VCS*meshmp_flit_pkg::PORT_BITS-1:0]           rc_port,
  output logic [VCS*meshmp_flit_pkg::VC_BITS-1:0]             rc_vc_begin,
  output logic [VCS*meshmp_flit_pkg::VC_BITS-1:0]             rc_vc_end,
  output logic [VCS-1:0]                                      rc_class,
  output logic [VCS*meshmp_flit_pkg::RING_DIMENSION_BITS-1:0] rc_dimension
);
  localparam int NO_RING_DIMENSION = meshmp_flit_pkg::NO_RING_DIMENSION;
  localparam int PORT_BITS = meshmp_flit_pkg::PORT_BITS;
  localparam int VC_BITS = meshmp_flit_pkg::VC_BITS;
  localparam int DST_BITS = meshmp_flit_pkg::DST_BITS;
  localparam int DIMENSION_BITS = meshmp_flit_pkg::RING_DIMENSION_BITS;
  localparam logic [PORT_BITS-1:0] NO_PORT = meshmp_flit_pkg::NO_PORT;
  localparam logic [PORT_BITS-1:0] EJECT_PORT = PORT_BITS'(NET_PORTS + (IN_PORT < NET_PORTS ? IN_PORT : 0));

  always_comb begin
    logic [PORT_BITS-1:0] port;
    logic [DIMENSION_BITS-1:0] dimension;
    logic upper;
    int network_port;   // the port as an index of the network-port straps
    for (int v = 0; v < VCS; v++) begin
      port = NO_PORT;
      dimension = '0;
      upper = 1'b0;
      network_port = 0;
      table_address[v*TABLE_BITS +: TABLE_BITS] = front_destination[v*DST_BITS +: TABLE_BITS];
      rc_port[v*PORT_BITS +: PORT_BITS] = '0;
      rc_dimension[v*DIMENSION_BITS +: DIMENSION_BITS] = '0;
      rc_class[v] = 1'b0;
      rc_vc_begin[v*VC_BITS +: VC_BITS] = '0;
      rc_vc_end[v*VC_BITS +: VC_BITS] = VC_BITS'(VCS);
      if (routing[v]) begin
        port = front_source_routed[v] ? front_route_entry[v*PORT_BITS +: PORT_BITS]
                                      : table_port[v*PORT_BITS +: PORT_BITS];
        network_port = 32'(port) < NET_PORTS ? 32'(port) : 0;
        dimension = cfg_port_dimension[network_port*DIMENSION_BITS +: DIMENSION_BITS];
        if (port == NO_PORT) begin
          rc_port[v*PORT_BITS +: PORT_BITS] = cfg_all_port ? EJECT_PORT : PORT_BITS'(NET_PORTS);
          rc_dimension[v*DIMENSION_BITS +: DIMENSION_BITS] = DIMENSION_BITS'(NO_RING_DIMENSION);
        end else begin
          rc_port[v*PORT_BITS +: PORT_BITS] = port;
          rc_dimension[v*DIMENSION_BITS +: DIMENSION_BITS] = dimension;
          if (cfg_dateline && cfg_port_ring[network_port]) begin
            upper = (front_ring_dimension[v*DIMENSION_BITS +: DIMENSION_BITS] == dimension && front_vc_class[v]) ||
                    cfg_port_dateline[network_port];
            rc_class[v] = upper;
            rc_vc_begin[v*VC_BITS +: VC_BITS] = upper ? VC_BITS'(VCS / 2) : '0;
            rc_vc_end[v*VC_BITS +: VC_BITS] = upper ? VC_BITS'(VCS) : VC_BITS'(VCS / 2);
          end
        end
      end
    end
  end

  localparam int COUNT_BITS = meshmp_router_pkg::CHOICE_COUNT_BITS;
  localparam int CHOICES = meshmp_router_pkg::ROUTE_CHOICES;
  // The table's entries this head is offered (keep), packed in order: entry k goes to slot `ahead[k]`,
  // the number kept ahead of it (constant indices only, no write at a computed position).
  always_comb
    for (int v = 0; v < VCS; v++) begin
      logic on_escape;
      logic in_source_column;
      logic [CHOICES-1:0] keep;
      logic [TABLE_CHOICE_BITS-1:0] entry;
      int ahead [CHOICES];
      int kept;
      rc_choices[v*CHOICES_BITS +: CHOICES_BITS] = '0;
      on_escape = IN_PORT < NET_PORTS && v < 32'(cfg_escape_vcs);
      in_source_column = IN_PORT >= NET_PORTS || front_source_column[v*DST_BITS +: DST_BITS] == cfg_column;
      kept = 0;
      for (int k = 0; k < CHOICES; k++) begin
        entry = table_choices[v*TABLE_CHOICES_BITS + COUNT_BITS + k*TABLE_CHOICE_BITS +: TABLE_CHOICE_BITS];
        keep[k] = routing[v] && cfg_adaptive && !front_source_routed[v] &&
                  k < 32'(table_choices[v*TABLE_CHOICES_BITS +: COUNT_BITS]) &&
                  (!on_escape || entry[CHOICE_BITS]) && (!entry[CHOICE_BITS + 1] || in_source_column);
        ahead[k] = kept;
        kept = kept + 32'(keep[k]);
      end
      for (int j = 0; j < CHOICES; j++)
        for (int k = j; k < CHOICES; k++)
          if (keep[k] && ahead[k] == j)
            rc_choices[v*CHOICES_BITS + COUNT_BITS + j*CHOICE_BITS +: CHOICE_BITS] =
                table_choices[v*TABLE_CHOICES_BITS + COUNT_BITS + k*TABLE_CHOICE_BITS +: CHOICE_BITS];
      rc_choices[v*CHOICES_BITS +: COUNT_BITS] = COUNT_BITS'(kept);
    end
endmodule
