// Every input bounded, every error clear: integer algorithm and workload options within declared ranges,
// a key given twice, config files that are deep, huge, not files or hold numbers past a double, memory
// limits the process lives under, the watchdog and credits on long links, and messages that name what
// was typed with its rule. Whole-binary checks run `meshmp` as a user would; each is bounded by
// `timeout` so an input that would hang fails the test instead.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <new>
#include <stdexcept>
#include <string>

#include "firmware/api/algorithm_options.h"
#include "firmware/api/algorithm_registry.h"
#include "firmware/paper003/transpose_moves.h"
#include "firmware/workloads/workload.h"
#include "hw/machine/machine_config.h"
#include "hw/machine/model_size.h"
#include "meshmp_process.h"
#include "topology/config_error.h"
#include "topology/topology.h"

namespace meshmp {
namespace {

using meshmp_test::contains;
using meshmp_test::meshmp_within;
using meshmp_test::Outcome;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "meshmp_bounds_" + std::to_string(getpid()) + "_" + name;
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string config_error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

const AlgorithmOption& option_of(const std::vector<AlgorithmOption>& options, const std::string& name) {
  return *std::find_if(options.begin(), options.end(), [&name](const AlgorithmOption& o) { return o.name == name; });
}

// --- integer options --------------------------------------------------------------------------------

// Every integer option of every algorithm and workload declares a range, and its default lies in it.
TEST(InputBounds, EveryIntegerOptionDeclaresARangeHoldingItsDefault) {
  auto check = [](const std::string& owner, const std::vector<AlgorithmOption>& options) {
    for (const AlgorithmOption& o : options) {
      if (o.type != AlgorithmOption::Type::Integer) continue;
      EXPECT_LE(o.min, o.max) << owner << " " << o.name;
      const long long value = std::stoll(o.default_value);
      EXPECT_TRUE(value >= o.min && value <= o.max) << owner << " " << o.name << " default " << o.default_value;
      EXPECT_NO_THROW(AlgorithmOptions(owner, options, {{o.name, std::to_string(o.max)}})) << owner << " " << o.name;
    }
  };
  for (const Algorithm& a : algorithms()) check(a.name, a.options);
  for (const WorkloadKind& w : workload_kinds()) check(w.name, w.options);
}

// 4294967297 elements per packet used to wrap to 1 in the 32-bit packet size: refused with the range.
TEST(InputBounds, IntegerOptionPastItsRangeIsRefusedNotWrapped) {
  const Algorithm& exchange = find_algorithm("jh-exchange");
  const std::string message = config_error_of(
      [&] { AlgorithmOptions("jh-exchange", exchange.options, {{"packet_elements", "4294967297"}}); });
  EXPECT_EQ(message, "algorithm_options.packet_elements = '4294967297': is out of range: must be a whole number 0..4294967295");
  EXPECT_EQ(config_error_of([&] { AlgorithmOptions("jh-exchange", exchange.options, {{"packet_elements", "-1"}}); }),
            "algorithm_options.packet_elements = '-1': is out of range: must be a whole number 0..4294967295");
  EXPECT_EQ(config_error_of([&] { AlgorithmOptions("jh-exchange", exchange.options, {{"packet_elements", "+5"}}); }),
            "algorithm_options.packet_elements = '+5': is not a whole number; must be a whole number 0..4294967295");
  EXPECT_NE(config_error_of([&] { AlgorithmOptions("jh-exchange", exchange.options, {{"packet_elements", " 5"}}); }),
            "no error");
  EXPECT_EQ(config_error_of([&] { AlgorithmOptions("jh-exchange", exchange.options, {{"packet_elements", "4294967295"}}); }),
            "no error");
}

// root=2^64+1 used to become 2^63-1 and be reported as that: the message names the value typed.
TEST(InputBounds, WorkloadRootPast64BitsNamesTheValueTyped) {
  const auto& kinds = workload_kinds();
  const WorkloadKind& one_to_all =
      *std::find_if(kinds.begin(), kinds.end(), [](const WorkloadKind& w) { return w.name == "one-to-all"; });
  EXPECT_EQ(config_error_of([&] {
              AlgorithmOptions("one-to-all", one_to_all.options, {{"root", "18446744073709551617"}}, "workload",
                               "workload_options");
            }),
            "workload_options.root = '18446744073709551617': is out of range: must be a whole number 0..65535");
  EXPECT_EQ(option_of(one_to_all.options, "root").rule(), "must be a whole number 0..65535");
}

// columns above 2^62 used to hang the layout (a shift past 63 bits); rows and columns are 0..2^24.
TEST(InputBounds, HugeTransposeColumnsAreRefusedAtOnce) {
  const Outcome o = meshmp_within(30, "run -t hypercube:4 -a jh-exchange --workload-option columns=4611686018427387905 -o ''");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_TRUE(contains(o.output, "meshmp: error: workload_options.columns = '4611686018427387905': is out of range: "
                                 "must be a whole number 0..16777216"))
      << o.output;
  const Outcome p = meshmp_within(30, "run -t hypercube:4 -a jh-exchange --algorithm-option packet_elements=4294967297 -o ''");
  EXPECT_EQ(p.status, 2) << p.output;
  EXPECT_TRUE(contains(p.output, "algorithm_options.packet_elements = '4294967297'")) << p.output;
}

// A packet size in elements past 32 bits of bytes limits nothing: the largest, never a wrapped one.
TEST(InputBounds, PacketBytesSaturateInsteadOfWrapping) {
  EXPECT_EQ(packet_bytes_of(0, 8), 0u);
  EXPECT_EQ(packet_bytes_of(3, 4), 12u);
  EXPECT_EQ(packet_bytes_of(0x80000000ull, 2), 0xffffffffu) << "2^32 bytes wrapped to 0 (no limit by accident)";
  EXPECT_EQ(packet_bytes_of(0xffffffffull, 0xffffffffu), 0xffffffffu);
}

// --- a key given twice --------------------------------------------------------------------------------

TEST(InputBounds, OptionKeyGivenTwiceIsAnError) {
  const Outcome a = meshmp_within(30, "run -t torus:4x4 --algorithm-option order=ascending --algorithm-option order=bogus -o ''");
  EXPECT_EQ(a.status, 2) << a.output;
  EXPECT_TRUE(contains(a.output, "meshmp: error: algorithm_options.order = 'bogus': is given twice "
                                 "(--algorithm-option order=ascending and order=bogus); give each option once"))
      << a.output;
  const Outcome w = meshmp_within(30, "run -t hypercube:4 -a jh-exchange --workload-option rows=16 --workload-option rows=16 -o ''");
  EXPECT_EQ(w.status, 2) << w.output;
  EXPECT_TRUE(contains(w.output, "workload_options.rows = '16': is given twice")) << w.output;
}

// --- config files ---------------------------------------------------------------------------------------

// 100,000 nested arrays used to crash the reader (SIGSEGV) and echo the whole value.
TEST(InputBounds, DeeplyNestedConfigIsRefusedShortly) {
  const std::string path =
      write_file("deep.json", "{\"block_bytes\": " + std::string(100000, '[') + std::string(100000, ']') + "}");
  const Outcome o = meshmp_within(30, "run -o '' -c " + path);
  EXPECT_EQ(o.status, 2) << o.output.substr(0, 400);
  EXPECT_TRUE(contains(o.output, "objects and arrays nest more than 32 levels deep")) << o.output.substr(0, 400);
  EXPECT_LT(o.output.size(), 600u) << o.output.substr(0, 400);
  // Within the depth, a nested value in the wrong place is echoed cut short.
  std::string list = "1";
  for (int i = 2; i <= 100; ++i) list += "," + std::to_string(i);
  const std::string shallow =
      write_file("shallow.json", "{\"block_bytes\": " + std::string(30, '[') + list + std::string(30, ']') + "}");
  const Outcome s = meshmp_within(30, "run -o '' -c " + shallow);
  EXPECT_EQ(s.status, 2) << s.output;
  EXPECT_TRUE(contains(s.output, "block_bytes = '[[[[")) << s.output;
  EXPECT_TRUE(contains(s.output, "...")) << s.output;
}

// A 100 KB name gave a 100 KB message; every echoed value is cut to a line.
TEST(InputBounds, HugeValuesAreEchoedCutShort) {
  const std::string huge(100000, 'x');
  for (const std::string& json : {"{\"topology\": \"torus:" + huge + "\"}", "{\"algorithm\": \"" + huge + "\"}",
                                  "{\"" + huge + "\": 1}", "{\"router\": {\"model\": \"" + huge + "\"}}"}) {
    const Outcome o = meshmp_within(30, "run -o '' -c " + write_file("huge.json", json));
    EXPECT_EQ(o.status, 2) << o.output.substr(0, 400);
    EXPECT_LT(o.output.size(), 600u) << o.output.substr(0, 400);
    EXPECT_TRUE(contains(o.output, "xxx...xxx")) << o.output.substr(0, 400);
  }
  const Outcome t = meshmp_within(30, "run -o '' -t torus:4x" + std::string(100000, '4'));
  EXPECT_EQ(t.status, 2) << t.output.substr(0, 400);
  EXPECT_LT(t.output.size(), 600u) << t.output.substr(0, 400);
  const std::string message = ConfigError("field", huge, "rule").what();
  EXPECT_EQ(message, "field = '" + std::string(42, 'x') + "..." + std::string(19, 'x') + "': rule");
  // A multi-byte character is never split.
  std::string accents;
  for (int i = 0; i < 100; ++i) accents += "\xc3\xa9";
  const std::string cut = echo(accents);
  EXPECT_LE(cut.size(), kMaxEchoedChars);
  EXPECT_EQ(cut.find("\xa9..."), cut.find("...") - 1) << "the head ends on a whole character";
  EXPECT_EQ(cut.substr(cut.find("...") + 3, 1), "\xc3") << "the tail starts on a whole character";
}

// "block_bytes": 1e400 escaped as an uncaught exception of the simulation kernel, exit 1.
TEST(InputBounds, NumberPastADoubleIsAConfigError) {
  for (const char* number : {"1e400", "-1e400", "1E+99999"}) {
    const Outcome o = meshmp_within(30, "run -o '' -c " + write_file("big.json", std::string("{\"block_bytes\": ") + number + "}"));
    EXPECT_EQ(o.status, 2) << number << ": " << o.output;
    EXPECT_TRUE(contains(o.output, "meshmp: error: --config = '")) << o.output;
    EXPECT_TRUE(contains(o.output, "is not valid JSON")) << o.output;
  }
}

// -c /dev/zero used to read without end; only regular files up to 16 MiB are read.
TEST(InputBounds, ConfigMustBeARegularFileOfBoundedSize) {
  const Outcome z = meshmp_within(30, "run -o '' -c /dev/zero");
  EXPECT_EQ(z.status, 2) << z.output;
  EXPECT_TRUE(contains(z.output, "--config = '/dev/zero': is not a regular file")) << z.output;
  const std::string big = temp_path("big_config.json");
  std::ofstream(big).close();
  std::filesystem::resize_file(big, kMaxConfigFileBytes + 1);
  const Outcome b = meshmp_within(30, "run -o '' -c " + big);
  EXPECT_EQ(b.status, 2) << b.output;
  EXPECT_TRUE(contains(b.output, "a config file must be at most 16777216 bytes (16 MiB)")) << b.output;
  std::filesystem::remove(big);
}

// --- memory --------------------------------------------------------------------------------------------

// Under `ulimit -v` a machine that needs more address space is refused before it is built, naming the
// limit and the estimate, instead of failing an allocation half-way.
TEST(InputBounds, AddressSpaceLimitRefusesTheRunWithTheEstimate) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer maps terabytes of shadow memory: it cannot run under ulimit -v";
#else
  const Outcome o = meshmp_test::run_command("ulimit -v 700000 && timeout 60 " + std::string(MESHMP_BINARY) +
                                             " run -t torus:64x64 -m 16 -o ''");
  EXPECT_EQ(o.status, 2) << o.output.substr(0, 600);
  EXPECT_TRUE(contains(o.output, "meshmp: error: topology = 'torus:64x64': the model would need about")) << o.output;
  EXPECT_TRUE(contains(o.output, "of memory")) << o.output;
  EXPECT_TRUE(contains(o.output, "address-space limit (ulimit -v) of 683.6 MiB")) << o.output;
#endif
}

// The control group's limit: the smallest on the path from the process's group to the root, in the
// v2 hierarchy (memory.max, "max" for none) or v1's memory controller (memory.limit_in_bytes).
TEST(InputBounds, CgroupMemoryLimitIsTheSmallestOnThePath) {
  namespace fs = std::filesystem;
  const fs::path root = temp_path("cgroup");
  fs::create_directories(root / "a" / "b");
  std::ofstream(root / "a" / "b" / "memory.max") << "max\n";
  std::ofstream(root / "a" / "memory.max") << "1073741824\n";
  const std::string v2 = write_file("cgroup_v2", "0::/a/b\n");
  EXPECT_EQ(cgroup_memory_limit_bytes(v2, root.string()), 1073741824u);
  std::ofstream(root / "memory.max") << "536870912\n";
  EXPECT_EQ(cgroup_memory_limit_bytes(v2, root.string()), 536870912u);

  fs::create_directories(root / "memory" / "x");
  std::ofstream(root / "memory" / "x" / "memory.limit_in_bytes") << "9223372036854771712\n";  // v1: none
  std::ofstream(root / "memory" / "memory.limit_in_bytes") << "2147483648\n";
  const std::string v1 = write_file("cgroup_v1", "5:cpu,cpuacct:/x\n4:memory:/x\n1:name=systemd:/\n");
  EXPECT_EQ(cgroup_memory_limit_bytes(v1, root.string()), 2147483648u);
  EXPECT_EQ(cgroup_memory_limit_bytes(write_file("cgroup_none", "1:cpu:/\n"), root.string()), 0u);
  EXPECT_EQ(cgroup_memory_limit_bytes(temp_path("absent"), root.string()), 0u);
  fs::remove_all(root);
}

// The out-of-memory report: recognised from std::bad_alloc and from SystemC's report of one.
TEST(InputBounds, OutOfMemoryIsRecognisedAndNamed) {
  EXPECT_TRUE(is_out_of_memory(std::bad_alloc()));
  EXPECT_TRUE(is_out_of_memory(std::runtime_error("Error: (E549) uncaught exception: std::bad_alloc")));
  EXPECT_FALSE(is_out_of_memory(std::runtime_error("deadlock")));
  EXPECT_EQ(out_of_memory_message().rfind("out of memory: ", 0), 0u) << out_of_memory_message();
}

// --- the watchdog -------------------------------------------------------------------------------------

// A flit waiting for a credit that is on its 64-cycle link is not deadlocked: credits in flight are
// progress. The watchdog of 50 cycles used to fire while the credit was on its way.
TEST(InputBounds, CreditsOnALongLinkAreProgress) {
  const Outcome o = meshmp_within(120, "run -t torus:8x8 -o '' --link-latency 64 --pipeline-depth 5 --buffer-flits 1 "
                                       "--watchdog-cycles 50");
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "verified")) << o.output;
  EXPECT_FALSE(contains(o.output, "deadlock")) << o.output;
}

