// The `rtl` router model: the verilated RTL router behind the router seam. See rtl_router.h.
#include "hw/router/rtl_router.h"

#include <algorithm>
#include <atomic>

#include "hw/router/flit_wire.h"
#include "hw/router/rtl_route_table.h"
#include "hw/router/routing_unit.h"
#include "hw/router/verilated_router.h"
#include "topology/config_error.h"

// The verilated models' headers stay in this file (and the tests' checked configuration).
#include "Vmeshmp_router_p5v2.h"
#include "Vmeshmp_router_p5v4.h"
#include "Vmeshmp_router_p7v4.h"
#include "Vmeshmp_router_p8v4.h"

namespace meshmp {

VerilatedContext& rtl_verilator_context() {
  static VerilatedContext context;
  return context;
}

namespace {

std::atomic<std::uint64_t> routers_built{0};  // built_count()
constexpr int kTableBits = 12;      // TABLE_BITS: up to 4096 destinations

// The matrix (rtl/CMakeLists.txt), smallest first.
const std::vector<RtlModelConfiguration>& built_configurations() {
  static const std::vector<RtlModelConfiguration> built{
      verilated::configuration<Vmeshmp_router_p5v2, 5, 4, 2>("p5v2: 4 network + 1 local ports, 2 VCs"),
      verilated::configuration<Vmeshmp_router_p5v4, 5, 4, 4>("p5v4: 4 network + 1 local ports, 4 VCs"),
      verilated::configuration<Vmeshmp_router_p7v4, 7, 6, 4>("p7v4: 6 network + 1 local ports, 4 VCs"),
      verilated::configuration<Vmeshmp_router_p8v4, 8, 4, 4>("p8v4: 4 network + 4 local ports, 4 VCs"),
  };
  return built;
}

bool covers(const RtlModelConfiguration& c, const Topology& topology, const RouterParams& params,
            PortModel port_model) {
  const int net = topology.num_ports();
  const int local = port_model == PortModel::AllPort ? net : 1;
  return c.vcs == params.vcs && c.net_ports >= net && c.ports - c.net_ports >= local;
}

const RtlModelConfiguration* find_configuration(const Topology& topology, const RouterParams& params,
                                                PortModel port_model) {
  for (const auto& c : built_configurations())
    if (covers(c, topology, params, port_model)) return &c;
  return nullptr;
}

}  // namespace

std::optional<std::string> RtlRouter::unsupported(const Topology& topology, const RouterParams& params,
                                                  PortModel port_model) {
  auto refuse = [](const std::string& why) {
    std::string built;
    for (const auto& c : built_configurations()) built += "; " + c.name;
    return std::optional<std::string>(why + " (RTL configurations built, each with up to " +
                                      std::to_string(kRtlMaxBuffer) + " flits per VC and " +
                                      std::to_string(1 << kTableBits) + " nodes" + built + ")");
  };
  if (params.buffer_flits > kRtlMaxBuffer)
    return refuse("router.buffer_flits = " + std::to_string(params.buffer_flits) + " exceeds the RTL buffers");
  if (topology.num_nodes() > (1 << kTableBits))
    return refuse(std::to_string(topology.num_nodes()) + " nodes exceed the RTL routing table");
  if (auto why = rtl_routing_unsupported(topology, params)) return why;
  if (!find_configuration(topology, params, port_model))
    return refuse("no RTL router with " + std::to_string(params.vcs) + " VCs, " +
                  std::to_string(topology.num_ports()) + " network ports and " +
                  std::to_string(port_model == PortModel::AllPort ? topology.num_ports() : 1) + " local ports");
  return std::nullopt;
}

RtlRouter::RtlRouter(int node, const Topology& topology, const RouterParams& params, PortModel port_model,
                     RoutingFunction routing, RouterEnvironment* environment, const RtlModelConfiguration* model)
    : node_(node),
      topology_(topology),
      routing_(routing),
      env_(environment),
      net_ports_(topology.num_ports()),
      local_ports_(port_model == PortModel::AllPort ? topology.num_ports() : 1),
      vcs_(params.vcs),
      activity_(net_ports_ + local_ports_) {
  if (auto why = unsupported(topology, params, port_model)) throw ConfigError("router.model", "rtl", *why);
  ++routers_built;
  if (model != nullptr && !covers(*model, topology, params, port_model))
    throw ConfigError("router.model", "rtl", "the RTL configuration " + model->name + " does not fit this machine");
  const RtlModelConfiguration& c = model != nullptr ? *model : *find_configuration(topology, params, port_model);
  model_net_ports_ = c.net_ports;
  // The power-on state: Verilator draws every register and memory (--x-initial unique) when the model is
  // built, all 0 or at random from a seed of this router's own.
  VerilatedContext& context = rtl_verilator_context();
  Verilated::threadContextp(&context);
  context.randReset(params.rtl_power_on_seed == 0 ? 0 : 2);
  if (params.rtl_power_on_seed != 0)
    context.randSeed(static_cast<int>(
        ((params.rtl_power_on_seed * 2654435761ull + static_cast<std::uint64_t>(node) * 40503ull) & 0x7ffffffe) | 1));
  model_ = c.make("router" + std::to_string(node));
  RtlModelPort::Straps straps;
  straps.pipeline_depth = params.pipeline_depth;
  straps.switching = static_cast<int>(params.switching);
  straps.buffer_flits = params.buffer_flits;
  straps.dateline = params.dateline;
  straps.all_port = port_model == PortModel::AllPort;
  straps.exclusive_ejection = params.exclusive_ejection;
  straps.trace_decisions = RtlWaveform::enabled();
  const RoutingUnit routing_unit(node, topology, params, port_model, routing);
  straps.adaptive = routing_unit.adaptive();
  straps.most_credits = params.selection == RouteSelection::MostCredits;
  straps.escape_vcs = rtl_escape_vcs(topology, params);
  straps.column = topology.coordinate(node, 0);
  for (int p = 0; p < net_ports_; ++p) {
    const int dim = topology.port(p).dimension;
    straps.port_dimension.push_back(dim);
    straps.port_ring.push_back(topology.dimension(dim).kind == DimensionKind::Ring);
    straps.port_dateline.push_back(topology.crosses_dateline(node, p));
  }
  model_->set_straps(straps);
  // Reset, loading the routing table: one destination per edge.
  for (int dst = 0; dst < topology.num_nodes(); ++dst) {
    const int port = dst == node ? -1 : routing(topology, node, dst);
    model_->reset_edge(dst, port < 0 ? 0xff : port, rtl_table_choices(routing_unit, params, topology, node, dst));
  }
  buffered_per_vc_.assign(static_cast<std::size_t>(num_ports()) * vcs_, 0);
  held_.resize(static_cast<std::size_t>(num_ports()) * vcs_ * kHeldRing);
  held_front_.assign(static_cast<std::size_t>(num_ports()) * vcs_, 0);
  held_count_.assign(static_cast<std::size_t>(num_ports()) * vcs_, 0);
  output_owner_.assign(static_cast<std::size_t>(num_ports()) * vcs_, -1);
  output_source_.assign(static_cast<std::size_t>(num_ports()) * vcs_, held_count_.size());
  flits_sent_.assign(num_ports(), 0);
  credits_.assign(static_cast<std::size_t>(num_ports()) * vcs_, params.buffer_flits);
  probes_.resize(num_ports());
}

RtlRouter::~RtlRouter() = default;

std::uint64_t RtlRouter::built_count() { return routers_built; }

void RtlRouter::receive_flit(int in_port, const Flit& flit, std::uint64_t) {
  model_->put_flit(model_port(in_port), wire::pack(flit));
  activity_.count_write(in_port);
  ++buffered_flits_;
  const std::size_t vc = static_cast<std::size_t>(in_port) * vcs_ + flit.vc;
  ++buffered_per_vc_[vc];
  if (flit.head && held_count_[vc] < kHeldRing)  // (beyond, the RTL reports a buffer overflow)
    held_[vc * kHeldRing + (held_front_[vc] + held_count_[vc]++) % kHeldRing] = {
        flit.tag, flit.dst, flit.route_position < flit.route_length ? flit.route[flit.route_position] : kNoPort};
}

void RtlRouter::receive_credit(int out_port, int vc) {
  model_->add_credit(model_port(out_port), vc);
  ++credits_[static_cast<std::size_t>(out_port) * vcs_ + vc];
}

void RtlRouter::step(std::uint64_t) {
  model_->edge();
  if (probes_enabled_)
    for (auto& p : probes_) p.flit_valid = false;
  // Flits in output-port order (the model's port order is the machine's).
  for (int mp = 0; mp < model_net_ports_ + local_ports_; ++mp) {
    if (mp >= net_ports_ && mp < model_net_ports_) continue;  // network ports this machine does not have
    wire::WireFlit bits;
    if (!model_->flit_out(mp, bits)) continue;
    Flit flit;
    wire::unpack(bits, flit);
    const int out = machine_port(mp);
    ++flits_sent_[out];
    --credits_[static_cast<std::size_t>(out) * vcs_ + flit.vc];
    const std::size_t output_vc = static_cast<std::size_t>(out) * vcs_ + flit.vc;
    if (flit.head) {
      output_owner_[output_vc] = flit.tag;
      // The packet leaves the input VC whose oldest packet it is, found once, at its head.
      std::size_t source = held_count_.size();
      for (std::size_t vc = 0; vc < held_count_.size() && source == held_count_.size(); ++vc)
        if (held_count_[vc] > 0 && held_[vc * kHeldRing + held_front_[vc]].tag == flit.tag) source = vc;
      output_source_[output_vc] = source;
    }
    const std::size_t from = output_source_[output_vc];
    if (from < held_count_.size()) activity_.count_traversal(static_cast<int>(from / static_cast<std::size_t>(vcs_)), out);
    if (flit.tail) {
      output_owner_[output_vc] = -1;
      if (from < held_count_.size()) {  // the packet has left its input VC
        held_front_[from] = static_cast<std::uint8_t>((held_front_[from] + 1) % kHeldRing);
        --held_count_[from];
      }
    }
    if (probes_enabled_) probes_[out].show(flit, env_->packet_source(flit.tag));
    env_->send_flit(node_, out, flit);
  }
  for (int mp = 0; mp < model_net_ports_ + local_ports_; ++mp) {
    int vc;
    if (!model_->credit_out(mp, vc)) continue;
    const int in = machine_port(mp);
    --buffered_flits_;
    --buffered_per_vc_[static_cast<std::size_t>(in) * vcs_ + vc];
    env_->send_credit(node_, in, vc);
  }
  if (const unsigned error = model_->error(); error != 0 && !error_reported_) {
    error_reported_ = true;
    env_->protocol_error("RTL router " + std::to_string(node_) + ":" +
                         std::string(error & 1 ? " buffer overflow (a flit arrived without a credit)" : "") +
                         std::string(error & 2 ? " credit returned beyond the buffer depth" : "") +
                         std::string(error & 4 ? " a body flit reached the front of an idle VC" : ""));
  }
}

std::uint64_t RtlRouter::body_stall_cycles() const { return model_->body_stall_cycles(); }

void RtlRouter::add_to_waveform(VerilatedFstC* file) { model_->trace(file); }

namespace {
std::unique_ptr<VerilatedFstC>& waveform_file() {
  static std::unique_ptr<VerilatedFstC> file;
  return file;
}
}  // namespace

namespace {
bool& waveform_enabled() {
  static bool enabled = false;
  return enabled;
}
}  // namespace

bool RtlWaveform::enabled() { return waveform_enabled(); }

void RtlWaveform::enable() {
  waveform_enabled() = true;
  Verilated::traceEverOn(true);
  rtl_verilator_context().traceEverOn(true);
}

void RtlWaveform::open(const std::string& path, const std::vector<RtlRouter*>& routers) {
  auto& file = waveform_file();
  file = std::make_unique<VerilatedFstC>();
  for (RtlRouter* router : routers) router->add_to_waveform(file.get());
  file->set_time_unit("1ns");
  file->set_time_resolution("1ns");
  file->open(path.c_str());
}

void RtlWaveform::dump(std::uint64_t cycle) {
  if (auto& file = waveform_file()) file->dump(cycle);
}

void RtlWaveform::close() {
  if (auto& file = waveform_file()) {
    file->close();
    file.reset();
  }
}

// From the model's ports alone: the front packet of each occupied input VC (what the machine put in),
// the output VC it holds (its head left on it, its tail not yet) with the credits there, or, for a packet
// whose head is still waiting, the port it heads for and the packets holding that port's VCs.
std::vector<std::string> RtlRouter::describe_blocked(std::uint64_t) const {
  std::vector<std::string> lines;
  auto packet = [&](std::int64_t tag) {
    return "packet tag " + std::to_string(tag) + " from node " +
           std::to_string(env_->packet_source(static_cast<std::uint32_t>(tag)));
  };
  for (int in = 0; in < num_ports(); ++in)
    for (int v = 0; v < vcs_; ++v) {
      const std::size_t vc = static_cast<std::size_t>(in) * vcs_ + v;
      const int n = buffered_per_vc_[vc];
      if (n == 0) continue;
      std::string line = "RTL router " + std::to_string(node_) + " " + topology_.coordinates_text(node_) + " in " +
                         port_name(topology_, in) + " vc " + std::to_string(v) + ": " + std::to_string(n) + " flit(s)";
      if (held_count_[vc] == 0) {  // (only after a protocol error: body flits without their head)
        lines.push_back(line);
        continue;
      }
      const HeldPacket& front = held_[vc * kHeldRing + held_front_[vc]];
      line += " of " + packet(front.tag);
      const auto held = std::find(output_owner_.begin(), output_owner_.end(), front.tag);
      if (held != output_owner_.end()) {
        const std::size_t k = static_cast<std::size_t>(held - output_owner_.begin());
        line += (credits_[k] == 0 ? " waits for a credit on out " : " holds out ") +
                port_name(topology_, static_cast<int>(k) / vcs_) + " vc " + std::to_string(k % vcs_) +
                " (credits " + std::to_string(credits_[k]) + ")";
      } else {
        line += " to node " + std::to_string(front.dst);
        const int out = front.next_route_entry != kNoPort ? front.next_route_entry
                        : front.dst == node_             ? -1
                                                         : routing_(topology_, node_, front.dst);
        if (out < 0) {
          line += ", to be ejected";
        } else {
          line += ", head for out " + port_name(topology_, out) + " (its VCs:";
          for (int w = 0; w < vcs_; ++w) {
            const std::int64_t owner = output_owner_[static_cast<std::size_t>(out) * vcs_ + w];
            line += owner < 0 ? " free" : " held by " + packet(owner);
            line += w + 1 < vcs_ ? "," : ")";
          }
        }
      }
      lines.push_back(line);
    }
  return lines;
}

RouterModelDescription verilated_router_description(const std::string& name, const std::string& routers,
                                                    RouterModelFactory make) {
  RouterModelDescription d;
  d.name = name;
  d.routers = routers;
  d.make = std::move(make);
  d.unsupported = [name](const Topology& topology, const RouterParams& params,
                         PortModel port_model) -> std::optional<std::string> {
    if (auto why = RtlRouter::unsupported(topology, params, port_model))
      return std::string(ConfigError("router.model", name, *why).what());
    return std::nullopt;
  };
  d.verilated = true;
  return d;
}

namespace {

// The RTL router of rtl/, verilated.
RouterModelDescription rtl_router_description() {
  return verilated_router_description<RtlRouter>("rtl", "verilated RTL routers");
}

const RouterModelRegistration kRegistration{20, rtl_router_description};

}  // namespace

}  // namespace meshmp
