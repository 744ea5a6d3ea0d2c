// Lockstep co-verification of the RTL router (rtl/, verilated, hw/rtl_router.h) against the SystemC router
// (hw/router.h), each alone: the same random multi-VC flit stimulus with random downstream credit stalls
// drives both, and every cycle their outputs must be the same (same flits, bit for bit on the wire, on the
// same ports, the same credits upstream). The first difference fails the test naming the cycle, port and
// both values. A third, verilated router evaluated only in the cycles the network would step it (it holds
// flits, or a flit or a credit arrives) must match the one evaluated every cycle: skipping is safe.
// MESHMP_LOCKSTEP_TRACE=1 prints every cycle's inputs, the SystemC router's VC states and both outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <random>
#include <sstream>

#include "hw/flit_wire.h"
#include "hw/router.h"
#include "hw/rtl_router.h"

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
};

void run_lockstep(const Case& c) {
  const Topology topology = Topology::parse(c.topology);
  RouterParams params;
  params.vcs = c.vcs;
  params.buffer_flits = c.switching == SwitchingMode::Wormhole ? 4 : 8;
  params.pipeline_depth = c.pipeline_depth;
  params.switching = c.switching;
  params.max_packet_payload_flits = c.switching == SwitchingMode::Wormhole ? 5 : 7;
  ASSERT_FALSE(params.validate(topology).has_value());
  Recorder cpp_out, rtl_out, lazy_out;
  Router cpp(c.node, topology, params, c.port_model, &dimension_order_port, &cpp_out);
  RtlRouter rtl(c.node, topology, params, c.port_model, &dimension_order_port, &rtl_out);
  // Evaluated only in cycles where it holds flits or receives a flit or a credit, as the network steps it.
  RtlRouter lazy(c.node, topology, params, c.port_model, &dimension_order_port, &lazy_out);
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
      for (int k = 0; k < 30; ++k) {
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
    ASSERT_TRUE(cpp_out.errors.empty()) << cpp_out.errors.front();
    ASSERT_TRUE(rtl_out.errors.empty()) << rtl_out.errors.front();
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
      ASSERT_EQ(got, want) << "cycle " << cycle << ", flit " << k << " leaving router " << c.node;
      ASSERT_TRUE(wire::pack(cpp_out.flits[k].second) == wire::pack(rtl_out.flits[k].second))
          << "cycle " << cycle << ": the wire bits differ on port " << cpp_out.flits[k].first;
    }
    // Credits of one cycle all take effect at the same edge upstream: compared as a set.
    std::sort(cpp_out.credits.begin(), cpp_out.credits.end());
    std::sort(rtl_out.credits.begin(), rtl_out.credits.end());
    ASSERT_EQ(rtl_out.credits, cpp_out.credits) << "cycle " << cycle << ": credits sent upstream";
    for (const auto& [in, v] : cpp_out.credits) ++upstream_credits[in][v];
    for (const auto& [out, flit] : cpp_out.flits) {
      ++delivered;
      credit_returns.emplace(cycle + 1 + rng() % 6, std::make_pair(out, static_cast<int>(flit.vc)));
    }
    ASSERT_EQ(rtl.body_stall_cycles(), cpp.body_stall_cycles()) << "cycle " << cycle;
    std::sort(lazy_out.credits.begin(), lazy_out.credits.end());
    ASSERT_EQ(lazy_out.credits, rtl_out.credits) << "cycle " << cycle << ": skipping idle cycles changed the credits";
    ASSERT_EQ(lazy_out.flits.size(), rtl_out.flits.size()) << "cycle " << cycle << ": skipping idle cycles";
    for (std::size_t k = 0; k < lazy_out.flits.size(); ++k)
      ASSERT_TRUE(lazy_out.flits[k].first == rtl_out.flits[k].first &&
                  wire::pack(lazy_out.flits[k].second) == wire::pack(rtl_out.flits[k].second))
          << "cycle " << cycle << ": skipping idle cycles changed a flit";
  }
  EXPECT_EQ(delivered, offered);
}

TEST(RtlLockstep, MeshInteriorWormhole) { run_lockstep({"mesh:4x4", 5, SwitchingMode::Wormhole, 2, 4, PortModel::OnePort, 1}); }
TEST(RtlLockstep, MeshCornerFourStages) { run_lockstep({"mesh:4x4", 0, SwitchingMode::Wormhole, 4, 4, PortModel::OnePort, 2}); }
TEST(RtlLockstep, TorusDatelineOneStage) { run_lockstep({"torus:4x4", 3, SwitchingMode::Wormhole, 1, 4, PortModel::OnePort, 3}); }
TEST(RtlLockstep, TorusTwoVcs) { run_lockstep({"torus:5x3", 4, SwitchingMode::Wormhole, 3, 2, PortModel::OnePort, 4}); }
TEST(RtlLockstep, StoreAndForward) { run_lockstep({"torus:4x4", 6, SwitchingMode::StoreAndForward, 2, 4, PortModel::OnePort, 5}); }
TEST(RtlLockstep, CutThrough) { run_lockstep({"mesh:3x3", 4, SwitchingMode::VirtualCutThrough, 3, 4, PortModel::OnePort, 6}); }
TEST(RtlLockstep, Hypercube) { run_lockstep({"hypercube:6", 9, SwitchingMode::Wormhole, 2, 4, PortModel::OnePort, 7}); }
TEST(RtlLockstep, TorusThreeDimensions) { run_lockstep({"torus:3x3x3", 13, SwitchingMode::Wormhole, 2, 4, PortModel::OnePort, 8}); }
TEST(RtlLockstep, AllPort) { run_lockstep({"torus:4x4", 5, SwitchingMode::Wormhole, 2, 4, PortModel::AllPort, 9}); }

}  // namespace
}  // namespace meshmp