// --- messages that name what was typed ------------------------------------------------------------------

TEST(InputBounds, TraceNodesAreParsedWithTheirRule) {
  EXPECT_EQ(parse_trace_nodes("0,0,0"), std::vector<int>{0});
  EXPECT_EQ(parse_trace_nodes("9,0,9"), (std::vector<int>{9, 0}));
  EXPECT_EQ(config_error_of([] { parse_trace_nodes("0,abc"); }),
            "output.trace_nodes = '0,abc': 'abc' is not a node id; must be node ids 0..65535 separated by commas, at "
            "least one (e.g. 0,9)");
  EXPECT_EQ(config_error_of([] { parse_trace_nodes(""); }),
            "output.trace_nodes = '': must be node ids 0..65535 separated by commas, at least one (e.g. 0,9)");
  EXPECT_TRUE(contains(config_error_of([] { parse_trace_nodes("0,,1"); }), "an empty node id")) << "";
  EXPECT_TRUE(contains(config_error_of([] { parse_trace_nodes("18446744073709551617"); }), "out of range"));
  EXPECT_TRUE(contains(config_error_of([] { parse_trace_nodes("-1"); }), "'-1' is not a node id"));
}

TEST(InputBounds, TraceNodesOnTheCommandLine) {
  const Outcome empty = meshmp_within(30, "run -t torus:4x4 -o '' --trace-nodes ''");
  EXPECT_EQ(empty.status, 2) << empty.output;
  EXPECT_TRUE(contains(empty.output, "meshmp: error: output.trace_nodes = '': must be node ids")) << empty.output;
  const Outcome abc = meshmp_within(30, "run -t torus:4x4 -o '' --trace-nodes 0,abc");
  EXPECT_EQ(abc.status, 2) << abc.output;
  EXPECT_TRUE(contains(abc.output, "output.trace_nodes = '0,abc': 'abc' is not a node id; must be node ids 0..65535"))
      << abc.output;
  // Node 0 listed three times is traced once: its router's signals appear once in the waveform.
  const std::string vcd = temp_path("thrice.vcd"), once = temp_path("once.vcd");
  const Outcome thrice = meshmp_within(60, "run -t torus:2x2 -m 8 -o '' --vcd " + vcd + " --trace-nodes 0,0,0");
  ASSERT_EQ(thrice.status, 0) << thrice.output;
  const Outcome single = meshmp_within(60, "run -t torus:2x2 -m 8 -o '' --vcd " + once + " --trace-nodes 0");
  ASSERT_EQ(single.status, 0) << single.output;
  auto declarations = [](const std::string& path) {
    std::ifstream in(path);
    std::string line;
    int count = 0;
    while (std::getline(in, line) && !contains(line, "$enddefinitions"))
      if (contains(line, "$var")) ++count;
    return count;
  };
  EXPECT_GT(declarations(once), 0);
  EXPECT_EQ(declarations(vcd), declarations(once));
  std::remove(vcd.c_str());
  std::remove(once.c_str());
}

