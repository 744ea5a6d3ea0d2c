// The `rtl` router model: the verilated RTL router behind the router seam. See rtl_router.h.
#include "hw/router/rtl_router.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "hw/router/flit_wire.h"
#include "topology/config_error.h"

// Verilator's headers stay in this file (they pull systemc.h's names into the global namespace).
#include "verilated.h"
#include "verilated_fst_c.h"
#include "Vmeshmp_router_p5v2.h"
#include "Vmeshmp_router_p5v4.h"
#include "Vmeshmp_router_p7v4.h"
#include "Vmeshmp_router_p8v4.h"

namespace meshmp {

namespace {

constexpr int kMaxBuffer = 8;       // MAX_BUFFER of the built configurations
constexpr int kTableBits = 12;      // TABLE_BITS: up to 4096 destinations
constexpr int kFlitBits = wire::kWireBits;
constexpr int kFlitStride = 352;  // a flit's place on the model's port buses (rtl/meshmp_flit_pkg.sv, FLIT_STRIDE)
static_assert(kFlitStride % 32 == 0 && kFlitStride >= kFlitBits);

// Bit access to a verilated port of any width: scalars (CData..QData) and wide words (VlWide: 32-bit words,
// bit i in word i / 32). Up to 64 bits at a time, touching at most three words.
template <class T>
void put_bits(T& field, int first, int width, std::uint64_t value) {
  const std::uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
  value &= mask;
  if constexpr (std::is_integral_v<T>) {
    field = static_cast<T>((static_cast<std::uint64_t>(field) & ~(mask << first)) | (value << first));
  } else {
    for (int done = 0; done < width;) {
      const int word = (first + done) / 32, shift = (first + done) % 32;
      const int take = std::min(32 - shift, width - done);
      const std::uint32_t part_mask = static_cast<std::uint32_t>(((1ull << take) - 1) << shift);
      field[word] = (field[word] & ~part_mask) | (static_cast<std::uint32_t>((value >> done) << shift) & part_mask);
      done += take;
    }
  }
}

template <class T>
std::uint64_t get_bits(const T& field, int first, int width) {
  const std::uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
  if constexpr (std::is_integral_v<T>) {
    return (static_cast<std::uint64_t>(field) >> first) & mask;
  } else {
    std::uint64_t value = 0;
    for (int done = 0; done < width;) {
      const int word = (first + done) / 32, shift = (first + done) % 32;
      const int take = std::min(32 - shift, width - done);
      value |= static_cast<std::uint64_t>((field[word] >> shift) & static_cast<std::uint32_t>((1ull << take) - 1)) << done;
      done += take;
    }
    return value & mask;
  }
}

// Copies a flit's wire bits into / out of a wide port whose flit starts on a 32-bit word (`first` is a
// multiple of kFlitStride): whole words, the last one masked to the flit's bits.
constexpr int kFlitWords32 = (kFlitBits + 31) / 32;
constexpr std::uint32_t kLastWordMask =
    kFlitBits % 32 == 0 ? ~0u : static_cast<std::uint32_t>((1ull << (kFlitBits % 32)) - 1);

template <class Wide>
void put_flit(Wide& port, int first, const wire::WireFlit& bits) {
  std::uint32_t* word = &port[first / 32];
  for (int k = 0; k < kFlitWords32; ++k) word[k] = static_cast<std::uint32_t>(bits[k / 2] >> (32 * (k % 2)));
  word[kFlitWords32 - 1] &= kLastWordMask;
}

template <class Wide>
wire::WireFlit get_flit(const Wide& port, int first) {
  wire::WireFlit bits{};
  const std::uint32_t* word = &port[first / 32];
  for (int k = 0; k < kFlitWords32; ++k) {
    const std::uint32_t w = k == kFlitWords32 - 1 ? word[k] & kLastWordMask : word[k];
    bits[k / 2] |= static_cast<std::uint64_t>(w) << (32 * (k % 2));
  }
  return bits;
}

VerilatedContext& verilator_context() {
  static VerilatedContext context;
  return context;
}

}  // namespace

// What the adapter needs of a verilated router, whatever its configuration.
class RtlModelPort {
 public:
  virtual ~RtlModelPort() = default;
  struct Straps {
    int pipeline_depth, switching, buffer_flits, test_fault;
    bool dateline, all_port, exclusive_ejection, trace_decisions;
    std::vector<int> port_dimension;
    std::vector<bool> port_ring, port_dateline;
  };
  virtual void set_straps(const Straps& straps) = 0;
  // One reset edge, writing one routing-table entry.
  virtual void reset_edge(int table_address, int table_port) = 0;
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

namespace {

template <class Model, int kPorts, int kVcs>
class VerilatedRouter final : public RtlModelPort {
 public:
  explicit VerilatedRouter(const std::string& name) : model_(&verilator_context(), name.c_str()) {
    // The inputs are driven by the machine, not powered up: nothing arrives until it sends something.
    clear(model_.flit_in);
    clear(model_.credit_in);
    model_.table_write = 0;
    model_.test_fault = 0;
    // The clock rests high between cycles: a cycle is a falling edge (returned credits are taken, the
    // allocators decide) and a rising edge (everything else).
    model_.clk = 1;
    model_.rst = 1;
    model_.eval();
  }
  ~VerilatedRouter() override { model_.final(); }

