// Lockstep co-verification of the RTL router (rtl/, verilated, hw/router/rtl_router.h) against the SystemC router
// (hw/router/router.h), each alone: the same random multi-VC flit stimulus with random downstream credit stalls
// drives both, and every cycle their outputs must be the same (same flits, bit for bit on the wire, on the
// same ports, the same credits upstream). The first difference fails the test naming the cycle, port and
// both values. A third, verilated router evaluated only in the cycles the network would step it (it holds
// flits, or a flit or a credit arrives) must match the one evaluated every cycle: skipping is safe. Each
// configuration runs three stimulus seeds, the verilated routers powering up at 0 for the first and at
// random values (a different state for each of the two) for the others: the reset must be complete.
// Bugs injected into the checked RTL configuration (tests/rtl_checked_model.h) must be caught: by the
// lockstep comparison, or by the router's assertions, which stop the model (RtlAssertions).
// MESHMP_LOCKSTEP_TRACE=1 prints every cycle's inputs, the SystemC router's VC states and both outputs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <sstream>

#include "hw/router/dual_router.h"
#include "hw/router/flit_wire.h"
#include "hw/router/router.h"
#include "hw/router/rtl_router.h"
#include "rtl_checked_model.h"

namespace meshmp {
namespace {

struct Recorder : RouterEnvironment {
  std::vector<std::pair<int, Flit>> flits;
  std::vector<std::pair<int, int>> credits;
  std::vector<std::string> errors;
  void send_flit(int, int out_port, const Flit& flit) override { flits.emplace_back(out_port, flit); }
  void send_credit(int, int in_port, int vc) override { credits.emplace_back(in_port, vc); }
  int packet_source(std::uint32_t) const override { return 0; }
  void protocol_error(const std::string& what) override { errors.push_back(what); }
};

std::string describe(const Flit& f) {
  std::ostringstream out;
  out << (f.head ? "head" : "body") << (f.tail ? "+tail" : "") << " vc " << int(f.vc) << " tag " << f.tag;
  if (f.head) out << " dst " << f.dst << " class " << int(f.vc_class) << " ring " << int(f.ring_dimension);
  return out.str();
}

struct Case {
  std::string topology;
  int node;
  SwitchingMode switching;
  int pipeline_depth;
  int vcs;
  PortModel port_model;
  std::uint64_t seed;
  RtlFault fault = RtlFault::None;  // a bug injected into the checked RTL configuration
  // The verilated routers' power-on state (RouterParams::rtl_power_on_seed): 0 all zero; otherwise the
  // router evaluated every cycle powers up from this seed and the one evaluated lazily from the next.
  std::uint32_t power_on_seed = 0;
  // The verilated routers are the checked configuration (assertions on), also without a fault.
  bool checked = false;
};

// Runs the stimulus through both routers; returns the first difference ("cycle N: ..."), or "" when they
// agree in every cycle.
std::string run_lockstep(const Case& c) {
  const Topology topology = Topology::parse(c.topology);
  RouterParams params;
  params.vcs = c.vcs;
  params.buffer_flits = c.switching == SwitchingMode::Wormhole ? 4 : 8;
  params.pipeline_depth = c.pipeline_depth;
  params.switching = c.switching;
  params.max_packet_payload_flits = c.switching == SwitchingMode::Wormhole ? 5 : 7;
  if (auto error = params.validate(topology)) return "bad case: " + *error;
  Recorder cpp_out, rtl_out, lazy_out;
  Router cpp(c.node, topology, params, c.port_model, &dimension_order_port, &cpp_out);
  RouterParams rtl_params = params, lazy_params = params;
  rtl_params.rtl_power_on_seed = c.power_on_seed;
  lazy_params.rtl_power_on_seed = c.power_on_seed == 0 ? 0 : c.power_on_seed + 1;
  std::optional<RtlModelConfiguration> checked;
  if (c.checked || c.fault != RtlFault::None) checked = checked_rtl_model(c.fault);
  const RtlModelConfiguration* rtl_model = checked ? &*checked : nullptr;
  RtlRouter rtl(c.node, topology, rtl_params, c.port_model, &dimension_order_port, &rtl_out, rtl_model);
  // Evaluated only in cycles where it holds flits or receives a flit or a credit, as the network steps it.
  RtlRouter lazy(c.node, topology, lazy_params, c.port_model, &dimension_order_port, &lazy_out, rtl_model);
  const int ports = cpp.num_ports();
  const int net_ports = topology.num_ports();
  std::mt19937_64 rng(c.seed);

  // Upstream: per (input port, VC) packets kept whole, as an upstream router sends them, with credits.
  std::vector<std::vector<std::deque<Flit>>> pending(ports, std::vector<std::deque<Flit>>(params.vcs));
  std::vector<std::vector<int>> upstream_credits(ports, std::vector<int>(params.vcs, params.buffer_flits));
  std::uint32_t tag = 1;
  std::uint64_t offered = 0;
  for (int in = 0; in < ports; ++in)
    for (int v = 0; v < params.vcs; ++v)
      for (int k = 0; k < 60; ++k) {
        int dst;
        do dst = static_cast<int>(rng() % topology.num_nodes());
        while (in >= net_ports && dst == c.node);
        // A packet arriving on a network port of a torus comes from a router before this one: its dateline
        // class is whatever the RTL and the SystemC router must both carry on; draw it.
        const int payload = static_cast<int>(rng() % (params.max_packet_payload_flits + 1));
        for (int f = 0; f <= payload; ++f) {
          Flit flit;
          flit.head = f == 0;
          flit.tail = f == payload;
          flit.vc = static_cast<std::uint8_t>(v);
          flit.tag = tag;
          if (flit.head) {
            flit.dst = dst;
            flit.packet_flits = static_cast<std::uint16_t>(payload + 1);
            if (in < net_ports) {
              flit.ring_dimension = static_cast<std::uint8_t>(topology.port(in).dimension);
              flit.vc_class = static_cast<std::uint8_t>(v >= params.vcs / 2 ? 1 : 0);
            }
          } else {
            flit.payload_bytes = static_cast<std::uint16_t>(1 + rng() % 8);
            for (int b = 0; b < flit.payload_bytes; ++b) flit.data[b] = static_cast<std::uint8_t>(rng());
          }
          pending[in][v].push_back(flit);
          ++offered;
        }
        ++tag;
      }

  std::multimap<std::uint64_t, std::pair<int, int>> credit_returns;  // downstream, 1..6 cycles later
  std::uint64_t delivered = 0;
  for (std::uint64_t cycle = 1; cycle < 30000 && delivered < offered; ++cycle) {
    bool lazy_has_input = false;
    for (auto it = credit_returns.begin(); it != credit_returns.end() && it->first <= cycle;) {
      if (std::getenv("MESHMP_LOCKSTEP_TRACE"))
        std::printf("  credit in: out %d vc %d\n", it->second.first, it->second.second);
      cpp.receive_credit(it->second.first, it->second.second);
      rtl.receive_credit(it->second.first, it->second.second);
      lazy.receive_credit(it->second.first, it->second.second);
      lazy_has_input = true;
      it = credit_returns.erase(it);
    }
    for (int in = 0; in < ports; ++in) {
      if (rng() % 4 == 0) continue;  // idle input cycles
      const int start = static_cast<int>(rng() % params.vcs);
      for (int k = 0; k < params.vcs; ++k) {
        const int v = (start + k) % params.vcs;
        if (pending[in][v].empty() || upstream_credits[in][v] == 0) continue;
        if (std::getenv("MESHMP_LOCKSTEP_TRACE"))
          std::printf("  flit in: port %d %s\n", in, describe(pending[in][v].front()).c_str());
        cpp.receive_flit(in, pending[in][v].front(), cycle);
        rtl.receive_flit(in, pending[in][v].front(), cycle);
        lazy.receive_flit(in, pending[in][v].front(), cycle);
        lazy_has_input = true;
        pending[in][v].pop_front();
        --upstream_credits[in][v];
        break;
      }
    }
    if (std::getenv("MESHMP_LOCKSTEP_TRACE"))
      for (int in = 0; in < ports; ++in)
        for (int v = 0; v < params.vcs; ++v) {
          const InputVirtualChannel& q = cpp.input(in).vc(v);
          if (q.count == 0) continue;
          std::printf("  state in %d vc %d: count %d front tag %u %s age %d state %d out %d/%d credits %d\n", in, v, q.count,
                      q.front_flit().tag, q.front_flit().head ? "head" : "body", cpp.input(in).front_age(v),
                      static_cast<int>(q.state), q.out_port, q.out_vc,
                      q.out_port >= 0 ? cpp.output(q.out_port).credits(std::max(q.out_vc, 0)) : -1);
        }
    cpp_out.flits.clear();
    cpp_out.credits.clear();
    rtl_out.flits.clear();
    rtl_out.credits.clear();
    lazy_out.flits.clear();
    lazy_out.credits.clear();
    // Both are stepped every cycle here (the RTL evaluated every cycle: the reference for skipping).
    cpp.step(cycle);
    rtl.step(cycle);
    if (lazy_has_input || lazy.buffered_flits() > 0) lazy.step(cycle);
    const std::string at = "cycle " + std::to_string(cycle) + ": ";
    if (!cpp_out.errors.empty()) return at + "SystemC router: " + cpp_out.errors.front();
    if (!rtl_out.errors.empty()) return at + "RTL router: " + rtl_out.errors.front();
    if (std::getenv("MESHMP_LOCKSTEP_TRACE")) {
      std::printf("cycle %llu\n", static_cast<unsigned long long>(cycle));
      for (auto& [p, f] : cpp_out.flits) std::printf("  cpp port %d %s\n", p, describe(f).c_str());
      for (auto& [p, f] : rtl_out.flits) std::printf("  rtl port %d %s\n", p, describe(f).c_str());
    }
    const std::size_t n = std::max(cpp_out.flits.size(), rtl_out.flits.size());
    for (std::size_t k = 0; k < n; ++k) {
      const std::string want = k < cpp_out.flits.size() ? "port " + std::to_string(cpp_out.flits[k].first) + " " +
                                                              describe(cpp_out.flits[k].second)
                                                        : "nothing";
      const std::string got = k < rtl_out.flits.size() ? "port " + std::to_string(rtl_out.flits[k].first) + " " +
                                                             describe(rtl_out.flits[k].second)
                                                       : "nothing";
      if (got != want) return at + "flit " + std::to_string(k) + ": SystemC " + want + ", RTL " + got;
      if (wire::pack(cpp_out.flits[k].second) != wire::pack(rtl_out.flits[k].second))
        return at + "the wire bits differ on port " + std::to_string(cpp_out.flits[k].first);
    }
    // Credits of one cycle all take effect at the same edge upstream: compared as a set.
    std::sort(cpp_out.credits.begin(), cpp_out.credits.end());
    std::sort(rtl_out.credits.begin(), rtl_out.credits.end());
    if (rtl_out.credits != cpp_out.credits) return at + "the credits sent upstream differ";
    for (const auto& [in, v] : cpp_out.credits) ++upstream_credits[in][v];
    for (const auto& [out, flit] : cpp_out.flits) {
      ++delivered;
      credit_returns.emplace(cycle + 1 + rng() % 6, std::make_pair(out, static_cast<int>(flit.vc)));
    }
    if (rtl.body_stall_cycles() != cpp.body_stall_cycles()) return at + "the body-stall counters differ";
    std::sort(lazy_out.credits.begin(), lazy_out.credits.end());
    if (lazy_out.credits != rtl_out.credits) return at + "skipping idle cycles changed the credits";
    if (lazy_out.flits.size() != rtl_out.flits.size()) return at + "skipping idle cycles changed the flits";
    for (std::size_t k = 0; k < lazy_out.flits.size(); ++k)
      if (lazy_out.flits[k].first != rtl_out.flits[k].first ||
          wire::pack(lazy_out.flits[k].second) != wire::pack(rtl_out.flits[k].second))
        return at + "skipping idle cycles changed a flit";
  }
  if (delivered != offered)
    return std::to_string(offered - delivered) + " of " + std::to_string(offered) + " flits never left";
  return "";
}

// Three stimulus seeds from c.seed: the first with the verilated routers powered up at 0, the others at
// random. Returns the first difference, naming the seed and the power-on state.
std::string run_lockstep_seeds(Case c) {
  const std::uint64_t first_seed = c.seed;
  for (int k = 0; k < 3; ++k) {
    c.seed = first_seed + 1000 * k;
    c.power_on_seed = k == 0 ? 0 : static_cast<std::uint32_t>(c.seed);
    if (std::string difference = run_lockstep(c); !difference.empty())
      return "stimulus seed " + std::to_string(c.seed) + ", power-on " +
             (c.power_on_seed == 0 ? std::string("zero") : "seed " + std::to_string(c.power_on_seed)) + ": " +
             difference;
  }
  return "";
}

TEST(RtlLockstep, MeshInteriorWormhole) { EXPECT_EQ(run_lockstep_seeds({"mesh:4x4", 5, SwitchingMode::Wormhole, 2, 4, PortModel::OnePort, 1}), ""); }
TEST(RtlLockstep, MeshCornerFourStages) { EXPECT_EQ(run_lockstep_seeds({"mesh:4x4", 0, SwitchingMode::Wormhole, 4, 4, PortModel::OnePort, 2}), ""); }
TEST(RtlLockstep, TorusDatelineOneStage) { EXPECT_EQ(run_lockstep_seeds({"torus:4x4", 3, SwitchingMode::Wormhole, 1, 4, PortModel::OnePort, 3}), ""); }
TEST(RtlLockstep, TorusTwoVcs) { EXPECT_EQ(run_lockstep_seeds({"torus:5x3", 4, SwitchingMode::Wormhole, 3, 2, PortModel::OnePort, 4}), ""); }
TEST(RtlLockstep, StoreAndForward) { EXPECT_EQ(run_lockstep_seeds({"torus:4x4", 6, SwitchingMode::StoreAndForward, 2, 4, PortModel::OnePort, 5}), ""); }
TEST(RtlLockstep, CutThrough) { EXPECT_EQ(run_lockstep_seeds({"mesh:3x3", 4, SwitchingMode::VirtualCutThrough, 3, 4, PortModel::OnePort, 6}), ""); }
TEST(RtlLockstep, Hypercube) { EXPECT_EQ(run_lockstep_seeds({"hypercube:6", 9, SwitchingMode::Wormhole, 2, 4, PortModel::OnePort, 7}), ""); }
TEST(RtlLockstep, TorusThreeDimensions) { EXPECT_EQ(run_lockstep_seeds({"torus:3x3x3", 13, SwitchingMode::Wormhole, 2, 4, PortModel::OnePort, 8}), ""); }
TEST(RtlLockstep, AllPort) { EXPECT_EQ(run_lockstep_seeds({"torus:4x4", 5, SwitchingMode::Wormhole, 2, 4, PortModel::AllPort, 9}), ""); }

// Death tests: each in a fresh process that runs the test up to its death statement (the "threadsafe"
// style: this program has a second thread), there with the standard output on the standard error, which
// the death test matches (Verilator prints a failed assertion on the standard output).
void run_death_tests_in_fresh_processes() { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
void assertion_messages_to_stderr() {
  std::fflush(stdout);
  dup2(STDERR_FILENO, STDOUT_FILENO);
}

// The comparison can fail: a bug injected into the RTL is caught, naming the cycle.
TEST(RtlLockstep, CatchesADroppedCredit) {
  const std::string difference =
      run_lockstep({"mesh:4x4", 5, SwitchingMode::Wormhole, 2, 4, PortModel::OnePort, 1, RtlFault::DroppedCredit});
  EXPECT_EQ(difference.rfind("cycle ", 0), 0u) << difference;
  EXPECT_NE(difference.find("the credits sent upstream differ"), std::string::npos) << difference;
}
TEST(RtlLockstep, CatchesASwappedArbitrationPriority) {
  const std::string difference =
      run_lockstep({"mesh:4x4", 5, SwitchingMode::Wormhole, 2, 4, PortModel::OnePort, 1, RtlFault::LastInputWins});
  EXPECT_EQ(difference.rfind("cycle ", 0), 0u) << difference;
  EXPECT_NE(difference.find(": SystemC port"), std::string::npos) << difference;
}
// Registers left out of the reset (here the switch allocator's round-robin pointers) hide behind a
// power-on state of zeros, their reset value; from a random power-on state they are caught, by the
// comparison alone (the assertions off) and by the assertions: a pointer powered up beyond the last port
// makes an output grant an input port that does not exist. (Which seed draws such a pointer depends on the
// model's registers: seed 2 does since the routing table holds adaptive choices.)
std::string run_lockstep_with_assertions_off(const Case& c) {
  set_rtl_assertions_enabled(false);
  const std::string difference = run_lockstep(c);
  set_rtl_assertions_enabled(true);
  return difference;
}
TEST(RtlLockstep, CatchesRegistersLeftOutOfTheResetOnlyFromARandomPowerOnState) {
  run_death_tests_in_fresh_processes();
  Case c{"mesh:4x4", 5, SwitchingMode::Wormhole, 2, 4, PortModel::OnePort, 1, RtlFault::PointersOutOfReset};
  EXPECT_EQ(run_lockstep(c), "") << "powered up at zero, the missing reset is invisible";
  c.power_on_seed = 2;
  const std::string difference = run_lockstep_with_assertions_off(c);
  EXPECT_EQ(difference.rfind("cycle ", 0), 0u) << difference;
  EXPECT_DEATH((assertion_messages_to_stderr(), run_lockstep(c)),
               "Assertion failed in .*switch_allocator\\.g_output_grant\\[[0-9]\\]\\.one_input_per_output");
}

// The RTL's sticky protocol-error flags reach the machine at the edge that sets them: a credit returned
// to a VC whose downstream buffer is already all credited, and a flit arriving at a full VC.
TEST(RtlRouter, ReportsProtocolErrors) {
  const Topology topology = Topology::parse("mesh:3x3");
  RouterParams params;
  params.buffer_flits = 2;
  {
    Recorder out;
    RtlRouter rtl(4, topology, params, PortModel::OnePort, &dimension_order_port, &out);
    rtl.receive_credit(dimension_order_port(topology, 4, 5), 1);
    rtl.step(0);
    ASSERT_EQ(out.errors.size(), 1u);
    EXPECT_NE(out.errors[0].find("credit returned beyond the buffer depth"), std::string::npos) << out.errors[0];
  }
  {
    Recorder out;
    RtlRouter rtl(4, topology, params, PortModel::OnePort, &dimension_order_port, &out);
    for (int k = 0; k < 3; ++k) {  // three body flits on VC 0 of a 2-flit buffer, one per cycle
      Flit body;
      body.vc = 0;
      rtl.receive_flit(0, body, k);
      rtl.step(k);
    }
    ASSERT_FALSE(out.errors.empty());
    EXPECT_NE(out.errors[0].find("buffer overflow"), std::string::npos) << out.errors[0];
  }
}

// The `dual` model stops at the first difference, naming cycle, router, port and both values: two heads
// from inputs 0 and 1 want the same output in the same cycle; the faulty RTL lets input 1 win.
TEST(DualRouter, ReportsTheFirstDifference) {
  const Topology topology = Topology::parse("mesh:3x3");
  RouterParams params;
  for (RtlFault fault : {RtlFault::None, RtlFault::LastInputWins}) {
    Recorder out;
    const RtlModelConfiguration checked = checked_rtl_model(fault);
    DualRouter dual(4, topology, params, PortModel::OnePort, &dimension_order_port, &out, &checked);
    for (int in : {0, 1}) {
      Flit head;
      head.head = head.tail = true;
      head.dst = 7;  // (1,2): the +y port of the centre, for both
      head.packet_flits = 1;
      head.tag = static_cast<std::uint32_t>(10 + in);
      dual.receive_flit(in, head, 1);
    }
    for (std::uint64_t cycle = 1; cycle <= 6; ++cycle) dual.step(cycle);
    EXPECT_EQ(out.flits.size(), 2u) << "the SystemC router's flits drive the machine";
    if (fault == RtlFault::None) {
      EXPECT_TRUE(out.errors.empty()) << out.errors.front();
    } else {
      ASSERT_EQ(out.errors.size(), 1u);
      EXPECT_EQ(out.errors[0],
                "dual: the RTL and SystemC routers differ at cycle 3, router 4, output port 3: cpp port 3 head+tail "
                "vc 0 tag 10 dst 7 class 0 ring dimension 1 route position 0, rtl port 3 head+tail vc 1 tag 11 dst 7 "
                "class 0 ring dimension 1 route position 0");
    }
  }
}

// The router's assertions (rtl/README.md) hold on the checked configuration under the lockstep stimulus,
// whose outputs still match the SystemC router's: wormhole, store-and-forward and cut-through, three seeds
// each, from zero and random power-on states.
TEST(RtlAssertions, HoldUnderTheLockstepStimulus) {
  for (Case c : {Case{"mesh:4x4", 5, SwitchingMode::Wormhole, 2, 4, PortModel::OnePort, 11},
                 Case{"torus:4x4", 6, SwitchingMode::StoreAndForward, 2, 4, PortModel::OnePort, 12},
                 Case{"mesh:3x3", 4, SwitchingMode::VirtualCutThrough, 3, 4, PortModel::OnePort, 13}}) {
    c.checked = true;
    EXPECT_EQ(run_lockstep_seeds(c), "") << c.topology;
  }
}

// A directed run of the checked configuration alone: the centre of mesh:3x3 (4-flit buffers) gets one
// packet of `flits` flits on input port 0 VC 0, sent as its upstream credits allow, for the +y output (port
// 3); downstream returns no credit. Returns the flits that left, per output port.
std::vector<int> run_directed(RtlFault fault, int flits) {
  const Topology topology = Topology::parse("mesh:3x3");
  RouterParams params;
  params.buffer_flits = 4;
  Recorder out;
  const RtlModelConfiguration checked = checked_rtl_model(fault);
  RtlRouter rtl(4, topology, params, PortModel::OnePort, &dimension_order_port, &out, &checked);
  int sent = 0, upstream_credits = params.buffer_flits;
  for (std::uint64_t cycle = 1; cycle <= 40; ++cycle) {
    if (sent < flits && upstream_credits > 0) {
      Flit flit;
      flit.head = sent == 0;
      flit.tail = sent == flits - 1;
      flit.tag = 1;
      if (flit.head) {
        flit.dst = 7;  // (1,2): the +y port of the centre
        flit.packet_flits = static_cast<std::uint16_t>(flits);
      } else {
        flit.payload_bytes = 1;
      }
      rtl.receive_flit(0, flit, cycle);
      ++sent;
      --upstream_credits;
    }
    rtl.step(cycle);
    upstream_credits += static_cast<int>(out.credits.size());
    out.credits.clear();
  }
  EXPECT_TRUE(out.errors.empty()) << out.errors.front();
  std::vector<int> per_port(rtl.num_ports(), 0);
  for (const auto& [port, flit] : out.flits) ++per_port[port];
  return per_port;
}

// The assertions are live: a fault that breaks one invariant stops the model with Verilator's assertion
// message naming it, and the same run without the fault passes. A switch allocator that ignores credits
// sends the fifth flit of a packet to the output VC whose downstream buffer (4 flits) is full.
TEST(RtlAssertions, AFlitSentToAFullVcStopsTheModel) {
  run_death_tests_in_fresh_processes();
  EXPECT_EQ(run_directed(RtlFault::None, 6), (std::vector<int>{0, 0, 0, 4, 0})) << "4 credits, 4 flits";
  EXPECT_DEATH((assertion_messages_to_stderr(), run_directed(RtlFault::NoCreditCheck, 6)),
               "Assertion failed in .*g_port\\[3\\]\\.output_unit\\.flit_only_with_credit: "
               "a flit leaves on output VC 0, which has no credit");
}

// An input port granted by two output ports at once (the faulty switch allocator lets the local port,
// after +y, grant it too) stops the model.
TEST(RtlAssertions, TwoGrantsForOneInputStopTheModel) {
  run_death_tests_in_fresh_processes();
  EXPECT_EQ(run_directed(RtlFault::None, 1), (std::vector<int>{0, 0, 0, 1, 0}));
  EXPECT_DEATH((assertion_messages_to_stderr(), run_directed(RtlFault::TwoOutputs, 1)),
               "Assertion failed in .*switch_allocator\\.g_input_grant\\[0\\]\\.one_output_per_input: "
               "switch allocation: input port 0 granted by output ports 11000");
}

}  // namespace
}  // namespace meshmp
