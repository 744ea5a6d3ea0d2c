// The routing table of a router: one output port per destination (NO_PORT, all ones: eject), loaded at
// reset from the machine's routing function through the write port, one entry per edge, as table-routed
// networks are configured. One read port per input VC (route computation).
module meshmp_route_table #(
  parameter int READ_PORTS = 20,
  parameter int TABLE_BITS = 12   // 2^TABLE_BITS destinations
) (
  input  logic clk,
  input  logic write,
  input  logic [TABLE_BITS-1:0]                            write_address,
  input  logic [meshmp_flit_pkg::PORT_BITS-1:0]            write_port,
  input  logic [READ_PORTS-1:0]                            read_enable,   // (a simulator skips the other reads)
  input  logic [READ_PORTS*TABLE_BITS-1:0]                 read_address,
  output logic [READ_PORTS*meshmp_flit_pkg::PORT_BITS-1:0] read_port
);
  localparam int PORT_BITS = meshmp_flit_pkg::PORT_BITS;

  logic [PORT_BITS-1:0] entries [2**TABLE_BITS];

  always_ff @(posedge clk)
    if (write) entries[write_address] <= write_port;

  always_comb
    for (int r = 0; r < READ_PORTS; r++)
      read_port[r*PORT_BITS +: PORT_BITS] =
          read_enable[r] ? entries[read_address[r*TABLE_BITS +: TABLE_BITS]] : meshmp_flit_pkg::NO_PORT;
endmodule
