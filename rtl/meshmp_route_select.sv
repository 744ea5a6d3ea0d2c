// Output selection for the VCs of one input port under an adaptive routing function (the SystemC twin:
// Router::select_output, hw/router/router.cpp): the outputs route computation offered a head
// (meshmp_route_compute) are kept while it waits for an output VC, and every cycle it asks for one, among
// the outputs with a free VC of its range holding the credits it needs (wormhole: one; otherwise its whole
// packet), the policy picks the first (SELECT_FIRST) or the one with most credits on such VCs
// (SELECT_MOST_CREDITS, the first at a tie); with none, the first output offered. A head routed this cycle
// takes the first output offered when it does not ask yet (store-and-forward: its tail is not in). The
// chosen output (chosen, chosen_port) is what the input unit requests and a waveform shows.
module meshmp_route_select #(
  parameter int PORTS = 5,
  parameter int VCS = 4,
  parameter int NET_PORTS = 4,
  parameter int CHOICE_BITS = meshmp_flit_pkg::PORT_BITS + 2 * meshmp_flit_pkg::VC_BITS,
  parameter int CHOICES_BITS = meshmp_router_pkg::CHOICE_COUNT_BITS + meshmp_router_pkg::ROUTE_CHOICES * CHOICE_BITS
) (
  input  logic clk,
  input  logic rst,
  input  logic [meshmp_router_pkg::SELECTION_BITS-1:0]             cfg_selection,
  input  logic [meshmp_router_pkg::SWITCHING_BITS-1:0]             cfg_switching,
  input  logic [NET_PORTS*meshmp_flit_pkg::RING_DIMENSION_BITS-1:0] cfg_port_dimension,
  // Per VC of this port: routed this cycle with the outputs offered, asking for an output VC this cycle.
  input  logic [VCS-1:0]                                           routing,
  input  logic [VCS*CHOICES_BITS-1:0]                              rc_choices,
  input  logic [VCS-1:0]                                           requesting,
  input  logic [VCS*meshmp_flit_pkg::PACKET_FLITS_BITS-1:0]        front_packet_flits,
  // The output VCs (index port*VCS + vc), as VC allocation sees them.
  input  logic [PORTS*VCS-1:0]                                     owned,
  input  logic [PORTS*VCS*meshmp_router_pkg::FLIT_COUNT_BITS-1:0]  credits,
  // The route chosen this cycle, where `chosen` is set.
  output logic [VCS-1:0]                                           chosen,
  output logic [VCS*meshmp_flit_pkg::PORT_BITS-1:0]                chosen_port,
  output logic [VCS*meshmp_flit_pkg::VC_BITS-1:0]                  chosen_vc_begin,
  output logic [VCS*meshmp_flit_pkg::VC_BITS-1:0]                  chosen_vc_end,
  output logic [VCS*meshmp_flit_pkg::RING_DIMENSION_BITS-1:0]      chosen_dimension
);
  localparam int PORT_BITS = meshmp_flit_pkg::PORT_BITS;
  localparam int VC_BITS = meshmp_flit_pkg::VC_BITS;
  localparam int DIMENSION_BITS = meshmp_flit_pkg::RING_DIMENSION_BITS;
  localparam int PACKET_FLITS_BITS = meshmp_flit_pkg::PACKET_FLITS_BITS;
  localparam int FLIT_COUNT_BITS = meshmp_router_pkg::FLIT_COUNT_BITS;
  localparam int COUNT_BITS = meshmp_router_pkg::CHOICE_COUNT_BITS;
  localparam int WORMHOLE = meshmp_flit_pkg::WORMHOLE;
  localparam int SUM_BITS = FLIT_COUNT_BITS + $clog2(VCS) + 1;   // credits of an output's VCs, plus one

  // The outputs offered to each VC's head, from its route computation until its next head's.
  logic [VCS*CHOICES_BITS-1:0] choices_q;
  always_ff @(posedge clk)
    for (int v = 0; v < VCS; v++)
      if (rst) choices_q[v*CHOICES_BITS +: COUNT_BITS] <= '0;
      else if (routing[v]) choices_q[v*CHOICES_BITS +: CHOICES_BITS] <= rc_choices[v*CHOICES_BITS +: CHOICES_BITS];

  always_comb
    for (int v = 0; v < VCS; v++) begin
      logic [CHOICES_BITS-1:0] offered;
      logic [CHOICE_BITS-1:0] choice;
      int count, pick, port;
      logic [PACKET_FLITS_BITS-1:0] needs;
      logic [SUM_BITS-1:0] sum, most;   // credits on the usable VCs of an output, plus one (0: none usable)
      logic any;
      offered = routing[v] ? rc_choices[v*CHOICES_BITS +: CHOICES_BITS] : choices_q[v*CHOICES_BITS +: CHOICES_BITS];
      count = 32'(offered[COUNT_BITS-1:0]);
      chosen[v] = routing[v] ? count != 0 : requesting[v] && count > 1;
      pick = 0;
      most = '0;
      needs = cfg_switching == meshmp_router_pkg::SWITCHING_BITS'(WORMHOLE)
                  ? PACKET_FLITS_BITS'(1) : front_packet_flits[v*PACKET_FLITS_BITS +: PACKET_FLITS_BITS];
      any = 1'b0;
      sum = '0;
      if (chosen[v] && requesting[v] && count > 1)
        for (int k = 0; k < meshmp_router_pkg::ROUTE_CHOICES; k++)
          if (k < count) begin
            choice = offered[COUNT_BITS + k*CHOICE_BITS +: CHOICE_BITS];
            port = 32'(choice[PORT_BITS-1:0]);
            sum = '0;
            if (port < PORTS)
              for (int w = 0; w < VCS; w++)
                if (VC_BITS'(w) >= choice[PORT_BITS +: VC_BITS] && VC_BITS'(w) < choice[PORT_BITS + VC_BITS +: VC_BITS] &&
                    !owned[port*VCS + w] &&
                    PACKET_FLITS_BITS'(credits[(port*VCS + w)*FLIT_COUNT_BITS +: FLIT_COUNT_BITS]) >= needs)
                  sum = (sum == '0 ? SUM_BITS'(1) : sum) +
                        SUM_BITS'(credits[(port*VCS + w)*FLIT_COUNT_BITS +: FLIT_COUNT_BITS]);
            if (sum != '0) begin
              if ((cfg_selection == meshmp_router_pkg::SELECT_FIRST && !any) ||
                  (cfg_selection == meshmp_router_pkg::SELECT_MOST_CREDITS && sum > most))
                pick = k;
              if (sum > most) most = sum;
              any = 1'b1;
            end
          end
      choice = offered[COUNT_BITS + pick*CHOICE_BITS +: CHOICE_BITS];
      port = 32'(choice[PORT_BITS-1:0]);
      chosen_port[v*PORT_BITS +: PORT_BITS] = choice[PORT_BITS-1:0];
      chosen_vc_begin[v*VC_BITS +: VC_BITS] = choice[PORT_BITS +: VC_BITS];
      chosen_vc_end[v*VC_BITS +: VC_BITS] = choice[PORT_BITS + VC_BITS +: VC_BITS];
      chosen_dimension[v*DIMENSION_BITS +: DIMENSION_BITS] =
          cfg_port_dimension[(port < NET_PORTS ? port : 0)*DIMENSION_BITS +: DIMENSION_BITS];
    end
endmodule
