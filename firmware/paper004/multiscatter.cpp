// saad-multiscatter: a scatter from every node, the transposition (004 §3.5), as whole-block schedules
// (block_program.h) on the complete-exchange workload (block (i, j) from node i's send slot j to node
// j's receive slot i; N words in all, N/k^2 per block):
//  - ring (3.43): "rotate the data and drop a piece after each step": in step s every node sends its
//    + neighbour the bundle it received in step s - 1 less the block it kept (its own blocks first, in
//    destination order round the ring): k - 1 steps carrying k - 1, k - 2, ..., 1 blocks. (3.43) sums k
//    steps carrying k, k - 1, ..., 1 blocks (a first step that moves a node's block to itself): the
//    machine measures (k - 1) start-ups and k (k - 1) / 2 blocks against the printed k and k (k + 1) / 2;
//  - grid (3.44): as printed, the diagonal nodes gather their rows' data and scatter it down their
//    columns, which never delivers a block to a node outside its source's diagonal column; what runs is
//    the two-stage transposition the gather / scatter pair stands for: (3.43) in every column with the
//    rows' bundles as units (node (x, y) sends (x, y') the P blocks for row y'), then (3.43) in every row
//    delivering them. Steps 2 (sqrt(k) - 1) on square grids; words about N / sqrt(k), half of (3.44)'s
//    2 N / sqrt(k) (measured / printed, never above 1);
//  - hypercube: the recursive exchange of [13] (quadrant swap, then within each quadrant, ...): for each
//    dimension from the highest, every node sends its neighbour across it the blocks it holds whose
//    destination differs there; a dimension is two half-steps (the hypercube rule: a channel reads or
//    writes, not both), the node whose bit is 0 writing first. T_{5,H} = log2(k) [N^2 / (k b) + 2 tau]
//    writes the matrix's N^2 elements where §3.5's other machines write N: in words, log2(k) [N / (k b) +
//    2 tau], which the machine measures exactly (2 log2 k steps of N / 2k words);
//  - switch: the same exchange, each dimension in one pass (§3.5 F: "realized by one pass in a shuffle
//    exchange network"; the Omega network passes every v -> v xor 2^d without a conflict): log2 k passes
//    of N / 2k words, half of T_{5,S}, which copies the hypercube's time.
// Relays gather what they forward when it does not lie in order (local copies at rho; 004's model has
// none, its tables run with rho = 0).
#include "firmware/paper004/block_program.h"
#include "firmware/paper004/common.h"

#include <cmath>

