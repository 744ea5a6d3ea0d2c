// Route computation for the VCs of one input port (the SystemC twin: hw/router/routing_unit.cpp): the output
// port of a head flit is the next entry of its source route, else the routing table's entry for its
// destination (NO_PORT: eject here), and its VC range is its dateline class on a ring (dimension-order
// routing on tori: a packet that crossed this ring's wrap-around link, or crosses it now, uses the upper
// half of the VCs). Combinational; the input unit takes the result when the VC is idle.
module meshmp_route_compute #(
  parameter int IN_PORT = 0,     // the input port these VCs belong to
  parameter int NET_PORTS = 4,
  parameter int VCS = 4,
  parameter int TABLE_BITS = 12
) (
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
  // The routing table's answer for each front's destination.
  output logic [VCS*TABLE_BITS-1:0]                           table_address,
  input  logic [VCS*meshmp_flit_pkg::PORT_BITS-1:0]           table_port,
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
endmodule
