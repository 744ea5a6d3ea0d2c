// The flit wire format (bit for bit hw/router/flit_wire.h): what crosses a link in one cycle. Offsets and widths
// of every field, as [first bit, width]. A head flit carries the header, a body flit its payload.
package meshmp_flit_pkg;
  // The whole format is defined here; a module uses the fields it needs.
  /* verilator lint_off UNUSEDPARAM */
  localparam int FLIT_BITS = 342;
  // On a bus of several flits (a router's ports) each flit occupies whole 32-bit words, the bits above
  // FLIT_BITS zero, so that a simulator moves a flit word by word.
  localparam int FLIT_STRIDE = 352;

  localparam int VALID = 0;
  localparam int HEAD = 1;
  localparam int TAIL = 2;
  localparam int VC = 3, VC_BITS = 4;
  localparam int TAG = 7, TAG_BITS = 32;
  // Head flit.
  localparam int DST = 39, DST_BITS = 16;
  localparam int VC_CLASS = 55;
  localparam int RING_DIMENSION = 56, RING_DIMENSION_BITS = 5;
  localparam int NO_RING_DIMENSION = 31;
  localparam int ROUTE_LENGTH = 61, ROUTE_LENGTH_BITS = 6;
  localparam int ROUTE_POSITION = 67, ROUTE_POSITION_BITS = 6;
  localparam int PACKET_FLITS = 73, PACKET_FLITS_BITS = 13;
  localparam int ROUTE = 86, ROUTE_ENTRY_BITS = 8;  // entry k at ROUTE + 8k, k = 0..31
  // A source-route entry is an output port: the router passes port numbers at this width (all ones: none,
  // eject here), as it passes VC numbers at VC_BITS.
  localparam int PORT_BITS = ROUTE_ENTRY_BITS;
  localparam logic [PORT_BITS-1:0] NO_PORT = '1;
  // Body flit.
  localparam int PAYLOAD_BYTES = 39, PAYLOAD_BYTES_BITS = 6;
  localparam int PAYLOAD = 45;

  // Switching modes (router strap cfg_switching).
  localparam int WORMHOLE = 0;
  localparam int CUT_THROUGH = 1;
  localparam int STORE_AND_FORWARD = 2;
  /* verilator lint_on UNUSEDPARAM */
endpackage
