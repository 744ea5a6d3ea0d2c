// saad-broadcast: the same N words from a root to every node (004 §3.2), pipelined in nu packets down a
// tree in 004 §2's synchronous steps (step_program.h):
//  - ring: `one-way` down the path of k - 1 hops (3.16); `both-ways` down both halves of the ring,
//    floor(k/2) hops (3.17);
//  - grid (coordinates relative to the root, (x, y), -P/2 < x <= P/2): `tree` (3.18): the root's column
//    carries the data outward along y and every node of it also sends it into its row, which carries it
//    outward along x (depth |x| + |y|; the paper's prose numbers the axes the other way round);
//    `split` (3.19): half D_x goes out along the root's column and then along the rows, half D_y along the
//    root's row and then along the columns; the column nodes never see D_y nor the row nodes D_x in that
//    flow, and the paper's "easy remedy" sends each of them the missing half from its neighbour at x = +1
//    (y = +1), one hop after that neighbour got it, on the link's free direction (reconstructed from the
//    prose; Figure 10 is lost). The paper's preferred remedy (the root pipelines the missing halves along
//    its axes after its last packet, `split-axis-pipelines`) ends 2 nu - 1 + floor(P/2) steps in, after
//    the trees' nu - 1 + 2 floor(P/2) when nu > floor(P/2), not "at the same time" as the text says
//    (measured: tests/saad_program_test.cpp, docs/architecture.md);
//    `line-then-rows` (3.20): the column first, then every column node along its row, one after the other
//    ((3.20) prints "tau = floor(sqrt(k)/2)" for i = floor(sqrt(k)/2));
//  - hypercube (3.21): the spanning binomial tree of depth n (node r relative to the root sends to
//    r + 2^j for every j above r's highest one bit), every node writing all its children at once.
#include "firmware/paper004/common.h"
#include "firmware/paper004/trees.h"
#include "firmware/paper004/workloads.h"

#include <algorithm>
#include <cmath>

