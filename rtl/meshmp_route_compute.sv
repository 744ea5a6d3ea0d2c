// Route computation for the VCs of one input port (the SystemC twin: hw/router/routing_unit.cpp): the output
// port of a head flit is the next entry of its source route, else the routing table's entry for its
// destination (8'hff: eject here), and its VC range is its dateline class on a ring (dimension-order
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
  input  logic [NET_PORTS*5-1:0] cfg_port_dimension,
  input  logic [NET_PORTS-1:0]   cfg_port_ring,
  input  logic [NET_PORTS-1:0]   cfg_port_dateline,
  // The VCs whose front head is routed this cycle (the others' results are not used: a simulator skips
  // them), and each VC's front head (meshmp_input_unit).
  input  logic [VCS-1:0]    routing,
  input  logic [VCS*16-1:0] front_destination,
  input  logic [VCS-1:0]    front_vc_class,
  input  logic [VCS*5-1:0]  front_ring_dimension,
  input  logic [VCS-1:0]    front_source_routed,
  input  logic [VCS*8-1:0]  front_route_entry,
  // The routing table's answer for each front's destination.
  output logic [VCS*TABLE_BITS-1:0] table_address,
  input  logic [VCS*8-1:0]          table_port,
  // The decision.
  output logic [VCS*8-1:0] rc_port,
  output logic [VCS*4-1:0] rc_vc_begin,
  output logic [VCS*4-1:0] rc_vc_end,
  output logic [VCS-1:0]   rc_class,
  output logic [VCS*5-1:0] rc_dimension
);
  localparam int NO_RING_DIMENSION = meshmp_flit_pkg::NO_RING_DIMENSION;
  localparam logic [7:0] EJECT_PORT = 8'(NET_PORTS + (IN_PORT < NET_PORTS ? IN_PORT : 0));

  always_comb begin
    logic [7:0] port;
    logic [4:0] dimension;
    logic upper;
    int network_port;   // the port as an index of the network-port straps
    for (int v = 0; v < VCS; v++) begin
      port = 8'hff;
      dimension = '0;
      upper = 1'b0;
      network_port = 0;
      table_address[v*TABLE_BITS +: TABLE_BITS] = front_destination[v*16 +: TABLE_BITS];
      rc_port[v*8 +: 8] = '0;
      rc_dimension[v*5 +: 5] = '0;
      rc_class[v] = 1'b0;
      rc_vc_begin[v*4 +: 4] = 4'd0;
      rc_vc_end[v*4 +: 4] = 4'(VCS);
      if (routing[v]) begin
        port = front_source_routed[v] ? front_route_entry[v*8 +: 8] : table_port[v*8 +: 8];
        network_port = 32'(port) < NET_PORTS ? 32'(port) : 0;
        dimension = cfg_port_dimension[network_port*5 +: 5];
        if (port == 8'hff) begin
          rc_port[v*8 +: 8] = cfg_all_port ? EJECT_PORT : 8'(NET_PORTS);
          rc_dimension[v*5 +: 5] = 5'(NO_RING_DIMENSION);
        end else begin
          rc_port[v*8 +: 8] = port;
          rc_dimension[v*5 +: 5] = dimension;
          if (cfg_dateline && cfg_port_ring[network_port]) begin
            upper = (front_ring_dimension[v*5 +: 5] == dimension && front_vc_class[v]) ||
                    cfg_port_dateline[network_port];
            rc_class[v] = upper;
            rc_vc_begin[v*4 +: 4] = upper ? 4'(VCS / 2) : 4'd0;
            rc_vc_end[v*4 +: 4] = upper ? 4'(VCS) : 4'(VCS / 2);
          end
        end
      end
    end
  end
endmodule
