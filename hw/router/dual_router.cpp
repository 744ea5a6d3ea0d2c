// The `dual` router model: SystemC and RTL routers in lockstep. See dual_router.h.
#include "hw/router/dual_router.h"

#include <algorithm>

#include "hw/router/flit_wire.h"

namespace meshmp {

namespace {
std::string describe(const Flit& f) {
  std::string text = std::string(f.head ? "head" : "body") + (f.tail ? "+tail" : "") + " vc " + std::to_string(f.vc) +
                     " tag " + std::to_string(f.tag);
  if (f.head)
    text += " dst " + std::to_string(f.dst) + " class " + std::to_string(f.vc_class) + " ring dimension " +
            std::to_string(f.ring_dimension) + " route position " + std::to_string(f.route_position);
  else
    text += " " + std::to_string(f.payload_bytes) + " bytes";
  return text;
}
}  // namespace

DualRouter::DualRouter(int node, const Topology& topology, const RouterParams& params, PortModel port_model,
                       RoutingFunction routing, RouterEnvironment* environment,
                       const RtlModelConfiguration* rtl_model)
    : env_(environment),
      cpp_out_{},
      rtl_out_{},
      cpp_(node, topology, params, port_model, routing, &cpp_out_),
      rtl_(node, topology, params, port_model, routing, &rtl_out_, rtl_model) {
  cpp_out_.machine = rtl_out_.machine = environment;
  cpp_out_.model = "cpp";
  rtl_out_.model = "rtl";
}

void DualRouter::receive_flit(int in_port, const Flit& flit, std::uint64_t cycle) {
  cpp_.receive_flit(in_port, flit, cycle);
  rtl_.receive_flit(in_port, flit, cycle);
}

void DualRouter::receive_credit(int out_port, int vc) {
  cpp_.receive_credit(out_port, vc);
  rtl_.receive_credit(out_port, vc);
}

std::string DualRouter::first_difference() {
  const std::size_t n = std::max(cpp_out_.flits.size(), rtl_out_.flits.size());
  for (std::size_t k = 0; k < n; ++k) {
    const bool in_cpp = k < cpp_out_.flits.size(), in_rtl = k < rtl_out_.flits.size();
    if (in_cpp && in_rtl && cpp_out_.flits[k].first == rtl_out_.flits[k].first &&
        wire::pack(cpp_out_.flits[k].second) == wire::pack(rtl_out_.flits[k].second))
      continue;
    const int port = in_cpp ? cpp_out_.flits[k].first : rtl_out_.flits[k].first;
    return "output port " + std::to_string(port) + ": cpp " +
           (in_cpp ? "port " + std::to_string(cpp_out_.flits[k].first) + " " + describe(cpp_out_.flits[k].second)
                   : std::string("nothing")) +
           ", rtl " +
           (in_rtl ? "port " + std::to_string(rtl_out_.flits[k].first) + " " + describe(rtl_out_.flits[k].second)
                   : std::string("nothing"));
  }
  // Credits of one cycle all take effect at the same edge upstream: compared as a set.
  auto cpp_credits = cpp_out_.credits, rtl_credits = rtl_out_.credits;
  std::sort(cpp_credits.begin(), cpp_credits.end());
  std::sort(rtl_credits.begin(), rtl_credits.end());
  if (cpp_credits != rtl_credits) {
    auto text = [](const std::vector<std::pair<int, int>>& credits) {
      std::string t;
      for (const auto& [port, vc] : credits) t += " (input port " + std::to_string(port) + " vc " + std::to_string(vc) + ")";
      return t.empty() ? std::string(" none") : t;
    };
    return "credits upstream: cpp" + text(cpp_credits) + ", rtl" + text(rtl_credits);
  }
  // The power model's events, counted by each model its own way.
  if (const std::string counts = rtl_.activity()->difference_from(*cpp_.activity()); !counts.empty())
    return "power-model event counts: rtl " + counts + " (the cpp router's)";
  if (cpp_.body_stall_cycles() != rtl_.body_stall_cycles())
    return "body-flit stall counter: cpp " + std::to_string(cpp_.body_stall_cycles()) + ", rtl " +
           std::to_string(rtl_.body_stall_cycles());
  return "";
}

void DualRouter::step(std::uint64_t cycle) {
  cpp_out_.flits.clear();
  cpp_out_.credits.clear();
  rtl_out_.flits.clear();
  rtl_out_.credits.clear();
  cpp_.step(cycle);
  // The RTL router is stepped whenever the SystemC one is: it holds the same flits.
  rtl_.step(cycle);
  if (!diverged_) {
    if (const std::string difference = first_difference(); !difference.empty()) {
      diverged_ = true;
      env_->protocol_error("dual: the RTL and SystemC routers differ at cycle " + std::to_string(cycle) +
                           ", router " + std::to_string(cpp_.node()) + ", " + difference);
    }
  }
  for (const auto& [port, flit] : cpp_out_.flits) env_->send_flit(cpp_.node(), port, flit);
  for (const auto& [port, vc] : cpp_out_.credits) env_->send_credit(cpp_.node(), port, vc);
}

namespace {

// The SystemC and the RTL router in lockstep, stopping at the first difference.
RouterModelDescription dual_router_description() {
  return verilated_router_description<DualRouter>("dual", "SystemC and RTL routers in lockstep");
}

const RouterModelRegistration kRegistration{30, dual_router_description};

}  // namespace

}  // namespace meshmp
