// The network's power and area model (hw/power): the technology file's format and its refusals; the
// events a packet causes priced where they happen (one more hop, one more channel and one more router,
// exactly); the same power with the same events; and the model against BookSim2's power module on the
// configurations of sims/reference/power, every component within 2 %.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <functional>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "hw/power/network_power.h"
#include "hw/power/node_energy.h"
#include "hw/power/technology.h"
#include "hw/router/router_activity.h"
#include "meshmp_process.h"
#include "topology/config_error.h"

namespace {

using meshmp::ConfigError;
using meshmp::parse_technology;
using meshmp::Technology;
using meshmp::NetworkActivity;
using meshmp::network_power;
using meshmp_test::meshmp;
using meshmp_test::Outcome;
using meshmp_test::traffic_point;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "meshmp_network_power_" + std::to_string(getpid()) + "_" + name;
}

// The message of the ConfigError parsing `text` throws; empty when it parses.
std::string refusal(const std::string& text) {
  try {
    parse_technology("power.technology_file", "tech.txt", text);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(TechnologyFile, ReadsBookSim2sFormatOverTheDefaults) {
  const Technology t = parse_technology("power.technology_file", "tech.txt",
                                        "// 2007 ITRS predictions\nH_INVD2  = 9;//int\n\nVdd  = 1.1;//float\n"
                                        "Cw_gnd  = 0.000000000000123;//float\n");
  EXPECT_EQ(t.H_INVD2, 9);
  EXPECT_EQ(t.Vdd, 1.1);
  EXPECT_EQ(t.Cw_gnd, 1.23e-13);
  EXPECT_EQ(t.W_INVD2, Technology{}.W_INVD2) << "a key not given keeps its default";
}

TEST(TechnologyFile, RefusesABrokenFileNamingFileLineAndKey) {
  const std::map<std::string, std::string> cases{
      {"Vdd = 0.9;\nVdd 0.8;\n", "line 2: 'Vdd 0.8;' is not KEY = VALUE;"},
      {"Vdd = 0.9\n", "line 1: 'Vdd = 0.9' is not KEY = VALUE;"},
      {"\nVoltage = 0.9;\n", "line 2: key 'Voltage' is not a technology parameter; known: H_INVD2"},
      {"Vdd = 0.9;\nVdd = 0.8;\n", "line 2: key Vdd is given twice"},
      {"R = nan;\n", "line 1: key R = 'nan': must be a finite number"},
      {"R = 12ohm;\n", "line 1: key R = '12ohm': must be a finite number"},
      {"Vdd = -0.9;\n", "line 1: key Vdd = '-0.9': must be more than zero"},
      {"IoffN = -1e-6;\n", "line 1: key IoffN = '-1e-6': must be zero or more"},
      {"// node\nnode_memory_byte_energy = -12.5e-12;\n",
       "line 2: key node_memory_byte_energy = '-12.5e-12': must be zero or more"},
      {"node_idle_power = inf;\n", "line 1: key node_idle_power = 'inf': must be a finite number"},
      {"node_startup_energy = 7e-9;\n", "line 1: key 'node_startup_energy' is not a technology parameter"},
  };
  for (const auto& [text, rule] : cases) {
    const std::string message = refusal(text);
    EXPECT_NE(message.find("power.technology_file = 'tech.txt': " + rule), std::string::npos) << text << "\n" << message;
  }
  EXPECT_EQ(refusal("IoffN = 0;\n"), "") << "a leakage current may be zero";
  EXPECT_EQ(refusal("node_instruction_energy = 0;\nbank_byte_energy = 1e-11;\n"), "") << "a node's energies may be zero";
}

TEST(RouterActivity, NamesTheFirstCountTwoRoutersDifferIn) {
  meshmp::RouterActivity systemc(5), rtl(5);
  for (meshmp::RouterActivity* router : {&systemc, &rtl}) {
    router->count_write(4);
    router->count_traversal(4, 0);
  }
  EXPECT_EQ(rtl.difference_from(systemc), "");
  EXPECT_EQ(rtl.buffer_reads(4), 1u);
  rtl.count_traversal(2, 4);
  EXPECT_EQ(rtl.difference_from(systemc), "crossbar 2 -> 4: 1, other 0");
  systemc.count_traversal(2, 4);
  systemc.count_write(1);
  EXPECT_EQ(rtl.difference_from(systemc), "buffer writes at input 1: 0, other 1");
  EXPECT_EQ(systemc.since(rtl).buffer_writes(1), 1u);
}

// The power of one replayed trace on mesh:4x4 (dimension order), over a window spanning it.
nlohmann::json power_of_trace(const std::string& name, const std::string& lines) {
  const std::string path = temp_path(name);
  std::ofstream(path) << lines;
  const nlohmann::json result =
      traffic_point("-t mesh:4x4 --routing dimension-order --trace " + path + " --measure-cycles 400");
  std::remove(path.c_str());
  return result["power"];
}

double watts(const nlohmann::json& power, const char* component) { return power["watts"][component].get<double>(); }

TEST(NetworkPower, EachHopPricesOneMoreChannelAndOneMoreRouter) {
  const nlohmann::json one_hop = power_of_trace("one.trace", "0 0 1 4\n");
  const nlohmann::json two_hops = power_of_trace("two.trace", "0 0 2 4\n");
  const nlohmann::json twice = power_of_trace("twice.trace", "0 0 1 4\n100 0 1 4\n");
  ASSERT_FALSE(one_hop.is_null());
  // 0 -> 1: injection, one link, ejection (3 channels of 2 mm) through 2 routers; 0 -> 2: 4 channels, 3 routers.
  EXPECT_NEAR(watts(two_hops, "channel_wire") / watts(one_hop, "channel_wire"), 4.0 / 3.0, 1e-12);
  EXPECT_NEAR(watts(two_hops, "channel_retiming") / watts(one_hop, "channel_retiming"), 4.0 / 3.0, 1e-12);
  for (const char* per_router : {"input_read", "input_write", "switch_control", "output_dff", "output_control"})
    EXPECT_NEAR(watts(two_hops, per_router) / watts(one_hop, per_router), 3.0 / 2.0, 1e-12) << per_router;
  // The same packet twice: every event twice, what does not switch (clock, leakage) and the area the same.
  for (const char* dynamic : {"channel_wire", "channel_retiming", "input_read", "input_write", "switch", "switch_control",
                              "output_dff", "output_control"})
    EXPECT_NEAR(watts(twice, dynamic) / watts(one_hop, dynamic), 2.0, 1e-12) << dynamic;
  for (const char* fixed : {"channel_clock", "channel_leakage", "input_leakage", "switch_leakage", "output_clock"})
    EXPECT_EQ(watts(twice, fixed), watts(one_hop, fixed)) << fixed;
  EXPECT_EQ(twice["area_mm2"], one_hop["area_mm2"]);
  // 8 flits of 64 bits (the link's 8 bytes) delivered in the window.
  EXPECT_NEAR(twice["energy_per_delivered_bit_joules"].get<double>(), twice["energy_joules"].get<double>() / (8 * 64),
              1e-24);
}

// The energy of one flit event, priced alone by the model's equations (hw/power/network_power.h) at the
// run's shape (64-bit flits, 4 VCs of 8 flits, the built-in technology): what one flit adds over one cycle.
double one_event_joules(const std::function<void(NetworkActivity&)>& event) {
  NetworkActivity idle;
  idle.cycles = 1;
  idle.channel_width_bits = 64;
  idle.vcs = 4;
  idle.buffer_flits = 8;
  idle.channels.push_back({1, 0});
  idle.routers.emplace_back(5);
  NetworkActivity busy = idle;
  event(busy);
  const Technology technology;
  return (network_power(technology, busy).total_power() - network_power(technology, idle).total_power()) /
         technology.clock_hz();
}

// A flit over a one-cycle channel; a flit through a router from input `in` to output `out`: its buffer
// write and read, its crossbar traversal and control, its output flip-flops and enable.
double channel_flit_joules() {
  return one_event_joules([](NetworkActivity& a) { a.channels[0].flits = 1; });
}
double router_flit_joules(int in, int out) {
  return one_event_joules([in, out](NetworkActivity& a) {
    a.routers[0].count_write(in);
    a.routers[0].count_traversal(in, out);
  });
}

// One 4-flit packet priced event by event, by hand: the energy the run reports grows by exactly that. On
// mesh:4x4 port 0 leads to x - 1, port 1 to x + 1, port 4 is the local port. Node 0 -> 1 crosses the
// injection channel, a link and the ejection channel, router 0 (local -> port 1) and router 1 (port 0 ->
// local); 0 -> 2 adds a link and router 1 passing it on (port 0 -> port 1), router 2 ejecting it as router
// 1 did. Everything that does not switch (clock, leakage) is the same in each pair of runs.
TEST(NetworkPower, ASinglePacketsEnergyIsItsEventsPricedByHand) {
  const auto joules = [](const nlohmann::json& power) { return power["energy_joules"].get<double>(); };
  const nlohmann::json one_hop = power_of_trace("one.trace", "0 0 1 4\n");
  const nlohmann::json two_hops = power_of_trace("two.trace", "0 0 2 4\n");
  const nlohmann::json twice = power_of_trace("twice.trace", "0 0 1 4\n100 0 1 4\n");
  ASSERT_FALSE(one_hop.is_null());
  const double one_hop_packet = 4 * (3 * channel_flit_joules() + router_flit_joules(4, 1) + router_flit_joules(0, 4));
  EXPECT_NEAR(joules(twice) - joules(one_hop), one_hop_packet, 1e-9 * one_hop_packet);
  const double second_hop = 4 * (channel_flit_joules() + router_flit_joules(0, 1));
  EXPECT_NEAR(joules(two_hops) - joules(one_hop), second_hop, 1e-9 * second_hop);
  EXPECT_GT(one_hop_packet, 0);
}

// The statistics of `meshmp run ARGS`, which must run.
nlohmann::json run_statistics(const std::string& args) {
  const Outcome o = meshmp("run " + args + " -o -");
  EXPECT_EQ(o.status, 0) << o.output;
  return meshmp_test::json_in_output(o.output)["statistics"];
}

// The nodes' energy of one direct all-to-all, counted by hand: n (n - 1) start-ups of t_s instructions; each
// block read out of its source's memory and written into its destination's (two DMA and two memory bytes
// per byte); the nodes' memories leaking over the run.
TEST(NodeEnergy, ADirectAllToAllIsItsStartUpsAndBytesPricedByHand) {
  const nlohmann::json stats = run_statistics("-t mesh:4x4 -a direct -m 64 --startup-cycles 100 --clock-ghz 1");
  const nlohmann::json& nodes = stats["energy"]["joules"]["nodes"];
  const Technology t;
  const double messages = 16 * 15, bytes = messages * 64;
  EXPECT_DOUBLE_EQ(nodes["startups"].get<double>(), messages * 100 * t.node_instruction_energy);
  EXPECT_DOUBLE_EQ(nodes["dma"].get<double>(), 2 * bytes * t.node_dma_byte_energy);
  const double copied = nodes["copies"].get<double>() / t.node_copy_byte_energy;  // the algorithm's own block
  EXPECT_DOUBLE_EQ(nodes["memory"].get<double>(), (2 * bytes + 2 * copied) * t.node_memory_byte_energy);
  const double seconds = stats["completion_cycles"].get<double>() / 1e9;
  EXPECT_DOUBLE_EQ(stats["energy"]["seconds"].get<double>(), seconds);
  EXPECT_GT(nodes["idle"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(stats["energy"]["delivered_bits"].get<double>(), 8 * bytes);
  const double total = stats["energy"]["joules"]["total"].get<double>();
  EXPECT_DOUBLE_EQ(total, stats["energy"]["joules"]["network"]["total"].get<double>() + nodes["total"].get<double>());
  EXPECT_DOUBLE_EQ(stats["energy"]["energy_delay_product_joule_seconds"].get<double>(), total * seconds);
  EXPECT_DOUBLE_EQ(stats["energy"]["average_watts"].get<double>(), total / seconds);
}

// The leakage and idle terms last the run's time, the dynamic terms do not: at half the clock the
// dynamic energy is the same and the static energy twice.
TEST(NodeEnergy, TheClockStretchesOnlyWhatLeaks) {
  const auto energy = [](const std::string& ghz) {
    return run_statistics("-t mesh:4x4 -a direct -m 64 --clock-ghz " + ghz)["energy"]["joules"];
  };
  const nlohmann::json fast = energy("2"), slow = energy("1");
  EXPECT_DOUBLE_EQ(slow["dynamic"].get<double>(), fast["dynamic"].get<double>());
  EXPECT_NEAR(slow["leakage"].get<double>(), 2 * fast["leakage"].get<double>(), 1e-12 * slow["leakage"].get<double>());
  const Outcome bad = meshmp("run -t mesh:4x4 --clock-ghz -1");
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find("power.clock_ghz"), std::string::npos) << bad.output;
}

// 004's fabrics: each byte on the bus priced as a wire across every node's tile.
TEST(NodeEnergy, ABusPricesEachByteAcrossEveryTile) {
  const nlohmann::json stats = run_statistics("-t bus:8 -a direct -m 64");
  const Technology t;
  const double bus_bytes = stats["fabric"]["bus"]["bytes"].get<double>();
  EXPECT_EQ(bus_bytes, 8 * 7 * 64);
  EXPECT_DOUBLE_EQ(stats["energy"]["joules"]["fabric"]["bus"].get<double>(), bus_bytes * t.wire_byte_energy(8 * t.wire_length));
  EXPECT_TRUE(stats["energy"]["joules"]["network"].is_null());
  EXPECT_TRUE(stats["area"].is_null());
}

TEST(NetworkPower, ASweepsCsvCarriesEachLoadsPower) {
  const std::string csv = temp_path("sweep.csv"), json = temp_path("sweep.json"), png = temp_path("sweep.png");
  const Outcome o = meshmp("traffic -t mesh:4x4 --rates 0.1,0.3 --warmup-cycles 300 --measure-cycles 1000 --csv " + csv +
                           " --png " + png + " -o " + json);
  ASSERT_EQ(o.status, 0) << o.output;
  const nlohmann::json points = nlohmann::json::parse(std::ifstream(json))["points"];
  std::ifstream rows(csv);
  std::string header, line;
  std::getline(rows, header);
  const std::string last_two = ",power.watts.total,power.energy_per_delivered_bit_joules";
  ASSERT_EQ(header.substr(header.size() - last_two.size()), last_two);
  for (const nlohmann::json& point : points) {
    ASSERT_TRUE(std::getline(rows, line));
    const std::string power_cells = line.substr(line.rfind(',', line.rfind(',') - 1) + 1);
    const double watts_cell = std::stod(power_cells.substr(0, power_cells.find(',')));
    EXPECT_NEAR(watts_cell, point["power"]["watts"]["total"].get<double>(), 1e-4 * watts_cell);
  }
  EXPECT_GT(watts(points[1]["power"], "total"), watts(points[0]["power"], "total")) << "more load, more power";
  for (const std::string& file : {csv, json, png}) std::remove(file.c_str());
}

TEST(NetworkPower, ModelsWithoutEventCountsReportNone) {
  EXPECT_TRUE(traffic_point("-t mesh:4x4 --rate 0.1 --measure-cycles 200 --fidelity tlm")["power"].is_null());
}

TEST(NetworkPower, TheRtlRouterCountsTheSameEvents) {
  const std::string network = "-t mesh:4x4 --rate 0.3 --warmup-cycles 200 --measure-cycles 600 ";
  const nlohmann::json systemc = traffic_point(network + "--router cpp")["power"];
  const nlohmann::json rtl = traffic_point(network + "--router rtl")["power"];
  ASSERT_FALSE(rtl.is_null());
  EXPECT_EQ(rtl, systemc);
}

}  // namespace
