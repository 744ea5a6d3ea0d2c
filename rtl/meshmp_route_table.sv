// The routing table of a router, loaded at reset from the machine's routing function through the write
// port, one entry per edge, as table-routed networks are configured. Per destination: one output port
// (NO_PORT, all ones: eject), and for an adaptive function the outputs it offers, in its order (a count and
// up to ROUTE_CHOICES entries, meshmp_route_compute's layout). One read port per input VC (route
// computation).
module meshmp_route_table #(
  parameter int READ_PORTS = 20,
  parameter int TABLE_BITS = 12,   // 2^TABLE_BITS destinations
  parameter int CHOICES_BITS = 8   // one destination's choices: a count and its entries
) (
  input  logic clk,
  input  logic write,
  input  logic [TABLE_BITS-1:0]                            write_address,
  input  logic [meshmp_flit_pkg::PORT_BITS-1:0]            write_port,
  input  logic [CHOICES_BITS-1:0]                          write_choices,
  input  logic [READ_PORTS-1:0]                            read_enable,   // (a simulator skips the other reads)
  input  logic                                             read_choices,  // an adaptive function routes
  input  logic [READ_PORTS*TABLE_BITS-1:0]                 read_address,
  output logic [READ_PORTS*meshmp_flit_pkg::PORT_BITS-1:0] read_port,
  output logic [READ_PORTS*CHOICES_BITS-1:0]               read_choice_list
);
  localparam int PORT_BITS = meshmp_flit_pkg::PORT_BITS;

  logic [PORT_BITS-1:0] entries [2**TABLE_BITS];
  logic [CHOICES_BITS-1:0] choices [2**TABLE_BITS];

  always_ff @(posedge clk)
    if (write) begin
      entries[write_address] <= write_port;
      choices[write_address] <= write_choices;
    end

  always_comb
    for (int r = 0; r < READ_PORTS; r++) begin
      read_port[r*PORT_BITS +: PORT_BITS] =
          read_enable[r] ? entries[read_address[r*TABLE_BITS +: TABLE_BITS]] : meshmp_flit_pkg::NO_PORT;
      read_choice_list[r*CHOICES_BITS +: CHOICES_BITS] =
          read_enable[r] && read_choices ? choices[read_address[r*TABLE_BITS +: TABLE_BITS]] : '0;
    end
endmodule
