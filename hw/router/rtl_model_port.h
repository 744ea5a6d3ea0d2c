// A verilated RTL router (rtl/) as the `rtl` router model's adapter (hw/router/rtl_router.h) drives it, whatever
// its configuration: straps, reset edges that load the routing table, flits and credits in, one clock cycle,
// flits and credits out. hw/router/verilated_router.h puts a verilated model behind it; a configuration names
// the model's ports and VCs and builds one. The adapter takes its configuration from the built matrix
// (rtl/CMakeLists.txt) or, in tests, is given one (the checked configuration: tests/rtl_checked_model.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/router/flit_wire.h"

class VerilatedFstC;

namespace meshmp {

class RtlModelPort {
 public:
  virtual ~RtlModelPort() = default;
  struct Straps {
    int pipeline_depth, switching, buffer_flits;
    bool dateline, all_port, exclusive_ejection, trace_decisions;
    std::vector<int> port_dimension;
    std::vector<bool> port_ring, port_dateline;
    // An adaptive routing function: the table's choices route (meshmp_route_compute, meshmp_route_select).
    bool adaptive = false;
    bool most_credits = false;  // the selection policy: most credits, else the first output with a VC
    int escape_vcs = 0;
    int column = 0;             // this router's coordinate in dimension 0
  };
  virtual void set_straps(const Straps& straps) = 0;
  // The outputs an adaptive function offers for one destination, in its order (rtl/meshmp_route_table.sv).
  static constexpr int kTableChoices = 4;  // meshmp_router_pkg's ROUTE_CHOICES
  struct TableChoice {
    int port, vc_begin, vc_end;
    bool escape;              // offered to a head on an escape VC
    bool source_column_only;  // offered while the head is in its source's column
  };
  struct TableChoices {
    int count = 0;
    TableChoice entries[kTableChoices]{};
  };
  // One reset edge, writing one routing-table entry.
  virtual void reset_edge(int table_address, int table_port, const TableChoices& choices) = 0;
  virtual void put_flit(int port, const wire::WireFlit& bits) = 0;
  virtual void add_credit(int port, int vc) = 0;
  // One cycle (a falling edge, then a rising edge) with the inputs set since the last one; then the inputs
  // are cleared.
  virtual void edge() = 0;
  virtual bool flit_out(int port, wire::WireFlit& bits) const = 0;
  virtual bool credit_out(int port, int& vc) const = 0;
  virtual std::uint64_t body_stall_cycles() const = 0;
  virtual unsigned error() const = 0;
  virtual void trace(VerilatedFstC* file) = 0;
};

// A verilated configuration: the parameters fixed at verilation and how to build one model (`instance`
// names it in waveforms and assertion messages).
struct RtlModelConfiguration {
  std::string name;  // as a refusal lists it
  int ports;         // network + local
  int net_ports;
  int vcs;
  std::function<std::unique_ptr<RtlModelPort>(const std::string& instance)> make;
};

}  // namespace meshmp
