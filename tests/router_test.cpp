// One router alone under random multi-VC traffic: a test bench drives every input port (one flit per
// cycle per port, packets kept whole per VC as an upstream wormhole router would, only with credits)
// and plays the downstream routers (returning credits after random delays). Checks: every flit comes
// out exactly once, on the port dimension-order routing names, packets never interleave on an output VC,
// flits of a packet stay in order, flits of one cycle leave in output-port order, no credit counter ever
// goes negative or above the buffer depth. In the rtl/ pass the same tests drive the verilated router
// wherever the RTL matrix has the configuration.
#include <gtest/gtest.h>

#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>

#include "hw/router/router.h"
#include "hw/router/router_model.h"
#include "hw/router/rtl_router.h"

namespace meshmp {
namespace {

struct Bench : RouterEnvironment {
  std::vector<std::string> errors;
  struct Out {
    int port;
    Flit flit;
  };
  std::vector<Out> sent;
  std::vector<std::pair<int, int>> credits;  // (in_port, vc)
  void send_flit(int, int out_port, const Flit& flit) override { sent.push_back({out_port, flit}); }
  void send_credit(int, int in_port, int vc) override { credits.emplace_back(in_port, vc); }
  int packet_source(std::uint32_t) const override { return 0; }
  void protocol_error(const std::string& what) override { errors.push_back(what); }
};

// The router under test: the SystemC router, or in the rtl/ pass (MESHMP_TEST_ROUTER_MODEL=rtl,
// tests/CMakeLists.txt) the verilated one, refused with the rule where the RTL matrix lacks the configuration.
std::unique_ptr<RouterModel> router_under_test(int node, const Topology& topology, const RouterParams& params,
                                               Bench& bench) {
  const char* model = std::getenv("MESHMP_TEST_ROUTER_MODEL");
  return make_router(model != nullptr ? model : "cpp", node, topology, params, PortModel::OnePort, &dimension_order_port,
                     &bench);
}

void run_single_router(SwitchingMode mode, int pipeline_depth, std::uint64_t seed) {
  const Topology topology = Topology::parse("mesh:3x3");
  const int node = 4;  // the centre: four network ports
  RouterParams params;
  params.vcs = 4;
  params.buffer_flits = mode == SwitchingMode::Wormhole ? 4 : 6;
  params.pipeline_depth = pipeline_depth;
  params.switching = mode;
  params.max_packet_payload_flits = 5;
  ASSERT_FALSE(params.validate(topology).has_value());
  Bench bench;
  const auto router_model = router_under_test(node, topology, params, bench);
  RouterModel& router = *router_model;
  const int ports = router.num_ports();
  std::mt19937_64 rng(seed);

  // Upstream side: per (input port, vc) a queue of flits still to send; credits for the router's buffers.
  std::vector<std::vector<std::deque<Flit>>> pending(ports, std::vector<std::deque<Flit>>(params.vcs));
  std::vector<std::vector<int>> upstream_credits(ports, std::vector<int>(params.vcs, params.buffer_flits));
  std::uint64_t next_packet = 1, flits_offered = 0;
  const int packets_per_vc = 40;
  for (int in = 0; in < ports; ++in)
    for (int v = 0; v < params.vcs; ++v)
      for (int k = 0; k < packets_per_vc; ++k) {
        int dst;
        do dst = static_cast<int>(rng() % topology.num_nodes());
        while (dst == node && in == ports - 1);
        const int payload = 1 + static_cast<int>(rng() % params.max_packet_payload_flits);
        for (int f = 0; f <= payload; ++f) {
          Flit flit;
          flit.tag = static_cast<std::uint32_t>(next_packet);
          flit.dst = dst;
          flit.head = f == 0;
          flit.tail = f == payload;
          flit.vc = static_cast<std::uint8_t>(v);
          flit.packet_flits = static_cast<std::uint16_t>(payload + 1);
          flit.data[0] = static_cast<std::uint8_t>(f);  // a head's route[0] = 0, a body flit's one valid byte
          flit.payload_bytes = f == 0 ? 0 : 1;
          pending[in][v].push_back(flit);
          ++flits_offered;
        }
        ++next_packet;
      }

  // Downstream side: credits come back 1..4 cycles after a flit leaves.
  std::multimap<std::uint64_t, std::pair<int, int>> credit_returns;
  std::map<std::pair<int, int>, std::uint64_t> open_packet;  // (out, vc) -> packet id in progress
  std::map<std::uint32_t, int> head_port;                    // packet id -> the port dimension order names
  std::map<std::uint64_t, int> next_index;                   // packet -> next flit index expected
  std::set<std::uint64_t> finished;
  std::uint64_t flits_out = 0;

  for (std::uint64_t cycle = 1; cycle < 20000 && flits_out < flits_offered; ++cycle) {
    for (auto it = credit_returns.begin(); it != credit_returns.end() && it->first <= cycle;) {
      router.receive_credit(it->second.first, it->second.second);
      it = credit_returns.erase(it);
    }
    for (int in = 0; in < ports; ++in) {
      const int start = static_cast<int>(rng() % params.vcs);
      for (int k = 0; k < params.vcs; ++k) {
        const int v = (start + k) % params.vcs;
        if (pending[in][v].empty() || upstream_credits[in][v] == 0) continue;
        router.receive_flit(in, pending[in][v].front(), cycle);
        pending[in][v].pop_front();
        --upstream_credits[in][v];
        break;
      }
    }
    bench.sent.clear();
    bench.credits.clear();
    router.step(cycle);
    for (std::size_t k = 1; k < bench.sent.size(); ++k)
      ASSERT_LT(bench.sent[k - 1].port, bench.sent[k].port) << "flits leave in output-port order, one per port";
    for (auto [in, v] : bench.credits) {
      ++upstream_credits[in][v];
      ASSERT_LE(upstream_credits[in][v], params.buffer_flits) << "credit beyond the buffer depth";
    }
    std::set<int> ports_used;
    for (const auto& out : bench.sent) {
      ++flits_out;
      const Flit& f = out.flit;
      ASSERT_TRUE(ports_used.insert(out.port).second) << "two flits on output " << out.port << " in one cycle";
      // Body flits carry no header on the wire (the RTL router's flits are unpacked from it): they follow
      // the port their head took.
      if (f.head) head_port[f.tag] = f.dst == node ? topology.num_ports() : dimension_order_port(topology, node, f.dst);
      ASSERT_EQ(head_port.count(f.tag), 1u) << "a body flit of packet " << f.tag << " before its head";
      ASSERT_EQ(out.port, head_port[f.tag]) << "packet " << f.tag << " left through the wrong port";
      ASSERT_EQ(finished.count(f.tag), 0u) << "flit of finished packet " << f.tag << " duplicated";
      ASSERT_EQ(f.data[0], next_index[f.tag]++) << "flit reordered within packet " << f.tag;
      auto key = std::make_pair(out.port, static_cast<int>(f.vc));
      if (f.head) {
        ASSERT_EQ(open_packet.count(key), 0u) << "packets interleaved on output " << out.port << " vc " << int(f.vc);
        open_packet[key] = f.tag;
      } else {
        ASSERT_EQ(open_packet[key], f.tag) << "flit interleaved on output " << out.port;
      }
      if (f.tail) {
        open_packet.erase(key);
        finished.insert(f.tag);
      }
      // Downstream routers and the ejecting network interface return credits alike.
      credit_returns.emplace(cycle + 1 + rng() % 4, std::make_pair(out.port, static_cast<int>(f.vc)));
    }
    for (int p = 0; p < ports; ++p)
      for (int v = 0; v < params.vcs; ++v) {
        if (const int* credits = router.credit_counter(p, v)) {
          ASSERT_GE(*credits, 0) << "negative credits";
          ASSERT_LE(*credits, params.buffer_flits);
        }
      }
    ASSERT_TRUE(bench.errors.empty()) << bench.errors.front();
  }
  EXPECT_EQ(flits_out, flits_offered) << "flits lost inside the router";
  EXPECT_EQ(finished.size(), next_packet - 1);
  EXPECT_EQ(router.buffered_flits(), 0);
}

TEST(SingleRouter, WormholeRandomMultiVcTraffic) { run_single_router(SwitchingMode::Wormhole, 1, 1); }
TEST(SingleRouter, WormholeFourStagePipeline) { run_single_router(SwitchingMode::Wormhole, 4, 2); }
TEST(SingleRouter, VirtualCutThrough) { run_single_router(SwitchingMode::VirtualCutThrough, 2, 3); }
TEST(SingleRouter, StoreAndForward) { run_single_router(SwitchingMode::StoreAndForward, 2, 4); }

TEST(SingleRouter, PipelineDepthSetsTheZeroLoadDelay) {
  const Topology topology = Topology::parse("mesh:3x3");
  for (int depth = 1; depth <= 5; ++depth) {
    RouterParams params;
    params.pipeline_depth = depth;
    Bench bench;
    const auto router_model = router_under_test(4, topology, params, bench);
    RouterModel& router = *router_model;
    Flit head;
    head.head = head.tail = true;
    head.dst = 5;
    head.packet_flits = 1;
    router.receive_flit(0, head, 10);
    std::uint64_t left = 0;
    for (std::uint64_t cycle = 10; cycle < 20 && !left; ++cycle) {
      router.step(cycle);
      if (!bench.sent.empty()) left = cycle;
    }
    EXPECT_EQ(left, 10u + depth) << "pipeline depth " << depth << ": written at 10, leaves after depth cycles";
  }
}

TEST(SingleRouter, AgesSaturateAndNeverWrap) {
  // A packet whose output has no credit waits 1000 cycles (longer than any age register could count), then
  // leaves the cycle its credit returns; a body flit written just before still takes its own pipeline.
  const Topology topology = Topology::parse("mesh:3x3");
  for (int depth = 1; depth <= 5; ++depth) {
    RouterParams params;
    params.vcs = 1;
    params.buffer_flits = 1;
    params.pipeline_depth = depth;
    Bench bench;
    const auto router_model = router_under_test(4, topology, params, bench);
    RouterModel& router = *router_model;
    const int east = dimension_order_port(topology, 4, 5);
    router.receive_credit(east, 0);  // would exceed the depth: the downstream buffer is full
    ASSERT_EQ(bench.errors.size(), 1u) << "a credit beyond the buffer depth is a protocol error";
    bench.errors.clear();
    // Fill the downstream buffer: one packet (head only) takes its single credit.
    Flit first;
    first.head = first.tail = true;
    first.dst = 5;
    first.packet_flits = 1;
    first.tag = 1;
    router.receive_flit(0, first, 0);
    std::uint64_t cycle = 0;
    for (; bench.sent.empty(); ++cycle) router.step(cycle);
    bench.sent.clear();
    // Now a two-flit packet: its head waits for the credit.
    Flit head = first;
    head.tail = false;
    head.packet_flits = 2;
    head.tag = 2;
    const std::uint64_t head_written = cycle;
    router.receive_flit(0, head, cycle);
    for (; cycle < head_written + 1000; ++cycle) router.step(cycle);
    ASSERT_TRUE(bench.sent.empty()) << "no credit, no flit";
    router.receive_credit(east, 0);
    router.step(cycle);
    ASSERT_EQ(bench.sent.size(), 1u) << "depth " << depth << ": an old head leaves the cycle its credit arrives";
    bench.sent.clear();
    Flit body;
    body.tail = true;
    body.payload_bytes = 1;
    body.tag = 2;
    router.receive_flit(0, body, ++cycle);
    router.receive_credit(east, 0);
    std::uint64_t left = 0;
    for (const std::uint64_t written = cycle; cycle < written + 10 && !left; ++cycle) {
      router.step(cycle);
      if (!bench.sent.empty()) left = cycle - written;
    }
    EXPECT_EQ(left, static_cast<std::uint64_t>(std::min(depth, 2))) << "depth " << depth << ": body pipeline";
    EXPECT_TRUE(bench.errors.empty());
  }
}

}  // namespace
}  // namespace meshmp
