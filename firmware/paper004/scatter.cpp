// saad-scatter and saad-gather: a root sends N/k distinct words to every node, and the dual, every node
// sends its N/k words to the root (004 §3.4; "an algorithm for scatter can be derived from an algorithm for
// gathering simply reversing the data paths": the gather here is the scatter's schedule run backwards in
// time, every message reversed). Whole-block schedules (block_program.h), a block being a node's N/k
// words:
//  - ring (3.38): both ways at once, the block for the farthest node first, each relay forwarding the
//    blocks not its own one hop per step; all arrive in step floor(k/2) (the paper's ceil(k/2) tau counts
//    one start-up more on odd rings);
//  - grid (3.39): a scatter along the root's column whose items are whole rows (P blocks each, one row of
//    the node-ordered vector: the paper scatters along the row first, with columns as items, which costs
//    the same), then every column node scatters its row along the row. (3.39) prints its start-ups as
//    2 sqrt(ceil(k/2)) tau and approximates them by sqrt(k/2) tau; the two phases take 2 floor(sqrt(k)/2)
//    steps, sqrt(k) on even sides: the printed square root is misplaced (2 ceil(sqrt(k)/2) is meant) and
//    the approximation drops a factor 2;
//  Finding: on the ring the reversed scatter has the root read from both neighbours in every step, which
//  the ring rule of §2 (C) forbids (it reads from one): the duality does not hold there. The gather's
//  default on the ring (`chain`) obeys the rule: the k - 1 other nodes form a daisy chain into the root
//  from one side, k - 1 steps of one block, (k - 1)(tau + N / (k b)), about twice (3.38);
//  `reversed-scatter` runs the dual under port_rule=full-duplex.
//  - hypercube (3.40): the paper's algorithm with the dimensions taken from the highest down (the text
//    fixes the lowest bits first: the same tree mirrored), so that every message is one contiguous range
//    of the node-ordered blocks; node r (relative to the root) receives its subtree's 2^d blocks once.
//  The switch runs the hypercube's scatter and its reverse (§3.4 F); the bus's and the shared memory's
//  scatter and gather are in fabric_programs.cpp.
#include "firmware/paper004/block_program.h"
#include "firmware/paper004/common.h"
#include "firmware/paper004/ring_scatter.h"
#include "firmware/paper004/trees.h"
#include "firmware/paper004/workloads.h"

#include <algorithm>
#include <cmath>

