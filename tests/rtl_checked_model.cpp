// The checked configuration of the RTL router (tests only): the verilated p5v4 with assertions and fault
// injection behind the adapter's interface. See rtl_checked_model.h.
#include "rtl_checked_model.h"

#include <memory>
#include <string>

#include "hw/router/verilated_router.h"
#include "Vmeshmp_router_p5v4_checked.h"

namespace meshmp {

RtlModelConfiguration checked_rtl_model(RtlFault fault) {
  using Model = Vmeshmp_router_p5v4_checked;
  RtlModelConfiguration c = verilated::configuration<Model, 5, 4, 4>(
      "p5v4_checked: 4 network + 1 local ports, 4 VCs, assertions and fault injection");
  c.make = [fault](const std::string& instance) -> std::unique_ptr<RtlModelPort> {
    auto router = std::make_unique<verilated::VerilatedRouter<Model, 5, 4>>(instance);
    router->model().test_fault = static_cast<CData>(fault);  // sampled at the reset edges
    return router;
  };
  return c;
}

void set_rtl_assertions_enabled(bool enabled) { rtl_verilator_context().assertOn(enabled); }

}  // namespace meshmp
