// saad-all-to-all-broadcast: every node's N/k words to every node (004 §3.3), in 004 §2's synchronous
// steps (step_program.h); node i's words live in slot i of the k-slot vector on every node:
//  - ring: `daisy-chain` (3.28): k - 1 steps, each node forwarding to its + neighbour the slot it received
//    in the step before (its own first);
//  - grid: `alternating` (3.31), (3.32): a daisy chain in every row, then one in every column carrying the
//    row's collected P slots (rows first: a row's slots are contiguous in the vector, node = x + P y; the
//    paper chains the columns first, which costs the same); `daisy-chain` (3.30): the ring embedded in the
//    grid (row y from x = -y round to x = -y - 1, then down one row: a Hamiltonian cycle of the wraparound
//    grid when P divides Q, every square grid, odd sides included; 004 says one exists when k is even, for
//    the grid without wraparound); `sequential-broadcast` (3.29): every node in turn broadcasts its slot
//    down (3.18)'s tree, pipelined;
//  - hypercube (3.33), reconstructed (the text gives only the time and cites [13]): each node's N/k words
//    in n parts; part j doubles dimension by dimension starting at dimension j (dimension (j + t) mod n in
//    step t), so every step uses every channel once; a step is two half-steps (the hypercube rule: a
//    channel reads or writes, not both), the node whose bit is 0 writing first. Part j's pieces collect in a
//    scratch buffer in the order of their origin's bits j, j+1, ..., so that what a node holds of a part is
//    always one contiguous range; at the end one local gather puts every piece into its slot (copies at
//    rho, outside the paper's model). Steps 2n, words 2 (k - 1) ceil(N / kn): (3.33)'s 2 n tau + 2N / (n b)
//    for large k.
#include "firmware/paper004/common.h"
#include "firmware/paper004/trees.h"
#include "firmware/paper004/workloads.h"

#include <cmath>
#include <functional>

#include "topology/config_error.h"

