// The RTL router's routing table under an adaptive routing function (rtl/meshmp_route_table.sv): per
// destination, the outputs the function offers, in its order, each with its VC range, computed at reset
// by the SystemC router's own route computation (hw/router/routing_unit.h) so that both models offer the
// same. The function may depend on the packet's source only through whether the head is still in its
// source's column (odd-even, Chiu 2000): such an output is marked, and the head's source router writes its
// column into the header (flit.h, source_column). The rules the RTL router's table sets on the functions
// it routes are here too.
#pragma once

#include <optional>
#include <string>

#include "hw/router/router_params.h"
#include "hw/router/routing_unit.h"
#include "hw/router/rtl_model_port.h"
#include "topology/topology.h"

namespace meshmp {

// Empty when the RTL router routes params.routing_function (an adaptive function on a topology without
// rings, within the table's outputs per destination, by a selection policy it has); otherwise the rule
// broken, as a ConfigError's text naming the field.
std::optional<std::string> rtl_routing_unsupported(const Topology& topology, const RouterParams& params);

// The choices for packets from this router (`unit`, at `node`) to `dst`. Throws ConfigError when the
// function's outputs do not fit the table.
RtlModelPort::TableChoices rtl_table_choices(const RoutingUnit& unit, const RouterParams& params, const Topology& topology, int node,
                                             int dst);

// The VCs below this are escape VCs (0: none): the strap cfg_escape_vcs.
int rtl_escape_vcs(const Topology& topology, const RouterParams& params);

}  // namespace meshmp