namespace meshmp {
namespace {

// The scatter's moves from `root`, block j being node j's.
BlockSteps scatter_moves(const SaadContext& c, int root) {
  const Topology& t = c.topology;
  BlockSteps steps;
  if (c.machine == SaadMachine::Ring) {
    const auto [plus, minus] = ring_sides(t, root, 0);
    ring_scatter(steps, root, plus, minus, [](int v) { return std::vector<int>{v}; }, 0);
  } else if (c.machine == SaadMachine::Grid) {
    const int p = t.dimension(0).size, q = t.dimension(1).size;
    const auto [up, down] = ring_sides(t, root, 1);
    ring_scatter(steps, root, up, down, [&t, p](int v) {
      std::vector<int> row;
      for (int x = 0; x < p; ++x) row.push_back(t.node_at({x, t.coordinate(v, 1)}));
      return row;
    }, 0);
    const std::size_t second = static_cast<std::size_t>(q / 2);
    for (int y = -((q - 1) / 2); y <= q / 2; ++y) {
      const int from = at_relative(t, root, 0, y);
      const auto [right, left] = ring_sides(t, from, 0);
      ring_scatter(steps, from, right, left, [](int v) { return std::vector<int>{v}; }, second);
    }
  } else {
    const int n = t.num_dimensions();
    steps.resize(static_cast<std::size_t>(n));
    for (int step = 0; step < n; ++step) {
      const int d = n - 1 - step;
      for (int r = 0; r < t.num_nodes(); r += 1 << (d + 1)) {
        std::vector<int> blocks;
        for (int x = r | (1 << d); x < (r | (1 << d)) + (1 << d); ++x) blocks.push_back(x ^ root);
        std::sort(blocks.begin(), blocks.end());
        steps[step].push_back({r ^ root, (r | (1 << d)) ^ root, blocks});
      }
    }
  }
  return steps;
}

SaadProgram build(const SaadContext& c, bool gather) {
  const Topology& t = c.topology;
  const int k = t.num_nodes();
  SaadBlockSchedule schedule;
  int root = 0;
  if (gather) {
    const SaadWords& w = saad_words(c.workload);
    root = w.source;
    schedule.block_bytes = static_cast<std::uint32_t>(w.words / k * w.word_bytes);
    for (int i = 0; i < k; ++i) {
      const std::uint32_t slot = w.address(w.input_base, static_cast<std::uint64_t>(i) * (w.words / k));
      schedule.start.push_back({i, slot});
      schedule.finish.push_back({{root, slot}});
    }
    const std::uint32_t m = schedule.block_bytes;
    schedule.home = [m](int, int block) -> std::optional<std::uint32_t> { return static_cast<std::uint32_t>(block) * m; };
  } else {
    const ExchangeLayout& l = *c.workload.block_layout();
    root = one_to_all_root(c.workload);
    schedule.block_bytes = l.block_bytes;
    for (int j = 0; j < k; ++j) {
      schedule.start.push_back({root, l.send_block(j)});
      schedule.finish.push_back({{j, l.receive_block(j)}});
    }
    schedule.home = [&l](int, int block) -> std::optional<std::uint32_t> { return l.send_block(block); };
  }
  if (gather && c.method() == "chain") {
    // The ring rule lets the root read one neighbour per step: every block comes round one way, the
    // nodes behind the root forming a daisy chain into it (node root - h sends in step t the block of
    // node root - h - t).
    for (int t = 0; t + 1 < k; ++t) {
      schedule.steps.emplace_back();
      for (int h = 1; h + t < k; ++h)
        schedule.steps.back().push_back({at_relative(c.topology, root, -h, 0), at_relative(c.topology, root, -h + 1, 0),
                                         {at_relative(c.topology, root, -h - t, 0)}});
    }
    return compile_block_schedule(schedule, k, static_cast<std::uint32_t>(c.workload.scratch_base()));
  }
  schedule.steps = scatter_moves(c, root);
  if (gather) reverse_in_time(schedule.steps);
  return compile_block_schedule(schedule, k, static_cast<std::uint32_t>(c.workload.scratch_base()));
}

SaadFormula formula(const SaadContext& c, const SaadProgram&) {
  const Topology& t = c.topology;
  const double k = t.num_nodes();
  const double n = c.workload.block_layout() ? static_cast<double>(c.workload.block_layout()->block_bytes) * k /
                                                   static_cast<double>(c.parameters.block_bytes)
                                             : static_cast<double>(saad_words(c.workload).words);
  SaadFormula f;
  if (c.machine == SaadMachine::Ring) {
    f.startups = std::ceil(k / 2);
    f.words = n / 2;
    f.exact = false;
    f.text = "(3.38): N / (2 b) + ceil(k / 2) tau (approximate)";
    if (c.method() == "chain") f.text += "; the gather by the scatter's duality";
  } else if (c.machine == SaadMachine::Grid) {
    const double root_k = std::sqrt(k);
    f.startups = 2 * std::ceil(root_k / 2);
    f.words = n / 2 * (1 + 1 / root_k);
    f.exact = false;
    f.text = "(3.39) with 2 ceil(sqrt(k) / 2) for the printed 2 sqrt(ceil(k / 2)): N / (2 b)(1 + 1 / sqrt(k)) + "
             "2 ceil(sqrt(k) / 2) tau (approximate)";
  } else {
    f.startups = t.num_dimensions();
    f.words = n;
    f.exact = false;
    f.text = "(3.40): log2(k) tau + N / b (a bound: the words are (k - 1) N / k)";
  }
  return f;
}

SaadAlgorithmSpec spec(bool gather) {
  SaadAlgorithmSpec s;
  s.name = gather ? "saad-gather" : "saad-scatter";
  s.summary = gather ? "every node's N/k words to a root: the scatter's schedule reversed"
                     : "a root's N/k distinct words to every node: both ways on the ring, column then rows, binomial tree";
  s.source = "004 §3.4 (3.36)-(3.41)";
  s.workload = gather ? "all-to-one" : "one-to-all";
  if (gather)
    s.methods = {{"chain", {SaadMachine::Ring}},
                 {"reversed-scatter", {SaadMachine::Ring, SaadMachine::Grid, SaadMachine::Hypercube, SaadMachine::Switch}},
                 {"one-by-one", {SaadMachine::Bus}}, {"write-then-read", {SaadMachine::SharedMemory}}};
  else
    s.methods = {{"tree", {SaadMachine::Ring, SaadMachine::Grid, SaadMachine::Hypercube, SaadMachine::Switch}},
                 {"one-by-one", {SaadMachine::Bus}}, {"write-then-read", {SaadMachine::SharedMemory}}};
  s.build = [gather](const SaadContext& c) { return build(c, gather); };
  s.formula = formula;
  return s;
}

}  // namespace

std::vector<SaadAlgorithmSpec> saad_scatter_specs() { return {spec(false), spec(true)}; }

}  // namespace meshmp