// ".vcd" used to be told it "must end in .vcd": the rule is that a name precedes the extension.
TEST(InputBounds, WaveformNamesNeedANameBeforeTheExtension) {
  MachineConfig config;
  config.vcd = ".vcd";
  EXPECT_EQ(config.validate().value_or("valid"), "output.vcd = '.vcd': a VCD waveform file needs a name before .vcd (e.g. wave.vcd)");
  config.vcd = "out/.vcd";
  EXPECT_EQ(config.validate().value_or("valid"),
            "output.vcd = 'out/.vcd': a VCD waveform file needs a name before .vcd (e.g. wave.vcd)");
  config.vcd = "wave.vcd.txt";
  EXPECT_EQ(config.validate().value_or("valid"), "output.vcd = 'wave.vcd.txt': a VCD waveform file name must end in .vcd");
  config.vcd = "w.vcd";
  EXPECT_EQ(config.validate().value_or("valid"), "valid");
  config.vcd.clear();
  config.router.model = "rtl";
  config.trace_rtl = ".fst";
  EXPECT_EQ(config.validate().value_or("valid"),
            "output.trace_rtl = '.fst': an FST waveform file needs a name before .fst (e.g. wave.fst)");
  config.trace_rtl = "rtl.vcd";
  EXPECT_EQ(config.validate().value_or("valid"), "output.trace_rtl = 'rtl.vcd': an FST waveform file name must end in .fst");

  const Outcome o = meshmp_within(30, "run -t torus:4x4 -o '' --vcd .vcd");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_TRUE(contains(o.output, "output.vcd = '.vcd': a VCD waveform file needs a name before .vcd")) << o.output;
  EXPECT_FALSE(contains(o.output, "must end in")) << o.output;
}

// A dimension size past 32 bits used to be "not a whole number": it is one, out of range.
TEST(InputBounds, TopologySizesOutOfRangeSaySo) {
  EXPECT_EQ(config_error_of([] { Topology::parse("torus:4294967297x2"); }),
            "topology = 'torus:4294967297x2': the dimension size 4294967297 is out of range: every dimension has "
            "2..65536 nodes");
  EXPECT_TRUE(contains(config_error_of([] { Topology::parse("mesh:65537x1"); }), "out of range: every dimension has 2..65536"));
  EXPECT_TRUE(contains(config_error_of([] { Topology::parse("mesh:4xq"); }), "'q' is not a dimension size (a whole number)"));
  EXPECT_EQ(config_error_of([] { Topology::parse("hypercube:99999"); }),
            "topology = 'hypercube:99999': the hypercube dimension must be 1..16 (at most 65536 nodes): 99999 is out "
            "of range");
  const Outcome o = meshmp_within(30, "run -o '' -t torus:4294967297x2");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_TRUE(contains(o.output, "the dimension size 4294967297 is out of range")) << o.output;
}

}  // namespace
}  // namespace meshmp