  void set_straps(const Straps& s) override {
    model_.cfg_pipeline_depth = static_cast<CData>(s.pipeline_depth);
    model_.cfg_switching = static_cast<CData>(s.switching);
    model_.cfg_buffer_flits = static_cast<CData>(s.buffer_flits);
    model_.cfg_dateline = s.dateline;
    model_.cfg_all_port = s.all_port;
    model_.cfg_exclusive_ejection = s.exclusive_ejection;
    model_.cfg_trace_decisions = s.trace_decisions;
    model_.test_fault = static_cast<CData>(s.test_fault);
    for (std::size_t p = 0; p < s.port_dimension.size(); ++p) {
      put_bits(model_.cfg_port_dimension, static_cast<int>(p) * 5, 5, static_cast<std::uint64_t>(s.port_dimension[p]));
      put_bits(model_.cfg_port_ring, static_cast<int>(p), 1, s.port_ring[p]);
      put_bits(model_.cfg_port_dateline, static_cast<int>(p), 1, s.port_dateline[p]);
    }
  }
  void reset_edge(int table_address, int table_port) override {
    model_.rst = 1;
    model_.table_write = 1;
    model_.table_address = static_cast<SData>(table_address);
    model_.table_port = static_cast<CData>(table_port);
    model_.clk = 0;
    model_.eval();
    model_.clk = 1;
    model_.eval();
    model_.table_write = 0;
    model_.rst = 0;
  }
  void put_flit(int port, const wire::WireFlit& bits) override {
    ::meshmp::put_flit(model_.flit_in, port * kFlitStride, bits);
    inputs_set_ = true;
  }
  void add_credit(int port, int vc) override {
    const int first = (port * kVcs + vc) * 4;
    put_bits(model_.credit_in, first, 4, get_bits(model_.credit_in, first, 4) + 1);
    inputs_set_ = true;
  }
  void edge() override {
    model_.clk = 0;
    model_.eval();
    model_.clk = 1;
    model_.eval();
    if (inputs_set_) {
      std::memset(model_.flit_in.data(), 0, sizeof(model_.flit_in));
      clear(model_.credit_in);
      inputs_set_ = false;
    }
  }
  bool flit_out(int port, wire::WireFlit& bits) const override {
    if (!get_bits(model_.flit_out, port * kFlitStride + wire::kValid, 1)) return false;
    bits = get_flit(model_.flit_out, port * kFlitStride);
    return true;
  }
  bool credit_out(int port, int& vc) const override {
    if (!get_bits(model_.credit_out_valid, port, 1)) return false;
    vc = static_cast<int>(get_bits(model_.credit_out_vc, port * 4, 4));
    return true;
  }
  std::uint64_t body_stall_cycles() const override { return model_.body_stall_cycles; }
  unsigned error() const override { return model_.error; }
  void trace(VerilatedFstC* file) override { model_.trace(file, 99); }

