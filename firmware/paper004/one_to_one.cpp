// saad-one-to-one: moving N words from node A to node B (004 §3.1) on the ring, the grid and the hypercube,
// in 004 §2's synchronous steps (step_program.h):
//  - ring (§3.1 C): `hop` hops all N words along the shortest path, one neighbour per step (3.3);
//    `pipeline` cuts them into nu packets pipelined along it (3.4), (3.5); `two-paths` sends half along
//    each way round the ring, both pipelined (3.6). Finding: B then reads from both neighbours in the same
//    steps, which the ring's rule of §2 (C) forbids; two-paths runs only with port_rule=full-duplex, and the
//    paper's rule stays the default (an error names the step, node B and the rule).
//  - grid (§3.1 D): `pipeline` along a shortest path, the first dimension first (3.8); `four-paths` splits
//    the data over Proposition 3.1's four edge-disjoint paths (paths.h), each pipelined (3.11).
//  - hypercube (§3.1 E): `pipeline` along the path correcting the differing bits from the left (3.14);
//    `n-paths` over Proposition 3.2's n edge-disjoint paths, N/n words each (t^P_{1,H}).
// The paper's times assume nu divides the words of a path; the machine's packets are whole words, so when
// it does not, some steps carry one word more than N / nu and the expression is marked not exact.
#include "firmware/paper004/common.h"
#include "firmware/paper004/paths.h"
#include "firmware/paper004/workloads.h"

#include <algorithm>

#include "topology/config_error.h"

namespace meshmp {
namespace {

// The shortest way from a to b along ring dimension d (the + way on a tie), as nodes.
std::vector<int> ring_way(const Topology& t, int a, int b, int d, bool plus) {
  std::vector<int> path{a};
  const int port = t.port_of(d, plus ? +1 : -1);
  int at = a;
  while (t.coordinate(at, d) != t.coordinate(b, d)) {
    at = t.neighbor(at, port);
    path.push_back(at);
  }
  return path;
}
bool plus_is_shorter(const Topology& t, int a, int b, int d) {
  const int k = t.dimension(d).size;
  const int forward = ((t.coordinate(b, d) - t.coordinate(a, d)) % k + k) % k;
  return forward <= k - forward;
}

// A shortest path: dimension 0 first (grid), or the differing bits from the left (hypercube: the highest
// bit is a_1).
std::vector<int> shortest_path(const Topology& t, SaadMachine machine, int a, int b) {
  if (machine == SaadMachine::Hypercube) {
    std::vector<int> path{a};
    int at = a;
    for (int bit = t.num_dimensions() - 1; bit >= 0; --bit)
      if (((at ^ b) >> bit) & 1) path.push_back(at ^= 1 << bit);
    return path;
  }
  std::vector<int> path{a};
  for (int d = 0; d < t.num_dimensions(); ++d) {
    const std::vector<int> leg = ring_way(t, path.back(), b, d, plus_is_shorter(t, path.back(), b, d));
    path.insert(path.end(), leg.begin() + 1, leg.end());
  }
  return path;
}

std::vector<std::vector<int>> paths_of(const SaadContext& c, int a, int b) {
  const std::string& method = c.method();
  if (method == "two-paths") {
    std::vector<int> plus = ring_way(c.topology, a, b, 0, true), minus = ring_way(c.topology, a, b, 0, false);
    return {plus, minus};
  }
  if (method == "four-paths") return grid_four_paths(c.topology, a, b);
  if (method == "n-paths") return hypercube_parallel_paths(c.topology, a, b);
  return {shortest_path(c.topology, c.machine, a, b)};
}

std::size_t longest(const std::vector<std::vector<int>>& paths) {
  std::size_t hops = 0;
  for (const auto& p : paths) hops = std::max(hops, p.size() - 1);
  return hops;
}

SaadProgram build(const SaadContext& c) {
  const SaadWords& w = saad_words(c.workload);
  const auto paths = paths_of(c, w.source, w.destination);
  const std::uint64_t share = (w.words + paths.size() - 1) / paths.size();
  SaadProgram program;
  if (c.method() == "hop" && c.options.integer("packets") != 0)
    throw ConfigError("algorithm_options.packets", std::to_string(c.options.integer("packets")),
                      "method hop moves all N words in one message per hop (3.3); pipeline takes packets");
  program.packets = c.method() == "hop" ? 1 : packets_option(c.options, share, static_cast<int>(longest(paths)), c.parameters);
  const WordPlaces places{w.input_base, w.output_base, w.word_bytes};
  for (std::size_t p = 0; p < paths.size(); ++p) {
    const auto cut = cut_into_packets(0, w.words, static_cast<int>(paths.size()));
    if (p < cut.size()) pipeline_along_path(program, paths[p], cut[p].first, cut[p].count, program.packets, places);
  }
  return program;
}

SaadFormula formula(const SaadContext& c, const SaadProgram& program) {
  const SaadWords& w = saad_words(c.workload);
  const auto paths = paths_of(c, w.source, w.destination);
  const int i = static_cast<int>(longest(paths));
  const auto share = static_cast<std::uint64_t>((w.words + paths.size() - 1) / paths.size());
  const int nu = program.packets;
  const std::string method = c.method();
  SaadFormula f = pipelined_formula(share, i, nu);
  const std::string at = ", i = " + std::to_string(i) + ", nu = " + std::to_string(nu);
  if (method == "hop") f.text = "(3.3): i (tau + N / b)" + at;
  else if (method == "pipeline" && c.machine == SaadMachine::Ring) f.text = "(3.4)-(3.5): (nu - 1 + i)(tau + N / (nu b))" + at;
  else if (method == "two-paths") f.text = "(3.6): (nu - 1 + i)(tau + N / (2 nu b)), i the longer way" + at;
  else if (method == "pipeline" && c.machine == SaadMachine::Grid) f.text = "(3.8): (nu - 1 + i)(tau + N / (nu b))" + at;
  else if (method == "four-paths") f.text = "(3.11): (nu - 1 + i)(tau + N / (4 nu b)), i the longest path" + at;
  else if (method == "pipeline") f.text = "(3.14): (nu - 1 + i)(tau + N / (nu b))" + at;
  else f.text = "t^P_{1,H}: (nu - 1 + i)(tau + N / (n nu b)), i = H + 2 (H < n) or H" + at;
  return f;
}

}  // namespace

std::vector<SaadAlgorithmSpec> saad_one_to_one_specs() {
  SaadAlgorithmSpec s;
  s.name = "saad-one-to-one";
  s.summary = "N words from one node to another: hop, pipelined, over 2 / 4 / n edge-disjoint paths";
  s.source = "004 §3.1 (3.1)-(3.6), (3.8), (3.11), Prop. 3.1, (3.14), Prop. 3.2, T_1,S";
  s.workload = "one-to-one";
  const auto ring = SaadMachine::Ring, grid = SaadMachine::Grid, cube = SaadMachine::Hypercube;
  const auto bus = SaadMachine::Bus, memory = SaadMachine::SharedMemory, omega = SaadMachine::Switch;
  s.methods = {{"pipeline", {ring, grid, cube}}, {"hop", {ring}}, {"two-paths", {ring}},
               {"four-paths", {grid}}, {"n-paths", {cube}}, {"direct", {bus, omega}}, {"through-memory", {memory}}};
  s.build = build;
  s.formula = formula;
  s.pipelined = true;
  return {s};
}

}  // namespace meshmp