namespace meshmp {
namespace {

// The order of a Hamiltonian cycle of the P x Q wraparound grid (P divides Q): row y from x = -y.
std::vector<int> grid_cycle(const Topology& t) {
  const int p = t.dimension(0).size, q = t.dimension(1).size;
  if (q % p != 0)
    throw ConfigError("topology", t.spec(), "daisy-chain embeds a ring in the grid P x Q when P divides Q (" +
                                                std::to_string(p) + " does not divide " + std::to_string(q) + ")");
  std::vector<int> order;
  for (int y = 0; y < q; ++y)
    for (int j = 0; j < p; ++j) order.push_back(t.node_at({((j - y) % p + p) % p, y}));
  return order;
}

// A daisy chain round `cycle`: in step s node cycle[c] sends the slot it got in step s - 1 (its own at s = 0)
// to cycle[c + 1]. `slot_of(node)`: the first word of node's piece, `words` per piece.
void daisy_chain(SaadProgram& program, const std::vector<int>& cycle, std::size_t start,
                 const std::function<std::uint64_t(int)>& first_word, std::uint64_t words, const SaadWords& w) {
  const int length = static_cast<int>(cycle.size());
  for (int s = 0; s + 1 < length; ++s)
    for (int c = 0; c < length; ++c) {
      const int origin = cycle[((c - s) % length + length) % length];
      const std::uint32_t address = w.address(w.input_base, first_word(origin));
      program.at(start + s).push_back({cycle[c], cycle[(c + 1) % length], address, address,
                                       static_cast<std::uint32_t>(words * w.word_bytes)});
    }
}

SaadProgram build(const SaadContext& c) {
  const SaadWords& w = saad_words(c.workload);
  const Topology& t = c.topology;
  const int k = t.num_nodes();
  const std::uint64_t share = w.words / k;
  const std::string& m = c.method();
  SaadProgram program;
  if (c.machine == SaadMachine::Ring || m == "daisy-chain") {
    std::vector<int> cycle;
    if (c.machine == SaadMachine::Ring)
      for (int v = 0; v < k; ++v) cycle.push_back(v);
    else
      cycle = grid_cycle(t);
    daisy_chain(program, cycle, 0, [share](int v) { return v * share; }, share, w);
  } else if (m == "alternating") {
    const int p = t.dimension(0).size, q = t.dimension(1).size;
    for (int y = 0; y < q; ++y) {
      std::vector<int> row;
      for (int x = 0; x < p; ++x) row.push_back(t.node_at({x, y}));
      daisy_chain(program, row, 0, [share](int v) { return v * share; }, share, w);
    }
    for (int x = 0; x < p; ++x) {
      std::vector<int> column;
      for (int y = 0; y < q; ++y) column.push_back(t.node_at({x, y}));
      daisy_chain(program, column, static_cast<std::size_t>(p - 1),
                  [&t, share, p](int v) { return t.coordinate(v, 1) * p * share; }, p * share, w);
    }
  } else if (m == "sequential-broadcast") {
    const int hops = t.dimension(0).size / 2 + t.dimension(1).size / 2;
    program.packets = packets_option(c.options, share, hops, c.parameters);
    for (int root = 0; root < k; ++root) {
      const std::uint32_t slot = w.address(w.input_base, root * share);
      pipeline_down_tree(program, root, grid_tree(t, root, true, false), 0, share, program.packets,
                         {slot, slot, w.word_bytes}, program.steps.size());
    }
  } else {  // hypercube: n parts, rotated dimension orders, half-duplex doubling
    const int n = t.num_dimensions();
    const auto parts = cut_into_packets(0, share, n);
    const std::uint32_t scratch = static_cast<std::uint32_t>(c.workload.scratch_base());
    // Part j's buffer: k pieces of parts[j].count words, piece of origin o at index rotr(o, j).
    std::vector<std::uint32_t> buffer(parts.size());
    std::uint64_t at = scratch;
    for (std::size_t j = 0; j < parts.size(); ++j) {
      buffer[j] = static_cast<std::uint32_t>(at);
      at += static_cast<std::uint64_t>(k) * parts[j].count * w.word_bytes;
    }
    program.scratch_bytes = at - scratch;
    auto index = [n](int origin, int j) { return ((origin >> j) | (origin << (n - j))) & ((1 << n) - 1); };
    auto piece = [&](std::size_t j, std::uint64_t i) {
      return buffer[j] + static_cast<std::uint32_t>(i * parts[j].count * w.word_bytes);
    };
    for (int v = 0; v < k; ++v)
      for (std::size_t j = 0; j < parts.size(); ++j) {
        const auto bytes = static_cast<std::uint32_t>(parts[j].count * w.word_bytes);
        program.initial_copies.push_back(
            {v, LocalCopy{piece(j, index(v, static_cast<int>(j))), w.address(w.input_base, v * share + parts[j].first), bytes}});
        for (int o = 0; o < k; ++o)
          if (o != v)
            program.final_copies.push_back(
                {v, LocalCopy{w.address(w.input_base, o * share + parts[j].first), piece(j, index(o, static_cast<int>(j))), bytes}});
      }
    for (int step = 0; step < n; ++step)
      for (int half = 0; half < 2; ++half)
        for (int v = 0; v < k; ++v)
          for (std::size_t j = 0; j < parts.size(); ++j) {
            const int d = static_cast<int>((j + step) % n);
            if (((v >> d) & 1) != half) continue;  // half 0: bit 0 writes; half 1: bit 1 writes
            const std::uint64_t held = std::uint64_t{1} << step;  // pieces held: one contiguous range
            const std::uint64_t first = (static_cast<std::uint64_t>(index(v, static_cast<int>(j))) >> step) << step;
            const std::uint32_t address = piece(j, first);
            program.at(2 * step + half).push_back(
                {v, v ^ (1 << d), address, address, static_cast<std::uint32_t>(held * parts[j].count * w.word_bytes)});
          }
  }
  return program;
}

SaadFormula formula(const SaadContext& c, const SaadProgram& program) {
  const SaadWords& w = saad_words(c.workload);
  const Topology& t = c.topology;
  const double k = t.num_nodes(), n = static_cast<double>(w.words);
  const double share = std::ceil(n / k);
  const std::string& m = c.method();
  SaadFormula f;
  if (c.machine == SaadMachine::Ring) {
    f.startups = k - 1;
    f.words = (k - 1) * share;
    f.text = "(3.28): (k - 1)(N / (k b) + tau)";
  } else if (m == "daisy-chain") {
    f.startups = k - 1;
    f.words = (k - 1) * share;
    f.text = "(3.30): (k - 1)(N / (k b) + tau)";
  } else if (m == "alternating") {
    const double p = t.dimension(0).size, q = t.dimension(1).size;
    f.startups = (p - 1) + (q - 1);
    f.words = (p - 1) * share + (q - 1) * p * share;
    f.text = "(3.31): (sqrt(k) - 1)(N / (sqrt(k) b)(1 + 1 / sqrt(k)) + 2 tau), rows then columns";
  } else if (m == "sequential-broadcast") {
    const int hops = t.dimension(0).size / 2 + t.dimension(1).size / 2;
    const SaadFormula one = pipelined_formula(static_cast<std::uint64_t>(share), hops, program.packets);
    f.startups = k * one.startups;
    f.words = k * one.words;
    f.exact = one.exact;
    f.text = "(3.29): k (nu - 1 + i)(tau + N / (k nu b)), i = " + std::to_string(hops) +
             ", nu = " + std::to_string(program.packets);
  } else {
    const double dims = t.num_dimensions();
    f.startups = 2 * dims;
    f.words = 2 * n / dims;
    f.exact = false;
    f.text = "(3.33): 2 log2(k) tau + 2 N / (log2(k) b), for large k";
  }
  return f;
}

}  // namespace

std::vector<SaadAlgorithmSpec> saad_all_to_all_specs() {
  SaadAlgorithmSpec s;
  s.name = "saad-all-to-all-broadcast";
  s.summary = "every node's N/k words to every node: daisy chains, alternating directions, rotated doubling";
  s.source = "004 §3.3 (3.26)-(3.35)";
  s.workload = "all-to-all-broadcast";
  const auto ring = SaadMachine::Ring, grid = SaadMachine::Grid, cube = SaadMachine::Hypercube;
  const auto bus = SaadMachine::Bus, memory = SaadMachine::SharedMemory, omega = SaadMachine::Switch;
  s.methods = {{"alternating", {grid}}, {"broadcast-each", {bus}}, {"write-then-read", {memory}},
               {"doubling", {omega}}, {"daisy-chain", {ring, grid, omega}}, {"sequential-broadcast", {grid}},
               {"rotated-doubling", {cube}}};
  s.build = build;
  s.formula = formula;
  s.pipelined = true;
  return {s};
}

}  // namespace meshmp
