// Paper 004's programs on the ring, the grid and the hypercube (firmware/saad_*.cpp), checked without a
// simulation on every size the issue names: rings 3..33, square grids 3x3..12x12, hypercubes 1..8 (every
// source / destination / root on the small ones). Each program is run on the nodes' memories as the
// machine moves bytes (a step's messages read before they write, copies at the start of a step), and the
// workload's verifier checks every word; the program obeys its machine's port rule of 004 §2 (the
// counter-examples the findings name break it, naming the step, the node and the rule); and its steps and
// the sum of each step's largest message, in words, equal the paper's counts at the program's nu.
// The machine runs of the same programs are tests/saad_machine_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "firmware/paper004/common.h"
#include "firmware/paper004/paths.h"
#include "firmware/paper004/workloads.h"
#include "topology/config_error.h"

namespace meshmp {
namespace {

// Under the sanitizers (a Debug build some 30x slower) every pair only on the smallest machines; the
// release pass takes the ranges below.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kEveryPairUpTo = 3;
#else
constexpr int kEveryPairUpTo = 5;
#endif

struct Counts {
  std::uint64_t steps = 0;
  std::uint64_t words = 0;  // sum over steps of the largest message, in words (rounded up)
};

struct Checked {
  SaadPlan plan;
  Counts counts;
  VerificationReport report;
  std::string violation;  // of the plan's own rule
};

// Runs the program on byte memories: copies, then every message of a step read, then written.
Checked check(const std::string& algorithm, const std::string& topology_spec, std::map<std::string, std::string> workload,
              std::map<std::string, std::string> options = {}, std::uint32_t word_bytes = 4) {
  const Topology t = Topology::parse(topology_spec);
  ExchangeParameters p;
  p.block_bytes = word_bytes;
  p.startup_cycles = 100;
  p.flit_bytes = 8;
  p.workload_options = std::move(workload);
  Checked c;
  c.plan = saad_plan(algorithm, t, p, options);
  const SaadProgram& program = c.plan.program;
  const auto kind = find_algorithm(algorithm).workload;
  const auto w = make_workload(kind, t, p, program.scratch_bytes);
  std::vector<std::vector<std::uint8_t>> memory(t.num_nodes(), std::vector<std::uint8_t>(w->memory_bytes()));
  for (int v = 0; v < t.num_nodes(); ++v) w->fill(v, memory[v]);
  auto copy = [&](const std::vector<std::pair<int, LocalCopy>>& copies) {
    for (const auto& [node, piece] : copies)
      for (std::uint32_t i = 0; i < piece.count; ++i) {
        const std::uint64_t to = piece.to + static_cast<std::uint64_t>(i) * piece.to_stride;
        const std::uint64_t from = piece.from + static_cast<std::uint64_t>(i) * piece.from_stride;
        EXPECT_LE(std::max(to, from) + piece.length, memory[node].size());
        std::memmove(&memory[node][to], &memory[node][from], piece.length);
      }
  };
  copy(program.initial_copies);
  for (std::size_t s = 0; s < program.steps.size(); ++s) {
    if (s < program.step_copies.size()) copy(program.step_copies[s]);
    std::vector<std::vector<std::uint8_t>> payload;
    for (const SaadTransfer& x : program.steps[s]) {
      EXPECT_LE(x.from_address + static_cast<std::uint64_t>(x.bytes), memory[x.from].size());
      payload.emplace_back(memory[x.from].begin() + x.from_address, memory[x.from].begin() + x.from_address + x.bytes);
    }
    for (std::size_t i = 0; i < payload.size(); ++i) {
      const SaadTransfer& x = program.steps[s][i];
      EXPECT_LE(x.to_address + static_cast<std::uint64_t>(x.bytes), memory[x.to].size());
      std::copy(payload[i].begin(), payload[i].end(), memory[x.to].begin() + x.to_address);
    }
  }
  copy(program.final_copies);
  const SaadCounts counts = saad_counts(program, word_bytes);
  c.counts = {counts.steps, counts.units};
  c.report = w->verify([&memory](int v) -> const std::vector<std::uint8_t>& { return memory[v]; });
  c.violation = port_rule_violation(t, c.plan.rule, program);
  return c;
}

std::string ring(int k) { return "ring:" + std::to_string(k); }
std::string grid(int p) { return "torus:" + std::to_string(p) + "x" + std::to_string(p); }
std::string cube(int n) { return "hypercube:" + std::to_string(n); }
std::map<std::string, std::string> pair_of(int a, int b, int words = 64) {
  return {{"source", std::to_string(a)}, {"destination", std::to_string(b)}, {"words", std::to_string(words)}};
}
std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

void expect_clean(const Checked& c, const std::string& what) {
  EXPECT_TRUE(c.report.ok()) << what << ": " << (c.report.errors.empty() ? "" : c.report.errors.front());
  EXPECT_EQ(c.violation, "") << what;
}

// The paper's count of a pipeline of `words` in nu packets over i hops: nu - 1 + i steps of words / nu
// (exact when nu divides the words; otherwise a step carries the whole-word packet floor or ceil of it).
void expect_pipeline(const Checked& c, std::uint64_t words, std::uint64_t hops, const std::string& what) {
  const std::uint64_t nu = static_cast<std::uint64_t>(c.plan.program.packets);
  EXPECT_EQ(c.counts.steps, nu - 1 + hops) << what;
  EXPECT_GE(c.counts.words, (nu - 1 + hops) * (words / nu)) << what;
  EXPECT_LE(c.counts.words, (nu - 1 + hops) * ceil_div(words, nu)) << what;
  if (words % nu == 0) {
    EXPECT_EQ(c.counts.words, (nu - 1 + hops) * words / nu) << what;
  }
  EXPECT_EQ(c.plan.formula.startups, static_cast<double>(nu - 1 + hops)) << what;
  if (c.plan.formula.exact) {
    EXPECT_EQ(c.plan.formula.words, static_cast<double>(c.counts.words)) << what;
  }
}

TEST(SaadProgram, OneToOneOnRingsEveryPairEveryMethod) {
  for (int k = 3; k <= 33; ++k)
    for (int a = 0; a < k; ++a)
      for (int b = 0; b < k; ++b) {
        if (a == b || (k > 12 && a != 0 && a != k / 2)) continue;
        const Topology t = Topology::parse(ring(k));
        const int i = t.distance(a, b);
        const std::string what = ring(k) + " " + std::to_string(a) + "->" + std::to_string(b);
        const Checked hop = check("saad-one-to-one", ring(k), pair_of(a, b), {{"method", "hop"}});
        expect_clean(hop, what + " hop");
        EXPECT_EQ(hop.counts.steps, static_cast<std::uint64_t>(i)) << what;  // (3.3): i steps of N words
        EXPECT_EQ(hop.counts.words, 64u * i) << what;
        const Checked pipe = check("saad-one-to-one", ring(k), pair_of(a, b));
        expect_clean(pipe, what + " pipeline");
        expect_pipeline(pipe, 64, i, what + " pipeline");
        // (3.6): half each way; the longer way has k - i hops.
        const Checked two = check("saad-one-to-one", ring(k), pair_of(a, b), {{"method", "two-paths"}, {"port_rule", "full-duplex"}});
        expect_clean(two, what + " two-paths");
        expect_pipeline(two, 32, std::max(i, k - i), what + " two-paths");
      }
}

TEST(SaadProgram, TwoPathsBreakTheRingRuleAtTheDestination) {
  // 004 §2 (C): a ring node reads from one neighbour at a time; (3.6) has B read both ways at once.
  const Checked two = check("saad-one-to-one", ring(8), pair_of(0, 3, 64), {{"method", "two-paths"}, {"packets", "8"}});
  EXPECT_TRUE(two.report.ok());
  EXPECT_NE(two.violation.find("node 3: reads from nodes"), std::string::npos) << two.violation;
  EXPECT_NE(two.violation.find("ring rule"), std::string::npos) << two.violation;
}

TEST(SaadProgram, OneToOneOnGridsAndHypercubes) {
  for (int side = 3; side <= 12; ++side) {
    const Topology t = Topology::parse(grid(side));
    for (int a = 0; a < t.num_nodes(); ++a)
      for (int b = 0; b < t.num_nodes(); ++b) {
        if (a == b || (side > kEveryPairUpTo && a != 0)) continue;
        const std::string what = grid(side) + " " + std::to_string(a) + "->" + std::to_string(b);
        const Checked pipe = check("saad-one-to-one", grid(side), pair_of(a, b));
        expect_clean(pipe, what);
        expect_pipeline(pipe, 64, t.distance(a, b), what + " (3.8)");
        const Checked four = check("saad-one-to-one", grid(side), pair_of(a, b, 128), {{"method", "four-paths"}});
        expect_clean(four, what + " four-paths");
        std::size_t longest = 0;
        for (const auto& path : grid_four_paths(t, a, b)) longest = std::max(longest, path.size() - 1);
        expect_pipeline(four, 32, longest, what + " (3.11)");
      }
  }
  for (int n = 1; n <= 8; ++n) {
    const Topology t = Topology::parse(cube(n));
    for (int a = 0; a < t.num_nodes(); ++a)
      for (int b = 0; b < t.num_nodes(); ++b) {
        if (a == b || (n > kEveryPairUpTo - 1 && a != 0)) continue;
        const std::string what = cube(n) + " " + std::to_string(a) + "->" + std::to_string(b);
        const int h = t.distance(a, b);
        const Checked pipe = check("saad-one-to-one", cube(n), pair_of(a, b));
        expect_clean(pipe, what);
        expect_pipeline(pipe, 64, h, what + " (3.14)");
        const Checked paths = check("saad-one-to-one", cube(n), pair_of(a, b, 8 * n), {{"method", "n-paths"}});
        expect_clean(paths, what + " n-paths");
        expect_pipeline(paths, 8, h < n ? h + 2 : h, what + " Prop. 3.2");
      }
  }
}

TEST(SaadProgram, BroadcastEveryRootEveryMethod) {
  auto root = [](int r) { return std::map<std::string, std::string>{{"root", std::to_string(r)}, {"words", "60"}}; };
  for (int k = 3; k <= 33; ++k)
    for (int r = 0; r < k; r += k > 12 ? 5 : 1) {
      const std::string what = ring(k) + " root " + std::to_string(r);
      const Checked one = check("saad-broadcast", ring(k), root(r), {{"method", "one-way"}});
      expect_clean(one, what + " one-way");
      expect_pipeline(one, 60, k - 1, what + " (3.16)");
      const Checked both = check("saad-broadcast", ring(k), root(r));
      expect_clean(both, what + " both-ways");
      expect_pipeline(both, 60, k / 2, what + " (3.17)");
    }
  for (int side = 3; side <= 12; ++side)
    for (int r = 0; r < side * side; r += side > 5 ? 7 : 1) {
      const std::string what = grid(side) + " root " + std::to_string(r);
      const std::uint64_t i = 2 * (side / 2);
      const Checked tree = check("saad-broadcast", grid(side), root(r), {{"method", "tree"}});
      expect_clean(tree, what + " tree");
      expect_pipeline(tree, 60, i, what + " (3.18)");
      const Checked split = check("saad-broadcast", grid(side), root(r), {{"method", "split"}});
      expect_clean(split, what + " split");
      // (3.19) on grids of side 4 and more; on 3x3 the remedy's extra hop makes it i + 1, and the formula
      // says it is not exact there.
      if (side > 3) {
        expect_pipeline(split, 30, i, what + " (3.19)");
      } else {
        EXPECT_EQ(split.counts.steps, static_cast<std::uint64_t>(split.plan.program.packets) + i) << what;
        EXPECT_FALSE(split.plan.formula.exact) << what;
      }
      // The paper's preferred remedy: the root pipelines the missing halves along its axes after its last
      // packet, ending 2 nu - 1 + floor(side/2) steps in: after the trees when nu > floor(side/2).
      for (const char* packets : {"2", "8"}) {
        const Checked axes = check("saad-broadcast", grid(side), root(r), {{"method", "split-axis-pipelines"}, {"packets", packets}});
        expect_clean(axes, what + " split-axis-pipelines");
        const std::uint64_t nu = std::stoul(packets);
        EXPECT_EQ(axes.counts.steps, std::max<std::uint64_t>(nu - 1 + i, 2 * nu - 1 + side / 2)) << what;
      }
      const Checked lines = check("saad-broadcast", grid(side), root(r), {{"method", "line-then-rows"}});
      expect_clean(lines, what + " line-then-rows");
      const std::uint64_t nu = static_cast<std::uint64_t>(lines.plan.program.packets);
      EXPECT_EQ(lines.counts.steps, 2 * (nu - 1 + side / 2)) << what << " (3.20)";
      EXPECT_LE(lines.counts.words, 2 * (nu - 1 + side / 2) * ceil_div(60, nu)) << what << " (3.20)";
      if (60 % nu == 0) {
        EXPECT_EQ(lines.counts.words, 2 * (nu - 1 + side / 2) * (60 / nu)) << what << " (3.20)";
      }
    }
  for (int n = 1; n <= 8; ++n)
    for (int r = 0; r < (1 << n); r += n > 4 ? 37 : 1) {
      const Checked tree = check("saad-broadcast", cube(n), root(r));
      expect_clean(tree, cube(n) + " root " + std::to_string(r));
      expect_pipeline(tree, 60, n, cube(n) + " (3.21)");
    }
}

TEST(SaadProgram, AllToAllBroadcast) {
  for (int k = 3; k <= 33; ++k)
    for (int per : {1, 3}) {
      const Checked c = check("saad-all-to-all-broadcast", ring(k), {{"words", std::to_string(per * k)}});
      expect_clean(c, ring(k));
      EXPECT_EQ(c.counts.steps, static_cast<std::uint64_t>(k - 1)) << ring(k) << " (3.28)";
      EXPECT_EQ(c.counts.words, static_cast<std::uint64_t>((k - 1) * per)) << ring(k) << " (3.28)";
    }
  for (int side = 3; side <= 12; ++side) {
    const int k = side * side;
    const std::map<std::string, std::string> words{{"words", std::to_string(2 * k)}};
    const Checked alt = check("saad-all-to-all-broadcast", grid(side), words);
    expect_clean(alt, grid(side) + " alternating");
    EXPECT_EQ(alt.counts.steps, static_cast<std::uint64_t>(2 * (side - 1))) << "(3.31)";
    EXPECT_EQ(alt.counts.words, static_cast<std::uint64_t>((side - 1) * 2 + (side - 1) * side * 2)) << "(3.31)";
    const Checked daisy = check("saad-all-to-all-broadcast", grid(side), words, {{"method", "daisy-chain"}});
    expect_clean(daisy, grid(side) + " daisy-chain");
    EXPECT_EQ(daisy.counts.steps, static_cast<std::uint64_t>(k - 1)) << "(3.30)";
    EXPECT_EQ(daisy.counts.words, static_cast<std::uint64_t>(2 * (k - 1))) << "(3.30)";
    if (side <= 6) {
      const Checked seq = check("saad-all-to-all-broadcast", grid(side), words, {{"method", "sequential-broadcast"}});
      expect_clean(seq, grid(side) + " sequential-broadcast");
      const std::uint64_t nu = static_cast<std::uint64_t>(seq.plan.program.packets);
      EXPECT_EQ(seq.counts.steps, k * (nu - 1 + 2 * (side / 2))) << "(3.29)";
    }
  }
  for (int n = 1; n <= 8; ++n)
    for (int per : {1, 2 * n + 1}) {
      const int k = 1 << n;
      const Checked c = check("saad-all-to-all-broadcast", cube(n), {{"words", std::to_string(per * k)}});
      expect_clean(c, cube(n));
      EXPECT_EQ(c.counts.steps, static_cast<std::uint64_t>(2 * n)) << cube(n) << " (3.33)";
      EXPECT_EQ(c.counts.words, 2 * static_cast<std::uint64_t>(k - 1) * ceil_div(per, n)) << cube(n) << " (3.33)";
    }
}

TEST(SaadProgram, ScatterAndGatherEveryRoot) {
  for (const bool gather : {false, true}) {
    const std::string name = gather ? "saad-gather" : "saad-scatter";
    auto root = [](int r, int words) {
      return std::map<std::string, std::string>{{"root", std::to_string(r)}, {"words", std::to_string(words)}};
    };
    for (int k = 3; k <= 33; ++k)
      for (int r = 0; r < k; r += k > 12 ? 4 : 1) {
        const Checked c = check(name, ring(k), root(r, 2 * k));
        expect_clean(c, name + " " + ring(k) + " root " + std::to_string(r));
        // Scatter (3.38): floor(k/2) steps of one block (2 words); the gather's chain: k - 1 steps.
        const std::uint64_t steps = gather ? k - 1 : k / 2;
        EXPECT_EQ(c.counts.steps, steps) << name << " " << ring(k);
        EXPECT_EQ(c.counts.words, 2 * steps) << name << " " << ring(k);
      }
    for (int side = 3; side <= 12; ++side)
      for (int r = 0; r < side * side; r += side > 5 ? 11 : 1) {
        const Checked c = check(name, grid(side), root(r, side * side));
        expect_clean(c, name + " " + grid(side));
        EXPECT_EQ(c.counts.steps, static_cast<std::uint64_t>(2 * (side / 2))) << "(3.39)";
        EXPECT_EQ(c.counts.words, static_cast<std::uint64_t>((side / 2) * side + side / 2)) << "(3.39)";
      }
    for (int n = 1; n <= 8; ++n)
      for (int r = 0; r < (1 << n); r += n > 4 ? 29 : 1) {
        const Checked c = check(name, cube(n), root(r, 1 << n));
        expect_clean(c, name + " " + cube(n));
        EXPECT_EQ(c.counts.steps, static_cast<std::uint64_t>(n)) << "(3.40)";
        EXPECT_EQ(c.counts.words, static_cast<std::uint64_t>((1 << n) - 1)) << "(3.40)";
      }
  }
}

TEST(SaadProgram, TheReversedScatterBreaksTheRingRuleAtTheRoot) {
  // The dual of (3.38) has the root read both neighbours at once; the ring reads from one.
  const Checked c = check("saad-gather", ring(9), {{"root", "4"}}, {{"method", "reversed-scatter"}});
  EXPECT_TRUE(c.report.ok());
  EXPECT_NE(c.violation.find("node 4: reads from nodes"), std::string::npos) << c.violation;
  const Checked full = check("saad-gather", ring(9), {{"root", "4"}}, {{"method", "reversed-scatter"}, {"port_rule", "full-duplex"}});
  expect_clean(full, "full-duplex");
  EXPECT_EQ(full.counts.steps, 4u);  // floor(9/2), as the scatter
}

TEST(SaadProgram, Multiscatter) {
  for (int k = 3; k <= 33; ++k) {
    const Checked c = check("saad-multiscatter", ring(k), {});
    expect_clean(c, ring(k));
    // k - 1 steps of k - 1, ..., 1 blocks; (3.43) prints k steps of k, ..., 1.
    EXPECT_EQ(c.counts.steps, static_cast<std::uint64_t>(k - 1)) << ring(k);
    EXPECT_EQ(c.counts.words, static_cast<std::uint64_t>(k * (k - 1) / 2)) << ring(k);
  }
  for (int side = 3; side <= 12; ++side) {
    const Checked c = check("saad-multiscatter", grid(side), {}, {}, 2);
    expect_clean(c, grid(side));
    EXPECT_EQ(c.counts.steps, static_cast<std::uint64_t>(2 * (side - 1))) << grid(side);
    EXPECT_EQ(c.counts.words, static_cast<std::uint64_t>(side * side * (side - 1))) << grid(side);
  }
  for (int n = 1; n <= 8; ++n) {
    const Checked c = check("saad-multiscatter", cube(n), {}, {}, 1);
    expect_clean(c, cube(n));
    EXPECT_EQ(c.counts.steps, static_cast<std::uint64_t>(2 * n)) << cube(n);  // T_{5,H}: log2 k (.. + 2 tau)
    EXPECT_EQ(c.counts.words, static_cast<std::uint64_t>(n) << n) << cube(n);  // log2 k * N / k: N / 2k each way
  }
}

// §2 D read strictly (port_rule=grid-as-ring): the methods that read from one neighbour per dimension
// obey it; the split broadcast (3.19), the four-path one-to-one (3.11) and the reversed-tree gather do not.
// 004 §3.5 (D) as printed, on the matrix it transposes (grid-transpose: node (x, y)'s N/k words to node
// (y, x)): row gathers into the diagonal, then column scatters, every word in place on grids of side 3..12
// under the grid rule, in 2 floor(P / 2) steps of one block of N/k words: half of (3.44)'s 2 sqrt(k)
// start-ups and 2 N / sqrt(k) words on even sides (the bound counts its two (3.38) stages twice).
TEST(SaadProgram, TheGridTranspositionThroughTheDiagonal) {
  for (int side = 3; side <= 12; ++side) {
    const int k = side * side;
    const Checked c = check("saad-transpose", grid(side), {{"words", std::to_string(3 * k)}});
    expect_clean(c, grid(side));
    const std::uint64_t steps = 2 * static_cast<std::uint64_t>(side / 2);
    EXPECT_EQ(c.counts.steps, steps) << grid(side);
    EXPECT_EQ(c.counts.words, 3 * steps) << grid(side);
    EXPECT_EQ(c.plan.formula.startups, 2.0 * side) << grid(side);
    EXPECT_EQ(c.plan.formula.words, 2.0 * 3 * k / side) << grid(side);
    if (side % 2 == 0) {
      EXPECT_EQ(2 * static_cast<double>(c.counts.steps), c.plan.formula.startups) << grid(side);
    }
  }
  ExchangeParameters p;
  p.block_bytes = 4;
  EXPECT_THROW(saad_plan("saad-transpose", Topology::parse("torus:4x8"), p), ConfigError);
  EXPECT_THROW(saad_plan("saad-transpose", Topology::parse(ring(9)), p), ConfigError);
  EXPECT_THROW(saad_plan("saad-transpose", Topology::parse(cube(4)), p), ConfigError);
}

TEST(SaadPortRule, TheGridAsRingReadingSaysWhichGridMethodsObeyIt) {
  const std::map<std::string, std::string> strict{{"port_rule", "grid-as-ring"}};
  auto with = [&strict](const std::string& method) {
    auto options = strict;
    options["method"] = method;
    return options;
  };
  for (int side : {4, 5, 8}) {
    const std::string what = grid(side);
    const std::map<std::string, std::string> root{{"root", "1"}, {"words", "60"}};
    for (const char* method : {"tree", "line-then-rows", "split-axis-pipelines"})
      EXPECT_EQ(check("saad-broadcast", grid(side), root, with(method)).violation, "") << what << " " << method;
    auto split = with("split");
    split["packets"] = "4";
    const std::string broken = check("saad-broadcast", grid(side), root, split).violation;
    EXPECT_NE(broken.find("grid rule read as the ring's"), std::string::npos) << what << ": " << broken;
    EXPECT_EQ(check("saad-one-to-one", grid(side), pair_of(0, side + 2), with("pipeline")).violation, "") << what;
    EXPECT_NE(check("saad-one-to-one", grid(side), pair_of(0, side + 2, 128), with("four-paths")).violation, "") << what;
    EXPECT_EQ(check("saad-multiscatter", grid(side), {}, strict, 1).violation, "") << what;
    EXPECT_EQ(check("saad-all-to-all-broadcast", grid(side), {{"words", std::to_string(side * side)}}, strict).violation, "")
        << what;
  }
  ExchangeParameters p;
  p.block_bytes = 4;
  EXPECT_THROW(saad_plan("saad-broadcast", Topology::parse(ring(8)), p, strict), ConfigError);
  EXPECT_THROW(saad_plan("saad-broadcast", Topology::parse("bus:8"), p, strict), ConfigError);
}

TEST(SaadPortRule, EachMachinesRuleOfSection2) {
  const Topology r = Topology::parse("ring:8"), g = Topology::parse("torus:4x4"), h = Topology::parse("hypercube:3");
  {  // ring: write both, or read one and write the other; never read both, never read and write one
    PortRuleMonitor m(r, PortRule::Ring);
    EXPECT_FALSE(m.record(0, 0, 1));
    EXPECT_FALSE(m.record(0, 0, 7));  // writes to both neighbours
    EXPECT_FALSE(m.record(0, 2, 3));
    EXPECT_FALSE(m.record(0, 3, 4));  // reads from 2, writes to 4
    const auto both = m.record(0, 5, 4);  // node 4 would read 3 and 5
    ASSERT_TRUE(both);
    EXPECT_NE(both->find("step 0, node 4: reads from nodes 3 and 5"), std::string::npos) << *both;
    PortRuleMonitor same(r, PortRule::Ring);
    EXPECT_FALSE(same.record(1, 0, 1));
    const auto back = same.record(1, 1, 0);
    ASSERT_TRUE(back);
    EXPECT_NE(back->find("step 1, node 1: reads from and writes to node 0"), std::string::npos) << *back;
  }
  {  // grid: all four links both ways
    PortRuleMonitor m(g, PortRule::Grid);
    for (int p = 0; p < g.num_ports(); ++p) {
      EXPECT_FALSE(m.record(0, 5, g.neighbor(5, p)));
      EXPECT_FALSE(m.record(0, g.neighbor(5, p), 5));
    }
    const auto twice = m.record(0, 5, g.neighbor(5, 0));
    ASSERT_TRUE(twice);
    EXPECT_NE(twice->find("a second message"), std::string::npos);
    const auto far = m.record(1, 0, 10);
    ASSERT_TRUE(far);
    EXPECT_NE(far->find("not a neighbour"), std::string::npos);
  }
  {  // grid-as-ring: the ring rule along each dimension; reads along different dimensions are free
    PortRuleMonitor m(g, PortRule::GridAsRing);
    const int x_minus = g.neighbor(5, g.port_of(0, -1)), x_plus = g.neighbor(5, g.port_of(0, 1));
    const int y_minus = g.neighbor(5, g.port_of(1, -1));
    const int y_plus = g.neighbor(5, g.port_of(1, 1));
    EXPECT_FALSE(m.record(0, x_minus, 5));
    EXPECT_FALSE(m.record(0, y_minus, 5));  // a read along dimension 1 beside one along dimension 0
    EXPECT_FALSE(m.record(0, 5, y_plus));
    const auto both = m.record(0, x_plus, 5);
    ASSERT_TRUE(both);
    EXPECT_NE(both->find("step 0, node 5: reads from nodes " + std::to_string(x_minus) + " and " + std::to_string(x_plus) +
                         " along dimension 0"),
              std::string::npos)
        << *both;
    PortRuleMonitor same(g, PortRule::GridAsRing);
    EXPECT_FALSE(same.record(1, 5, y_minus));
    const auto back = same.record(1, y_minus, 5);
    ASSERT_TRUE(back);
    EXPECT_NE(back->find("node " + std::to_string(y_minus) + ": reads from and writes to node 5"), std::string::npos) << *back;
    PortRuleMonitor grid(g, PortRule::Grid);  // the present reading allows both
    EXPECT_FALSE(grid.record(1, 5, y_minus));
    EXPECT_FALSE(grid.record(1, y_minus, 5));
  }
  {  // hypercube: a channel reads or writes in a step, not both; different channels may do either
    PortRuleMonitor m(h, PortRule::Hypercube);
    EXPECT_FALSE(m.record(0, 0, 1));
    EXPECT_FALSE(m.record(0, 2, 0));
    EXPECT_FALSE(m.record(0, 0, 4));
    const auto both = m.record(0, 1, 0);
    ASSERT_TRUE(both);
    EXPECT_NE(both->find("step 0, node 1: reads from and writes to node 0"), std::string::npos) << *both;
    EXPECT_NE(both->find("hypercube rule"), std::string::npos);
    PortRuleMonitor full(h, PortRule::FullDuplex);
    EXPECT_FALSE(full.record(0, 0, 1));
    EXPECT_FALSE(full.record(0, 1, 0));
  }
}

TEST(SaadProgram, BadOptionsNameTheFieldAndTheRule) {
  auto message = [](const std::string& algorithm, const std::string& topology, std::map<std::string, std::string> workload,
                    std::map<std::string, std::string> options) {
    try {
      check(algorithm, topology, std::move(workload), std::move(options));
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("saad-one-to-one", "torus:4x4", {}, {{"method", "two-paths"}}).find("algorithm_options.method"),
            std::string::npos);
  EXPECT_NE(message("saad-one-to-one", "ring:8", {{"words", "10"}}, {{"packets", "11"}}).find("algorithm_options.packets"),
            std::string::npos);
  EXPECT_NE(message("saad-one-to-one", "ring:8", {}, {{"method", "hop"}, {"packets", "2"}}).find("hop"), std::string::npos);
  EXPECT_NE(message("saad-all-to-all-broadcast", "ring:8", {}, {{"packets", "2"}}).find("does not pipeline"),
            std::string::npos);
  EXPECT_NE(message("saad-all-to-all-broadcast", "ring:8", {{"words", "12"}}, {}).find("multiple of the 8 nodes"),
            std::string::npos);
  EXPECT_NE(message("saad-one-to-one", "ring:8", {{"source", "3"}, {"destination", "3"}}, {}).find("must differ"),
            std::string::npos);
  EXPECT_NE(message("saad-broadcast", "mesh:4x4", {}, {}).find("topology"), std::string::npos);
}

// Each node's part of a program (node_parts, what run_saad_program runs there) is what scanning the whole
// program for that node gives: its copies before the first step, per step its copies, then the transfers
// it receives (a message to it, another node's broadcast), then those it starts (its messages,
// broadcasts and shared writes, the shared reads into it), in the program's order; its copies after the
// last step. Programs with every kind of transfer and copy: gathers on the grid and the hypercube,
// broadcasts on the bus, shared reads and writes on the shared memory, the switch's passes.
TEST(SaadNodeParts, EachNodeTakesItsOwnCopiesAndTransfersInTheProgramsOrder) {
  struct Case {
    const char* algorithm;
    const char* topology;
    std::map<std::string, std::string> workload;
  };
  const Case cases[] = {{"saad-multiscatter", "torus:4x4", {}},          {"saad-multiscatter", "hypercube:4", {}},
                        {"saad-multiscatter", "ring:7", {}},             {"saad-gather", "torus:5x5", {{"root", "7"}}},
                        {"saad-all-to-all-broadcast", "bus:6", {}},      {"saad-broadcast", "shared-memory:6", {}},
                        {"saad-scatter", "shared-memory:5", {}},         {"saad-multiscatter", "omega:8", {}},
                        {"saad-transpose", "torus:4x4", {}},             {"saad-broadcast", "hypercube:3", {{"root", "5"}}}};
  using Action = SaadNodePart::Action;
  for (const Case& c : cases) {
    const Topology t = Topology::parse(c.topology);
    ExchangeParameters p;
    p.block_bytes = 4;
    p.workload_options = c.workload;
    const SaadProgram program = saad_plan(c.algorithm, t, p).program;
    const std::vector<SaadNodePart> parts = node_parts(program, t.num_nodes());
    ASSERT_EQ(parts.size(), static_cast<std::size_t>(t.num_nodes()));
    std::size_t actions = 0;
    for (int v = 0; v < t.num_nodes(); ++v) {
      // By scanning: one line per copy piece or transfer, in the order the node takes them.
      std::vector<std::string> scanned, found;
      auto piece = [](const char* when, std::size_t step, std::size_t k) {
        return std::string(when) + " " + std::to_string(step) + " copy " + std::to_string(k);
      };
      for (std::size_t k = 0; k < program.initial_copies.size(); ++k)
        if (program.initial_copies[k].first == v) scanned.push_back(piece("before", 0, k));
      for (std::size_t s = 0; s < program.steps.size(); ++s) {
        if (s < program.step_copies.size())
          for (std::size_t k = 0; k < program.step_copies[s].size(); ++k)
            if (program.step_copies[s][k].first == v) scanned.push_back(piece("step", s, k));
        for (std::size_t k = 0; k < program.steps[s].size(); ++k) {
          const SaadTransfer& x = program.steps[s][k];
          if ((x.kind == SaadTransferKind::Message && x.to == v) || (x.kind == SaadTransferKind::Broadcast && x.from != v))
            scanned.push_back("step " + std::to_string(s) + " receive " + std::to_string(k));
        }
        for (std::size_t k = 0; k < program.steps[s].size(); ++k) {
          const SaadTransfer& x = program.steps[s][k];
          if ((x.kind == SaadTransferKind::SharedRead && x.to == v) || (x.kind != SaadTransferKind::SharedRead && x.from == v))
            scanned.push_back("step " + std::to_string(s) + " start " + std::to_string(k));
        }
      }
      for (std::size_t k = 0; k < program.final_copies.size(); ++k)
        if (program.final_copies[k].first == v) scanned.push_back(piece("after", 0, k));
      // By the node's part.
      const SaadNodePart& part = parts[static_cast<std::size_t>(v)];
      for (const SaadNodePart::Run& r : part.initial_copies)
        for (std::uint32_t k = r.first; k < r.first + r.count; ++k) found.push_back(piece("before", 0, k));
      for (std::size_t a = 0; a < part.actions.size(); ++a) {
        const SaadNodePart::StepAction& x = part.actions[a];
        if (a > 0) {
          EXPECT_LE(part.actions[a - 1].step, x.step) << c.algorithm << " " << c.topology << " node " << v;
        }
        if (x.action == Action::Copies)
          for (std::uint32_t k = x.at.first; k < x.at.first + x.at.count; ++k) found.push_back(piece("step", x.step, k));
        else
          found.push_back("step " + std::to_string(x.step) + (x.action == Action::Receive ? " receive " : " start ") +
                          std::to_string(x.at.first));
      }
      for (const SaadNodePart::Run& r : part.final_copies)
        for (std::uint32_t k = r.first; k < r.first + r.count; ++k) found.push_back(piece("after", 0, k));
      EXPECT_EQ(found, scanned) << c.algorithm << " on " << c.topology << ", node " << v;
      actions += found.size();
    }
    EXPECT_GT(actions, 0u) << c.algorithm << " on " << c.topology;
  }
}

}  // namespace
}  // namespace meshmp