namespace meshmp {
namespace {

// (3.43) on `ring` (nodes in ring order) from step `start`: unit(a, c) is what ring position a sends to
// ring position c, in order.
void ring_multiscatter(std::vector<std::vector<SaadBlockMove>>& steps, const std::vector<int>& ring,
                       const std::function<std::vector<int>(int, int)>& unit, std::size_t start) {
  const int length = static_cast<int>(ring.size());
  for (int s = 1; s < length; ++s) {
    const std::size_t at = start + static_cast<std::size_t>(s - 1);
    if (steps.size() <= at) steps.resize(at + 1);
    for (int v = 0; v < length; ++v) {
      const int origin = ((v - s + 1) % length + length) % length;
      SaadBlockMove move{ring[v], ring[(v + 1) % length], {}};
      for (int offset = s; offset < length; ++offset) {
        const std::vector<int> blocks = unit(origin, (origin + offset) % length);
        move.blocks.insert(move.blocks.end(), blocks.begin(), blocks.end());
      }
      steps[at].push_back(move);
    }
  }
}

SaadProgram build(const SaadContext& c) {
  const Topology& t = c.topology;
  const int k = t.num_nodes();
  const ExchangeLayout& l = *c.workload.block_layout();
  SaadBlockSchedule schedule;
  schedule.block_bytes = l.block_bytes;
  auto id = [k](int from, int to) { return from * k + to; };
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j) {
      schedule.start.push_back({i, l.send_block(j)});
      schedule.finish.push_back({{j, l.receive_block(i)}});
    }
  if (c.machine == SaadMachine::Ring) {
    std::vector<int> ring;
    for (int v = 0; v < k; ++v) ring.push_back(v);
    ring_multiscatter(schedule.steps, ring, [&](int a, int b) { return std::vector<int>{id(a, b)}; }, 0);
  } else if (c.machine == SaadMachine::Grid) {
    const int p = t.dimension(0).size, q = t.dimension(1).size;
    for (int x = 0; x < p; ++x) {  // stage 1: every column, units = a row's blocks
      std::vector<int> column;
      for (int y = 0; y < q; ++y) column.push_back(t.node_at({x, y}));
      ring_multiscatter(schedule.steps, column, [&](int a, int b) {
        std::vector<int> blocks;
        for (int x2 = 0; x2 < p; ++x2) blocks.push_back(id(column[a], t.node_at({x2, b})));
        return blocks;
      }, 0);
    }
    for (int y = 0; y < q; ++y) {  // stage 2: every row, units = what column x's nodes send to (x', y)
      std::vector<int> row;
      for (int x = 0; x < p; ++x) row.push_back(t.node_at({x, y}));
      ring_multiscatter(schedule.steps, row, [&](int a, int b) {
        std::vector<int> blocks;
        for (int y2 = 0; y2 < q; ++y2) blocks.push_back(id(t.node_at({a, y2}), row[b]));
        return blocks;
      }, static_cast<std::size_t>(q - 1));
    }
  } else {
    const int n = t.num_dimensions();
    std::vector<std::vector<int>> holds(static_cast<std::size_t>(k));  // blocks each node holds, in order
    for (int v = 0; v < k; ++v)
      for (int j = 0; j < k; ++j) holds[v].push_back(id(v, j));
    // The switch passes a dimension's exchange, a permutation, in one pass (004 §3.5 F: "realized by one
    // pass in a shuffle exchange network"); the hypercube's channels take two half-steps.
    const int passes = c.machine == SaadMachine::Switch ? 1 : 2;
    auto pass_of = [&](int step, int v, int d) { return passes * step + (passes == 2 ? (v >> d) & 1 : 0); };
    schedule.steps.resize(static_cast<std::size_t>(passes * n));
    for (int step = 0; step < n; ++step) {
      const int d = n - 1 - step;
      std::vector<std::vector<int>> next(static_cast<std::size_t>(k));
      for (int v = 0; v < k; ++v) {
        SaadBlockMove move{v, v ^ (1 << d), {}};
        for (int b : holds[v]) {
          if ((((b % k) ^ v) >> d) & 1) move.blocks.push_back(b);
          else next[v].push_back(b);
        }
        schedule.steps[static_cast<std::size_t>(pass_of(step, v, d))].push_back(move);
      }
      for (int v = 0; v < k; ++v)
        for (const SaadBlockMove& move : schedule.steps[static_cast<std::size_t>(pass_of(step, v, d))])
          if (move.from == v) next[move.to].insert(next[move.to].end(), move.blocks.begin(), move.blocks.end());
      holds = next;
    }
  }
  return compile_block_schedule(schedule, k, static_cast<std::uint32_t>(c.workload.scratch_base()));
}

SaadFormula formula(const SaadContext& c, const SaadProgram&) {
  const Topology& t = c.topology;
  const double k = t.num_nodes();
  const double n = static_cast<double>(c.workload.block_layout()->block_bytes) * k * k / c.parameters.block_bytes;
  SaadFormula f;
  if (c.machine == SaadMachine::Ring) {
    f.startups = k;
    f.words = (k + 1) * n / (2 * k);
    f.exact = false;  // as printed: k steps; the rotation needs k - 1 (the first step's block is the node's own)
    f.text = "(3.43): sum over i = 1..k of (tau + (k - i + 1) N / (b k^2)) = k tau + (k + 1) N / (2 k b)";
  } else if (c.machine == SaadMachine::Grid) {
    f.startups = 2 * std::sqrt(k);
    f.words = 2 * n / std::sqrt(k);
    f.exact = false;
    f.text = "(3.44): 2 (N / (sqrt(k) b) + sqrt(k) tau) (a bound)";
  } else if (c.machine == SaadMachine::Hypercube) {
    f.startups = 2 * t.num_dimensions();
    f.words = t.num_dimensions() * n / k;
    f.text = "T_{5,H} in words: log2(k) [N / (k b) + 2 tau] (the paper's N^2 is the matrix's elements)";
  } else {
    // T_{5,S} is "derived from the above time for the hypercube": its two half-steps per dimension. The
    // switch passes both directions of an exchange at once, so it runs half of each term.
    f.startups = 2 * t.num_dimensions();
    f.words = t.num_dimensions() * n / k;
    f.exact = false;
    f.text = "T_{5,S} in words: log2(k) [N / (k b) + 2 tau] (the hypercube's two half-steps; one pass each here: half)";
  }
  return f;
}

}  // namespace

std::vector<SaadAlgorithmSpec> saad_multiscatter_specs() {
  SaadAlgorithmSpec s;
  s.name = "saad-multiscatter";
  s.summary = "a scatter from every node (transposition): ring rotation, column then row stages, recursive exchange";
  s.source = "004 §3.5 T_{5,B}, (3.42)-(3.44), T_{5,H}, T_{5,S}";
  s.workload = "complete-exchange";
  s.methods = {{"rotate", {SaadMachine::Ring}}, {"two-stage", {SaadMachine::Grid}},
               {"recursive-exchange", {SaadMachine::Hypercube, SaadMachine::Switch}},
               {"broadcast-each", {SaadMachine::Bus}}, {"write-then-read", {SaadMachine::SharedMemory}},
               {"block-by-block", {SaadMachine::SharedMemory}}};
  s.build = build;
  s.formula = formula;
  return {s};
}

}  // namespace meshmp