namespace meshmp {
namespace {

int depth_of(const Children& children, int root) {
  int deepest = 0;
  std::vector<std::pair<int, int>> stack{{root, 0}};
  while (!stack.empty()) {
    const auto [v, d] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, d);
    for (int c : children[v]) stack.push_back({c, d + 1});
  }
  return deepest;
}

// The hops the method's pipeline crosses (for nu): the deepest tree, or one line (line-then-rows).
int pipeline_hops(const SaadContext& c, int root) {
  const Topology& t = c.topology;
  const std::string& m = c.method();
  if (c.machine == SaadMachine::Ring) return depth_of(ring_tree(t, root, m == "both-ways"), root);
  if (c.machine == SaadMachine::Hypercube) return t.num_dimensions();
  if (m == "line-then-rows") return t.dimension(1).size / 2;
  return t.dimension(0).size / 2 + t.dimension(1).size / 2;
}

SaadProgram build(const SaadContext& c) {
  const SaadWords& w = saad_words(c.workload);
  const Topology& t = c.topology;
  const int root = w.source;
  const std::string& m = c.method();
  SaadProgram program;
  const bool split = m == "split" || m == "split-axis-pipelines";
  program.packets = packets_option(c.options, split ? (w.words + 1) / 2 : w.words, pipeline_hops(c, root), c.parameters);
  const int nu = program.packets;
  const WordPlaces places{w.input_base, w.output_base, w.word_bytes};
  if (c.machine == SaadMachine::Ring) {
    pipeline_down_tree(program, root, ring_tree(t, root, m == "both-ways"), 0, w.words, nu, places);
  } else if (c.machine == SaadMachine::Hypercube) {
    pipeline_down_tree(program, root, hypercube_tree(t, root), 0, w.words, nu, places);
  } else if (m == "tree") {
    pipeline_down_tree(program, root, grid_tree(t, root, true, false), 0, w.words, nu, places);
  } else if (m == "line-then-rows") {
    const Children column = grid_line(t, root, 1);
    pipeline_down_tree(program, root, column, 0, w.words, nu, places);
    const std::size_t second = program.steps.size();
    const WordPlaces relayed{w.output_base, w.output_base, w.word_bytes};
    for (int y = -((t.dimension(1).size - 1) / 2); y <= t.dimension(1).size / 2; ++y) {
      const int from = at_relative(t, root, 0, y);
      pipeline_down_tree(program, from, grid_line(t, from, 0), 0, w.words, nu, from == root ? places : relayed, second);
    }
  } else {  // split, split-axis-pipelines
    const auto halves = cut_into_packets(0, w.words, 2);
    const WordPacket dx = halves[0], dy = halves.size() > 1 ? halves[1] : WordPacket{w.words, 0};
    pipeline_down_tree(program, root, grid_tree(t, root, true, true), dx.first, dx.count, nu, places);
    pipeline_down_tree(program, root, grid_tree(t, root, false, true), dy.first, dy.count, nu, places);
    if (m == "split-axis-pipelines") {
      // The paper's preferred remedy: after its last packet the root pipelines D_y down its column and
      // D_x along its row.
      pipeline_down_tree(program, root, grid_line(t, root, 1), dy.first, dy.count, nu, places, static_cast<std::size_t>(nu));
      pipeline_down_tree(program, root, grid_line(t, root, 0), dx.first, dx.count, nu, places, static_cast<std::size_t>(nu));
      return program;
    }
    // The remedy: each column node gets D_y from its x = +1 neighbour, each row node D_x from its y = +1
    // neighbour, one hop after that neighbour got the packet.
    const auto dy_packets = cut_into_packets(dy.first, dy.count, nu), dx_packets = cut_into_packets(dx.first, dx.count, nu);
    auto remedy = [&](int to, int from, const std::vector<WordPacket>& packets, int from_depth) {
      for (std::size_t p = 0; p < packets.size(); ++p)
        program.at(p + static_cast<std::size_t>(from_depth))
            .push_back({from, to, w.address(w.output_base, packets[p].first), w.address(w.output_base, packets[p].first),
                        static_cast<std::uint32_t>(packets[p].count * w.word_bytes)});
    };
    for (int y = -((t.dimension(1).size - 1) / 2); y <= t.dimension(1).size / 2; ++y)
      if (y != 0) remedy(at_relative(t, root, 0, y), at_relative(t, root, 1, y), dy_packets, 1 + std::abs(y));
    for (int x = -((t.dimension(0).size - 1) / 2); x <= t.dimension(0).size / 2; ++x)
      if (x != 0) remedy(at_relative(t, root, x, 0), at_relative(t, root, x, 1), dx_packets, 1 + std::abs(x));
  }
  return program;
}

SaadFormula formula(const SaadContext& c, const SaadProgram& program) {
  const SaadWords& w = saad_words(c.workload);
  const std::string& m = c.method();
  const int nu = program.packets;
  const int i = pipeline_hops(c, w.source);
  SaadFormula f;
  const std::string at = ", i = " + std::to_string(i) + ", nu = " + std::to_string(nu);
  if (m == "line-then-rows") {
    const int rows = c.topology.dimension(0).size / 2;
    const SaadFormula column = pipelined_formula(w.words, i, nu), row = pipelined_formula(w.words, rows, nu);
    f.startups = column.startups + row.startups;
    f.words = column.words + row.words;
    f.exact = column.exact && row.exact;
    f.text = "(3.20): 2 (nu - 1 + i)(tau + N / (nu b)), i = floor(sqrt(k) / 2) per line" + at;
    return f;
  }
  const bool split = m == "split" || m == "split-axis-pipelines";
  const std::uint64_t share = split ? (w.words + 1) / 2 : w.words;
  f = pipelined_formula(share, i, nu);
  if (c.machine == SaadMachine::Hypercube) f.text = "(3.21): (nu - 1 + log2 k)(tau + N / (nu b))" + at;
  else if (m == "one-way") f.text = "(3.16): (nu - 1 + k - 1)(tau + N / (nu b))" + at;
  else if (m == "both-ways") f.text = "(3.17): (nu - 1 + floor(k / 2))(tau + N / (nu b))" + at;
  else if (m == "tree") f.text = "(3.18): (nu - 1 + 2 floor(sqrt(k) / 2))(tau + N / (nu b))" + at;
  else f.text = "(3.19): (nu - 1 + 2 floor(sqrt(k) / 2))(tau + N / (2 nu b))" + at;
  // On a side of 3 the remedy's relay is one hop deeper than the trees (i + 1 steps); the axis pipelines
  // end 2 nu - 1 + floor(P/2) steps in, after the trees when nu > floor(P/2) (the text says "at the same
  // time").
  if (m == "split" && std::min(c.topology.dimension(0).size, c.topology.dimension(1).size) == 3) f.exact = false;
  if (m == "split-axis-pipelines") f.exact = false;
  return f;
}

}  // namespace

std::vector<SaadAlgorithmSpec> saad_broadcast_specs() {
  SaadAlgorithmSpec s;
  s.name = "saad-broadcast";
  s.summary = "the same N words from a root to every node, pipelined down a tree";
  s.source = "004 §3.2 T_2,B, (3.15)-(3.25)";
  s.workload = "broadcast";
  const auto ring = SaadMachine::Ring, grid = SaadMachine::Grid, cube = SaadMachine::Hypercube;
  const auto bus = SaadMachine::Bus, memory = SaadMachine::SharedMemory, omega = SaadMachine::Switch;
  s.methods = {{"both-ways", {ring}}, {"one-way", {ring}},       {"split", {grid}},
               {"tree", {grid}},      {"line-then-rows", {grid}}, {"split-axis-pipelines", {grid}},
               {"spanning-tree", {cube}}, {"broadcast", {bus}}, {"write-then-read", {memory}},
               {"tree-pipeline", {omega}}, {"doubling", {omega}}, {"ring-pipeline", {omega}}};
  s.build = build;
  s.formula = formula;
  s.pipelined = true;
  return {s};
}

}  // namespace meshmp
