// A verilated RTL router configuration (a class Verilator generates from rtl/, its ports fixed by the
// configuration's parameters) behind the adapter's interface, RtlModelPort: the model's ports packed and
// unpacked in the layout rtl/meshmp_router.sv gives them. Included only where a verilated model's header is:
// hw/router/rtl_router.cpp (the built matrix) and the tests' checked configuration (tests/rtl_checked_model.cpp).
// Verilator's headers stay out of every other file (they pull systemc.h's names into the global namespace).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "hw/router/flit_wire.h"
#include "hw/router/rtl_model_port.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace meshmp {

// The one Verilator context of the program's RTL routers (hw/router/rtl_router.cpp): its random-reset
// settings are the power-on state of the next model built.
VerilatedContext& rtl_verilator_context();

namespace verilated {

// The model's port layout (rtl/meshmp_flit_pkg.sv, rtl/meshmp_router_pkg.sv).
constexpr int kFlitBits = wire::kWireBits;
constexpr int kFlitStride = 352;  // a flit's place on the port buses (FLIT_STRIDE)
static_assert(kFlitStride % 32 == 0 && kFlitStride >= kFlitBits);
constexpr int kDimensionBits = wire::kRingDimensionBits;  // cfg_port_dimension, per network port
constexpr int kCreditReturnBits = 4;                       // credit_in, per output VC (CREDIT_RETURN_BITS)
constexpr int kVcBits = wire::kVcBits;                     // credit_out_vc, per input port

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

// The verilated router `Model` of kPorts ports and kVcs VCs behind RtlModelPort.
template <class Model, int kPorts, int kVcs>
class VerilatedRouter final : public RtlModelPort {
 public:
  explicit VerilatedRouter(const std::string& name) : model_(&rtl_verilator_context(), name.c_str()) {
    // The inputs are driven by the machine, not powered up: nothing arrives until it sends something.
    clear(model_.flit_in);
    clear(model_.credit_in);
    model_.table_write = 0;
    // The clock rests high between cycles: a cycle is a falling edge (returned credits are taken, the
    // allocators decide) and a rising edge (everything else).
    model_.clk = 1;
    model_.rst = 1;
    model_.eval();
  }
  ~VerilatedRouter() override { model_.final(); }

  // The model itself, for a test's straps beyond the adapter's (the checked configuration's test_fault),
  // set before the reset edges.
  Model& model() { return model_; }

  void set_straps(const Straps& s) override {
    model_.cfg_pipeline_depth = static_cast<CData>(s.pipeline_depth);
    model_.cfg_switching = static_cast<CData>(s.switching);
    model_.cfg_buffer_flits = static_cast<CData>(s.buffer_flits);
    model_.cfg_dateline = s.dateline;
    model_.cfg_all_port = s.all_port;
    model_.cfg_exclusive_ejection = s.exclusive_ejection;
    model_.cfg_trace_decisions = s.trace_decisions;
    model_.cfg_adaptive = s.adaptive;
    model_.cfg_selection = s.most_credits;
    model_.cfg_escape_vcs = static_cast<CData>(s.escape_vcs);
    model_.cfg_column = static_cast<SData>(s.column);
    for (std::size_t p = 0; p < s.port_dimension.size(); ++p) {
      put_bits(model_.cfg_port_dimension, static_cast<int>(p) * kDimensionBits, kDimensionBits,
               static_cast<std::uint64_t>(s.port_dimension[p]));
      put_bits(model_.cfg_port_ring, static_cast<int>(p), 1, s.port_ring[p]);
      put_bits(model_.cfg_port_dateline, static_cast<int>(p), 1, s.port_dateline[p]);
    }
  }
  void reset_edge(int table_address, int table_port, const TableChoices& choices) override {
    model_.rst = 1;
    model_.table_write = 1;
    model_.table_address = static_cast<SData>(table_address);
    model_.table_port = static_cast<CData>(table_port);
    // meshmp_route_compute's layout: the count, then per entry port, VC range, escape, source's column only.
    constexpr int kCountBits = 3, kEntryBits = wire::kRouteEntryBits + 2 * wire::kVcBits + 2;
    put_bits(model_.table_choices, 0, kCountBits, static_cast<std::uint64_t>(choices.count));
    for (int k = 0; k < kTableChoices; ++k) {
      const TableChoice& c = choices.entries[k];
      const int at = kCountBits + k * kEntryBits;
      put_bits(model_.table_choices, at, wire::kRouteEntryBits, static_cast<std::uint64_t>(c.port));
      put_bits(model_.table_choices, at + wire::kRouteEntryBits, wire::kVcBits, static_cast<std::uint64_t>(c.vc_begin));
      put_bits(model_.table_choices, at + wire::kRouteEntryBits + wire::kVcBits, wire::kVcBits,
               static_cast<std::uint64_t>(c.vc_end));
      put_bits(model_.table_choices, at + wire::kRouteEntryBits + 2 * wire::kVcBits, 1, c.escape);
      put_bits(model_.table_choices, at + wire::kRouteEntryBits + 2 * wire::kVcBits + 1, 1, c.source_column_only);
    }
    model_.clk = 0;
    model_.eval();
    model_.clk = 1;
    model_.eval();
    model_.table_write = 0;
    model_.rst = 0;
  }
  void put_flit(int port, const wire::WireFlit& bits) override {
    verilated::put_flit(model_.flit_in, port * kFlitStride, bits);
    inputs_set_ = true;
  }
  void add_credit(int port, int vc) override {
    const int first = (port * kVcs + vc) * kCreditReturnBits;
    put_bits(model_.credit_in, first, kCreditReturnBits, get_bits(model_.credit_in, first, kCreditReturnBits) + 1);
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
    vc = static_cast<int>(get_bits(model_.credit_out_vc, port * kVcBits, kVcBits));
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

// A configuration of the verilated router `Model`.
template <class Model, int kPorts, int kNetPorts, int kVcs>
RtlModelConfiguration configuration(const std::string& name) {
  return {name, kPorts, kNetPorts, kVcs, [](const std::string& instance) -> std::unique_ptr<RtlModelPort> {
            return std::make_unique<VerilatedRouter<Model, kPorts, kVcs>>(instance);
          }};
}

}  // namespace verilated
}  // namespace meshmp