 private:
  template <class T>
  static void clear(T& field) {
    if constexpr (std::is_integral_v<T>) field = 0;
    else std::memset(field.data(), 0, sizeof(field));
  }
  mutable Model model_;
  bool inputs_set_ = false;
};

struct BuiltConfiguration {
  const char* name;
  int ports;
  int net_ports;
  int vcs;
  std::unique_ptr<RtlModelPort> (*make)(const std::string& name);
};

template <class Model, int kPorts, int kVcs>
std::unique_ptr<RtlModelPort> make_model(const std::string& name) {
  return std::make_unique<VerilatedRouter<Model, kPorts, kVcs>>(name);
}

// The matrix (rtl/CMakeLists.txt), smallest first.
const BuiltConfiguration kBuilt[] = {
    {"p5v2: 4 network + 1 local ports, 2 VCs", 5, 4, 2, &make_model<Vmeshmp_router_p5v2, 5, 2>},
    {"p5v4: 4 network + 1 local ports, 4 VCs", 5, 4, 4, &make_model<Vmeshmp_router_p5v4, 5, 4>},
    {"p7v4: 6 network + 1 local ports, 4 VCs", 7, 6, 4, &make_model<Vmeshmp_router_p7v4, 7, 4>},
    {"p8v4: 4 network + 4 local ports, 4 VCs", 8, 4, 4, &make_model<Vmeshmp_router_p8v4, 8, 4>},
};

const BuiltConfiguration* find_configuration(const Topology& topology, const RouterParams& params,
                                             PortModel port_model) {
  const int net = topology.num_ports();
  const int local = port_model == PortModel::AllPort ? net : 1;
  for (const auto& c : kBuilt)
    if (c.vcs == params.vcs && c.net_ports >= net && c.ports - c.net_ports >= local) return &c;
  return nullptr;
}

}  // namespace

std::optional<std::string> RtlRouter::unsupported(const Topology& topology, const RouterParams& params,
                                                  PortModel port_model) {
  auto refuse = [](const std::string& why) {
    std::string built;
    for (const auto& c : kBuilt) built += std::string("; ") + c.name;
    return std::optional<std::string>(why + " (RTL configurations built, each with up to " +
                                      std::to_string(kMaxBuffer) + " flits per VC and " +
                                      std::to_string(1 << kTableBits) + " nodes" + built + ")");
  };
  if (params.buffer_flits > kMaxBuffer)
    return refuse("router.buffer_flits = " + std::to_string(params.buffer_flits) + " exceeds the RTL buffers");
  if (topology.num_nodes() > (1 << kTableBits))
    return refuse(std::to_string(topology.num_nodes()) + " nodes exceed the RTL routing table");
  if (!find_configuration(topology, params, port_model))
    return refuse("no RTL router with " + std::to_string(params.vcs) + " VCs, " +
                  std::to_string(topology.num_ports()) + " network ports and " +
                  std::to_string(port_model == PortModel::AllPort ? topology.num_ports() : 1) + " local ports");
  return std::nullopt;
}

RtlRouter::RtlRouter(int node, const Topology& topology, const RouterParams& params, PortModel port_model,
                     RoutingFunction routing, RouterEnvironment* environment, int test_fault)
    : node_(node),
      topology_(topology),
      routing_(routing),
      env_(environment),
      net_ports_(topology.num_ports()),
      local_ports_(port_model == PortModel::AllPort ? topology.num_ports() : 1),
      vcs_(params.vcs) {
  if (auto why = unsupported(topology, params, port_model)) throw ConfigError("router.model", "rtl", *why);
  const BuiltConfiguration& c = *find_configuration(topology, params, port_model);
  model_net_ports_ = c.net_ports;
  // The power-on state: Verilator draws every register and memory (--x-initial unique) when the model is
  // built, all 0 or at random from a seed of this router's own.
  VerilatedContext& context = verilator_context();
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
  straps.test_fault = test_fault;
  straps.dateline = params.dateline;
  straps.all_port = port_model == PortModel::AllPort;
  straps.exclusive_ejection = params.exclusive_ejection;
  straps.trace_decisions = RtlWaveform::enabled();
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
    model_->reset_edge(dst, port < 0 ? 0xff : port);
  }
  buffered_per_vc_.assign(static_cast<std::size_t>(num_ports()) * vcs_, 0);
  held_.resize(static_cast<std::size_t>(num_ports()) * vcs_ * kHeldRing);
  held_front_.assign(static_cast<std::size_t>(num_ports()) * vcs_, 0);
  held_count_.assign(static_cast<std::size_t>(num_ports()) * vcs_, 0);
  output_owner_.assign(static_cast<std::size_t>(num_ports()) * vcs_, -1);
  flits_sent_.assign(num_ports(), 0);
  credits_.assign(static_cast<std::size_t>(num_ports()) * vcs_, params.buffer_flits);
  probes_.resize(num_ports());
}

RtlRouter::~RtlRouter() = default;

void RtlRouter::receive_flit(int in_port, const Flit& flit, std::uint64_t) {
  model_->put_flit(model_port(in_port), wire::pack(flit));
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
    if (flit.head) output_owner_[static_cast<std::size_t>(out) * vcs_ + flit.vc] = flit.tag;
    if (flit.tail) {
      output_owner_[static_cast<std::size_t>(out) * vcs_ + flit.vc] = -1;
      // The packet has left its input VC: the one whose oldest packet it is.
      for (std::size_t vc = 0; vc < held_count_.size(); ++vc)
        if (held_count_[vc] > 0 && held_[vc * kHeldRing + held_front_[vc]].tag == flit.tag) {
          held_front_[vc] = static_cast<std::uint8_t>((held_front_[vc] + 1) % kHeldRing);
          --held_count_[vc];
          break;
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
  verilator_context().traceEverOn(true);
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
  return verilated_router_description(
      "rtl", "verilated RTL routers",
      [](int node, const Topology& topology, const RouterParams& params, PortModel port_model, RoutingFunction routing,
         RouterEnvironment* environment) -> std::unique_ptr<RouterModel> {
        return std::make_unique<RtlRouter>(node, topology, params, port_model, routing, environment);
      });
}

const RouterModelRegistration kRegistration{20, rtl_router_description};

}  // namespace

}  // namespace meshmp
