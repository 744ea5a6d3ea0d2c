// saad-transpose: 004 §3.5 (D)'s transposition on the grid, as printed: "every processor on the main
// diagonal of the grid of processors, i.e., those with label (i, i), gathers all other blocks of data in
// the processors belonging to its row. Second each processor on the main diagonal scatters the data to the
// processors belonging to its columns." It transposes a matrix held in square blocks, node (x, y)'s block
// going to node (y, x) (the grid-transpose workload): row y's blocks meet at (y, y), and (y, y) hands
// node (y, x) of its column the block of node (x, y). (The multiscatter's k - 1 distinct blocks per node
// cannot take this route: a diagonal node's column never holds most of its row's destinations;
// multiscatter.cpp.) Both stages are (3.38)'s ring scatter (ring_scatter.h), the first run backwards in
// time, each floor(sqrt(k) / 2) steps of one block of N / k words: 2 floor(sqrt(k) / 2) steps and
// 2 floor(sqrt(k) / 2) N / k words in all, half of (3.44)'s 2 (N / (sqrt(k) b) + sqrt(k) tau) on even
// sides, which counts twice the two (3.38) stages it sums.
#include "firmware/paper004/block_program.h"
#include "firmware/paper004/common.h"
#include "firmware/paper004/ring_scatter.h"
#include "firmware/paper004/workloads.h"

#include <cmath>

namespace meshmp {
namespace {

SaadProgram build(const SaadContext& c) {
  const Topology& t = c.topology;
  const int k = t.num_nodes(), side = t.dimension(0).size;
  const SaadWords& w = saad_words(c.workload);
  auto node = [&t](int x, int y) { return t.node_at({x, y}); };
  SaadBlockSchedule schedule;  // block v: node v's N/k words
  schedule.block_bytes = static_cast<std::uint32_t>(w.words / k * w.word_bytes);
  for (int v = 0; v < k; ++v) {
    schedule.start.push_back({v, w.input_base});
    schedule.finish.push_back({{node(t.coordinate(v, 1), t.coordinate(v, 0)), w.output_base}});
  }
  // Stage 1: row y's blocks gathered into (y, y): the scatter of each node's own block from (y, y) along
  // the row, reversed.
  BlockSteps gather;
  for (int y = 0; y < side; ++y) {
    const auto [right, left] = ring_sides(t, node(y, y), 0);
    ring_scatter(gather, node(y, y), right, left, [](int v) { return std::vector<int>{v}; }, 0);
  }
  reverse_in_time(gather);
  // Stage 2: (x, x) scatters along its column; node (x, y) receives the block of node (y, x).
  BlockSteps scatter;
  for (int x = 0; x < side; ++x) {
    const auto [up, down] = ring_sides(t, node(x, x), 1);
    ring_scatter(scatter, node(x, x), up, down,
                 [&t, &node](int v) { return std::vector<int>{node(t.coordinate(v, 1), t.coordinate(v, 0))}; }, 0);
  }
  schedule.steps = gather;
  schedule.steps.insert(schedule.steps.end(), scatter.begin(), scatter.end());
  return compile_block_schedule(schedule, k, static_cast<std::uint32_t>(c.workload.scratch_base()));
}

SaadFormula formula(const SaadContext& c, const SaadProgram&) {
  const double root_k = std::sqrt(static_cast<double>(c.topology.num_nodes()));
  const double n = static_cast<double>(saad_words(c.workload).words);
  SaadFormula f;
  f.startups = 2 * root_k;
  f.words = 2 * n / root_k;
  f.exact = false;
  f.text = "(3.44): 2 (N / (sqrt(k) b) + sqrt(k) tau) (a bound: twice its two (3.38) stages)";
  return f;
}

}  // namespace

std::vector<SaadAlgorithmSpec> saad_transpose_specs() {
  SaadAlgorithmSpec s;
  s.name = "saad-transpose";
  s.summary = "a matrix in square blocks on the grid transposed through the diagonal: row gathers, then column scatters";
  s.source = "004 §3.5 (D), (3.44)";
  s.workload = "grid-transpose";
  s.methods = {{"diagonal", {SaadMachine::Grid}}};
  s.build = build;
  s.formula = formula;
  return {s};
}

}  // namespace meshmp
