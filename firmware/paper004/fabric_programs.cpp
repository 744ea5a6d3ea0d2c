// Paper 004 §3 on its shared-resource machines (§2 A broadcast bus, §2 B shared memory, §2 F switch), as
// step programs (step_program.h) the machines of tlm/ run: the bus's broadcasts, the shared memory's
// writes and reads, the switch's permutations. One function per operation builds the program for the
// method asked and one gives 004's expression for it. tau and b are this machine's (t_s + 1 + the fabric's
// start-up, the fabric's bytes per cycle in words); k* and the banks are the run's.
//  - one-to-one (§3.1): bus (3.1) and switch T_{1,S}: one message; shared memory (3.2): A writes, B reads.
//  - broadcast (§3.2): bus T_{2,B}: one broadcast; shared memory (3.15): the root writes, the k - 1 others
//    read (in ceil((k - 1) / k*) rounds of k* ports, which (3.15) counts as max(1, k / k*)); switch: the
//    ring embedding pipelined one way (3.22), recursive doubling by shifts of 2^i (3.23), a binary tree
//    pipelined left then right (3.24)-(3.25).
//  - all-to-all broadcast (§3.3): bus (3.26): every node broadcasts its N/k words in turn; shared memory:
//    every node writes its slot, then reads the whole vector (the expression the text derives: (N / (k b) +
//    tau) max(1, k / k*) + (N / b + tau) max(1, k / k*)); switch: the daisy chain of the ring embedding
//    (3.34) and the doubling of (3.35) (in step i every node reads the 2^i slots node j + 2^i collected).
//  - scatter (§3.4): bus (3.36): the root sends the k - 1 blocks one after the other; shared memory (3.37):
//    the root writes its N words, every other node reads its N/k; the switch runs the hypercube's (3.40)
//    schedule (scatter.cpp).
//  - gather (§3.4's dual): bus: the k - 1 others send to the root one after the other; shared memory: every
//    node writes its N/k words into the root's region, the root reads the N; the switch runs the
//    hypercube's reversed scatter (scatter.cpp);
//  - multiscatter (§3.5): bus T_{5,B}: every node broadcasts its N/k words in turn and each keeps its
//    block; shared memory (3.42): the matrix destination-major in the global memory, every node writing
//    its row as a strided column (one access) and reading its own row back (one access); or, for a DMA
//    without strided accesses (method block-by-block), every node writing its row and reading its k - 1
//    blocks one by one from the others' rows; the switch runs the hypercube's recursive exchange
//    (multiscatter.cpp).
// On the shared memory every phase runs in 004's rounds of at most k* accesses, each round a step of its own
// (in_rounds), so the schedule the machine measures counts rounds as (3.15) - (3.42) do; a barrier (sync =
// barrier) ends each phase, not each round: the k* ports pace the rounds.
// Data placement in the global memory: node i's region starts at i times the node's memory size (the
// machine's global memory holds one such region per node); a vector every node shares lies in node 0's.
#include "firmware/paper004/common.h"
#include "firmware/paper004/workloads.h"

#include <algorithm>
#include <cmath>

#include "topology/config_error.h"

namespace meshmp {
namespace {

using Kind = SaadTransferKind;

SaadTransfer message(int from, int to, std::uint32_t from_address, std::uint32_t to_address, std::uint32_t bytes) {
  return {from, to, from_address, to_address, bytes, Kind::Message};
}
SaadTransfer broadcast(int from, std::uint32_t from_address, std::uint32_t to_address, std::uint32_t bytes) {
  return {from, -1, from_address, to_address, bytes, Kind::Broadcast};
}
SaadTransfer shared_write(int node, std::uint32_t local, std::uint32_t global, std::uint32_t bytes) {
  return {node, -1, local, global, bytes, Kind::SharedWrite};
}
SaadTransfer shared_read(int node, std::uint32_t global, std::uint32_t local, std::uint32_t bytes) {
  return {-1, node, global, local, bytes, Kind::SharedRead};
}

// Where node i's region of the global memory starts.
std::uint32_t region(const SaadContext& c, int node) {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(node) * c.workload.memory_bytes());
}

double k_star(const SaadContext& c) { return std::max(1, c.parameters.concurrent_transfers); }
// 004's max(1, k / k*), and the rounds k* ports need for `accesses` at once.
double paper_rounds(const SaadContext& c, double accesses) { return std::max(1.0, accesses / k_star(c)); }
double rounds(const SaadContext& c, double accesses) { return std::ceil(accesses / k_star(c)); }

// 004's k*-limited rounds: the accesses of one phase, k* at a time in the order given, each round a step
// of its own from `first` with no barrier before the phase's last; returns the step after the last round.
std::size_t in_rounds(const SaadContext& c, SaadProgram& p, std::size_t first, const std::vector<SaadTransfer>& accesses) {
  const auto ports = static_cast<std::size_t>(k_star(c));
  const std::size_t end = first + (accesses.size() + ports - 1) / ports;
  for (std::size_t i = 0; i < accesses.size(); ++i) p.at(first + i / ports).push_back(accesses[i]);
  if (p.round_continues.size() < end) p.round_continues.resize(end, false);
  for (std::size_t s = first; s + 1 < end; ++s) p.round_continues[s] = true;
  return end;
}

int ring_at(int root, int h, int k) { return ((root + h) % k + k) % k; }

// The vector of N words that the all-to-all broadcast and the gather share out: node i's N/k words are
// slot i, at the same place in every node's memory.
struct VectorSlots {
  const SaadWords& w;
  std::uint64_t share;  // N/k words
  VectorSlots(const SaadWords& words, int k) : w(words), share(words.words / static_cast<std::uint64_t>(k)) {}
  std::uint32_t bytes() const { return static_cast<std::uint32_t>(share * w.word_bytes); }
  std::uint32_t address(int i) const { return w.address(w.input_base, static_cast<std::uint64_t>(i) * share); }
};

// ---------------------------------------------------------------------------------------------------------
// One-to-one

SaadProgram one_to_one(const SaadContext& c) {
  const SaadWords& w = saad_words(c.workload);
  const auto bytes = static_cast<std::uint32_t>(w.words * w.word_bytes);
  SaadProgram p;
  if (c.machine == SaadMachine::SharedMemory) {
    p.at(0).push_back(shared_write(w.source, w.input_base, region(c, w.source), bytes));
    p.at(1).push_back(shared_read(w.destination, region(c, w.source), w.output_base, bytes));
  } else {
    p.at(0).push_back(message(w.source, w.destination, w.input_base, w.output_base, bytes));
  }
  return p;
}

SaadFormula one_to_one_formula(const SaadContext& c) {
  const double n = static_cast<double>(saad_words(c.workload).words);
  SaadFormula f;
  if (c.machine == SaadMachine::SharedMemory) {
    f.startups = 2, f.words = 2 * n, f.text = "(3.2): 2 (N / b_M + tau_M)";
  } else {
    f.startups = 1, f.words = n;
    f.text = c.machine == SaadMachine::Bus ? "(3.1): N / b_B + tau_B" : "T_{1,S}: tau_S + N / b_S";
  }
  return f;
}

// ---------------------------------------------------------------------------------------------------------
// Broadcast

// The binary tree of (3.24) over the nodes in the order root, root + 1, ...: position r's children are
// positions 2r + 1 (left) and 2r + 2 (right). Every tree step is split into two passes (004 §3.2 F: a node
// "transmits it to its left child first then to its right child"): `pass_in_step` is 0 for a left child, 1
// for a right child. A heap of k = 2^n nodes puts position k - 1 alone on level n, under the left-child
// leaf at position k/2 - 1; that leaf receives in a left pass and sends nothing in the right pass after
// it, so position k - 1 takes its packets there (`pass_in_step` -1: the right pass of the step before its
// tree step) and the tree is as deep as (3.24)'s log2 k - 1 levels.
struct BroadcastHeap {
  std::vector<std::vector<int>> children;
  std::vector<int> pass_in_step;
  int levels = 0;  // tree steps from the root to the last node to receive
};

BroadcastHeap broadcast_heap(int root, int k) {
  BroadcastHeap heap;
  heap.children.resize(static_cast<std::size_t>(k));
  heap.pass_in_step.assign(static_cast<std::size_t>(k), 0);
  for (int r = 0; r < k; ++r)
    for (int child : {2 * r + 1, 2 * r + 2})
      if (child < k) {
        heap.children[ring_at(root, r, k)].push_back(ring_at(root, child, k));
        heap.pass_in_step[ring_at(root, child, k)] = child == 2 * r + 1 ? 0 : 1;
      }
  while ((2 << heap.levels) - 1 < k) ++heap.levels;  // the last position's depth, floor(log2 k)
  const bool lone_last = k >= 4 && (k & (k - 1)) == 0;
  if (lone_last) {
    heap.pass_in_step[ring_at(root, k - 1, k)] = -1;
    --heap.levels;
  }
  return heap;
}

// Places every tree step's transfers in their passes.
SaadProgram passes_of_tree(const SaadProgram& tree, const BroadcastHeap& heap) {
  SaadProgram p;
  p.packets = tree.packets;
  for (std::size_t s = 0; s < tree.steps.size(); ++s)
    for (const SaadTransfer& t : tree.steps[s]) p.at(static_cast<std::size_t>(2 * static_cast<long>(s) + heap.pass_in_step[t.to])).push_back(t);
  while (!p.steps.empty() && p.steps.back().empty()) p.steps.pop_back();
  return p;
}

SaadProgram broadcast_program(const SaadContext& c) {
  const SaadWords& w = saad_words(c.workload);
  const int k = c.topology.num_nodes(), root = w.source;
  const auto bytes = static_cast<std::uint32_t>(w.words * w.word_bytes);
  const WordPlaces places{w.input_base, w.output_base, w.word_bytes};
  SaadProgram p;
  // The root's own output: its input.
  p.initial_copies.push_back({root, LocalCopy{w.output_base, w.input_base, bytes}});
  if (c.machine == SaadMachine::Bus) {
    p.at(0).push_back(broadcast(root, w.input_base, w.output_base, bytes));
  } else if (c.machine == SaadMachine::SharedMemory) {
    p.at(0).push_back(shared_write(root, w.input_base, region(c, root), bytes));
    std::vector<SaadTransfer> reads;
    for (int v = 0; v < k; ++v)
      if (v != root) reads.push_back(shared_read(v, region(c, root), w.output_base, bytes));
    in_rounds(c, p, 1, reads);
  } else if (c.method() == "ring-pipeline") {
    std::vector<int> path;
    for (int h = 0; h < k; ++h) path.push_back(ring_at(root, h, k));
    p.packets = packets_option(c.options, w.words, k - 1, c.parameters);
    pipeline_along_path(p, path, 0, w.words, p.packets, places);
  } else if (c.method() == "doubling") {
    // Step i: every node at position r < 2^i sends to position r + 2^i (a shift by 2^i).
    for (int i = 0; (1 << i) < k; ++i)
      for (int r = 0; r < (1 << i) && r + (1 << i) < k; ++r)
        p.at(static_cast<std::size_t>(i))
            .push_back(message(ring_at(root, r, k), ring_at(root, r + (1 << i), k), r == 0 ? w.input_base : w.output_base,
                               w.output_base, bytes));
  } else {  // tree-pipeline
    const BroadcastHeap heap = broadcast_heap(root, k);
    SaadProgram tree;
    tree.packets = packets_option(c.options, w.words, heap.levels, c.parameters);
    pipeline_down_tree(tree, root, heap.children, 0, w.words, tree.packets, places);
    const auto copies = p.initial_copies;
    p = passes_of_tree(tree, heap);
    p.initial_copies = copies;
  }
  return p;
}

SaadFormula broadcast_formula(const SaadContext& c, const SaadProgram& program) {
  const double n = static_cast<double>(saad_words(c.workload).words), k = c.topology.num_nodes();
  SaadFormula f;
  if (c.machine == SaadMachine::Bus) {
    f.startups = 1, f.words = n, f.text = "T_{2,B}: N / b_B + tau_B";
  } else if (c.machine == SaadMachine::SharedMemory) {
    const double factor = 1 + paper_rounds(c, k);
    f.startups = factor, f.words = n * factor;
    // The k - 1 readers take ceil((k - 1) / k*) rounds; (3.15) counts max(1, k / k*).
    f.exact = rounds(c, k - 1) == paper_rounds(c, k);
    f.text = "(3.15): (N / b_M + tau_M)(1 + max(1, k / k*)), k* = " + std::to_string(c.parameters.concurrent_transfers);
  } else if (c.method() == "ring-pipeline") {
    f = pipelined_formula(saad_words(c.workload).words, static_cast<int>(k) - 1, program.packets);
    f.text = "(3.22) at nu: (nu - 1 + k - 1)(tau_S + N / (nu b_S)), nu = " + std::to_string(program.packets);
  } else if (c.method() == "doubling") {
    f.startups = std::ceil(std::log2(k)), f.words = n * f.startups, f.text = "(3.23): log2(k)(N / b_S + tau_S)";
  } else {
    const int nu = program.packets;
    // (3.24)'s time at nu: the first packet at the leaves after log2 k - 1 levels, two passes a level.
    f.startups = 2 * (std::log2(k) - 1 + nu - 1);
    f.words = f.startups * n / nu;
    // Exact from k = 4 (on 2 nodes the tree is one edge) when nu divides the words (whole-word packets).
    f.exact = k >= 4 && saad_words(c.workload).words % static_cast<std::uint64_t>(nu) == 0;
    f.text = "(3.24) at nu: 2 (log2 k - 1 + nu - 1)(N / (nu b_S) + tau_S), nu = " + std::to_string(nu);
  }
  return f;
}

// ---------------------------------------------------------------------------------------------------------
// All-to-all broadcast

SaadProgram all_to_all(const SaadContext& c) {
  const SaadWords& w = saad_words(c.workload);
  const int k = c.topology.num_nodes();
  const VectorSlots slots(w, k);
  const std::uint32_t slot_bytes = slots.bytes();
  auto slot = [&slots](int i) { return slots.address(i); };
  SaadProgram p;
  if (c.machine == SaadMachine::Bus) {
    for (int j = 0; j < k; ++j) p.at(static_cast<std::size_t>(j)).push_back(broadcast(j, slot(j), slot(j), slot_bytes));
  } else if (c.machine == SaadMachine::SharedMemory) {
    const auto all = static_cast<std::uint32_t>(w.words * w.word_bytes);
    std::vector<SaadTransfer> writes, reads;
    for (int j = 0; j < k; ++j) writes.push_back(shared_write(j, slot(j), region(c, 0) + slot(j) - w.input_base, slot_bytes));
    for (int j = 0; j < k; ++j) reads.push_back(shared_read(j, region(c, 0), w.input_base, all));
    in_rounds(c, p, in_rounds(c, p, 0, writes), reads);
  } else if (c.method() == "daisy-chain") {
    // (3.34): in step s every node j sends node j + 1 the slot it received in step s - 1 (first its own).
    for (int s = 0; s + 1 < k; ++s)
      for (int j = 0; j < k; ++j) {
        const int origin = ring_at(j, -s, k);
        p.at(static_cast<std::size_t>(s)).push_back(message(j, ring_at(j, 1, k), slot(origin), slot(origin), slot_bytes));
      }
  } else {  // doubling (3.35)
    // Node j collects slots j, j + 1, ... in order in a scratch buffer; in step i it reads the 2^i slots node
    // j + 2^i collected (the last step fewer when k is not a power of two), then puts them in place.
    const auto scratch = static_cast<std::uint32_t>(c.workload.scratch_base());
    p.scratch_bytes = w.words * w.word_bytes;
    for (int j = 0; j < k; ++j) p.initial_copies.push_back({j, LocalCopy{scratch, slot(j), slot_bytes}});
    int have = 1;
    for (int i = 0; have < k; ++i) {
      const int count = std::min(have, k - have);
      for (int j = 0; j < k; ++j)
        p.at(static_cast<std::size_t>(i))
            .push_back(message(ring_at(j, have, k), j, scratch, scratch + static_cast<std::uint32_t>(have) * slot_bytes,
                               static_cast<std::uint32_t>(count) * slot_bytes));
      have += count;
    }
    for (int j = 0; j < k; ++j) {
      // Scratch position q holds slot j + q: two runs, before and after the wrap.
      const int first_run = k - j;
      p.final_copies.push_back({j, LocalCopy{slot(j), scratch, static_cast<std::uint32_t>(first_run) * slot_bytes}});
      if (j > 0)
        p.final_copies.push_back(
            {j, LocalCopy{slot(0), scratch + static_cast<std::uint32_t>(first_run) * slot_bytes,
                          static_cast<std::uint32_t>(j) * slot_bytes}});
    }
  }
  return p;
}

SaadFormula all_to_all_formula(const SaadContext& c) {
  const double n = static_cast<double>(saad_words(c.workload).words), k = c.topology.num_nodes();
  SaadFormula f;
  if (c.machine == SaadMachine::Bus) {
    f.startups = k, f.words = n, f.text = "(3.26): N / b_B + k tau_B";
  } else if (c.machine == SaadMachine::SharedMemory) {
    const double r = paper_rounds(c, k);
    f.startups = 2 * r, f.words = (n / k + n) * r;
    f.exact = rounds(c, k) == r;
    f.text = "(3.27) as §3.3 B derives it: (N / (k b_M) + tau_M) max(1, k / k*) + (N / b_M + tau_M) max(1, k / k*), k* = " +
             std::to_string(c.parameters.concurrent_transfers);
  } else if (c.method() == "daisy-chain") {
    f.startups = k - 1, f.words = (k - 1) * n / k, f.text = "(3.34): (k - 1)(N / (k b_S) + tau_S)";
  } else {
    // log2 k steps of 1, 2, 4, ... slots: (k - 1) N / k words; (3.35) prints N / b_S + log2(k) tau_S.
    f.startups = std::ceil(std::log2(k)), f.words = (k - 1) * n / k;
    f.text = "(3.35) as derived: log2(k) tau_S + (k - 1) N / (k b_S) (printed: N / b_S + log2(k) tau_S)";
  }
  return f;
}

// ---------------------------------------------------------------------------------------------------------
// Scatter (bus, shared memory) and multiscatter (bus, shared memory)

SaadProgram scatter(const SaadContext& c) {
  const ExchangeLayout& l = *c.workload.block_layout();
  const int k = c.topology.num_nodes(), root = one_to_all_root(c.workload);
  const std::uint32_t m = l.block_bytes;
  SaadProgram p;
  p.initial_copies.push_back({root, LocalCopy{l.receive_block(root), l.send_block(root), m}});
  if (c.machine == SaadMachine::Bus) {
    for (int h = 1; h < k; ++h) {
      const int j = ring_at(root, h, k);
      p.at(static_cast<std::size_t>(h - 1)).push_back(message(root, j, l.send_block(j), l.receive_block(j), m));
    }
  } else {
    p.at(0).push_back(shared_write(root, l.send_block(0), region(c, root), l.buffer_bytes()));
    std::vector<SaadTransfer> reads;
    for (int j = 0; j < k; ++j)
      if (j != root) reads.push_back(shared_read(j, region(c, root) + l.send_block(j) - l.send_block(0), l.receive_block(j), m));
    in_rounds(c, p, 1, reads);
  }
  return p;
}

SaadFormula scatter_formula(const SaadContext& c) {
  const double k = c.topology.num_nodes();
  const double n = static_cast<double>(c.workload.block_layout()->block_bytes) * k / static_cast<double>(c.parameters.block_bytes);
  SaadFormula f;
  f.exact = false;
  if (c.machine == SaadMachine::Bus) {
    // k - 1 blocks leave the root; (3.36) counts k.
    f.startups = k, f.words = n, f.text = "(3.36): k tau_B + N / b_B (the root's own block never moves)";
  } else {
    const double r = paper_rounds(c, k);
    f.startups = k * (r + 1), f.words = n * (r + 1);
    f.text = "(3.37): (N / b_M + k tau_M)(max(1, k / k*) + 1), k* = " + std::to_string(c.parameters.concurrent_transfers) +
             " (approximate)";
  }
  return f;
}

// The gather (§3.4, the scatter's dual), with the vector's slot i node i's N/k words: on the bus the k - 1
// others send their slots to the root one after the other; on the shared memory every node writes its
// slot into the root's region, then the root reads the whole vector.
SaadProgram gather(const SaadContext& c) {
  const SaadWords& w = saad_words(c.workload);
  const int k = c.topology.num_nodes(), root = w.source;
  const VectorSlots slots(w, k);
  const std::uint32_t slot_bytes = slots.bytes();
  auto slot = [&slots](int i) { return slots.address(i); };
  SaadProgram p;
  if (c.machine == SaadMachine::Bus) {
    for (int h = 1; h < k; ++h) {
      const int j = ring_at(root, h, k);
      p.at(static_cast<std::size_t>(h - 1)).push_back(message(j, root, slot(j), slot(j), slot_bytes));
    }
  } else {
    std::vector<SaadTransfer> writes;
    for (int j = 0; j < k; ++j) writes.push_back(shared_write(j, slot(j), region(c, root) + slot(j) - w.input_base, slot_bytes));
    const std::size_t read_step = in_rounds(c, p, 0, writes);
    p.at(read_step).push_back(shared_read(root, region(c, root), w.input_base, static_cast<std::uint32_t>(w.words * w.word_bytes)));
  }
  return p;
}

SaadFormula gather_formula(const SaadContext& c) {
  const double k = c.topology.num_nodes(), n = static_cast<double>(saad_words(c.workload).words);
  SaadFormula f;
  if (c.machine == SaadMachine::Bus) {
    f.startups = k, f.words = n, f.exact = false;
    f.text = "(3.36) by duality: k tau_B + N / b_B (the root's own block never moves)";
  } else {
    const double r = paper_rounds(c, k);
    f.startups = r + 1, f.words = n / k * r + n;
    f.exact = rounds(c, k) == r;
    f.text = "§3.4 B's sum by duality: (N / (k b_M) + tau_M) max(1, k / k*) + N / b_M + tau_M, k* = " +
             std::to_string(c.parameters.concurrent_transfers);
  }
  return f;
}

SaadProgram multiscatter(const SaadContext& c) {
  const ExchangeLayout& l = *c.workload.block_layout();
  const int k = c.topology.num_nodes();
  const std::uint32_t m = l.block_bytes, row = l.buffer_bytes();
  const bool destination_major = c.machine == SaadMachine::SharedMemory && c.method() == "write-then-read";
  SaadProgram p;
  if (!destination_major)  // a node's own block stays where it is; destination-major, it goes round the memory
    for (int i = 0; i < k; ++i) p.initial_copies.push_back({i, LocalCopy{l.receive_block(i), l.send_block(i), m}});
  if (c.machine == SaadMachine::Bus) {
    // Step i: node i broadcasts its send buffer into every other node's scratch; each takes its block out
    // at the start of the next step (or at the end).
    const auto scratch = static_cast<std::uint32_t>(c.workload.scratch_base());
    p.scratch_bytes = row;
    p.step_copies.resize(static_cast<std::size_t>(k));
    for (int i = 0; i < k; ++i) {
      p.at(static_cast<std::size_t>(i)).push_back(broadcast(i, l.send_block(0), scratch, row));
      for (int j = 0; j < k; ++j) {
        if (j == i) continue;
        const LocalCopy take{l.receive_block(i), scratch + static_cast<std::uint32_t>(j) * m, m};
        if (i + 1 < k) p.step_copies[static_cast<std::size_t>(i + 1)].push_back({j, take});
        else p.final_copies.push_back({j, take});
      }
    }
  } else if (destination_major) {
    // §3.5 B: the matrix lies in the global memory destination-major (block (i, j) at j k m + i m, from
    // address 0): node i writes its k blocks in one strided access (pieces of m every k m), then node j
    // reads its k blocks, its own among them, in one contiguous access.
    const GlobalPieces column{m, row};
    std::vector<SaadTransfer> writes, reads;
    for (int i = 0; i < k; ++i) {
      writes.push_back(shared_write(i, l.send_block(0), static_cast<std::uint32_t>(i) * m, row));
      writes.back().pieces = column;
    }
    for (int j = 0; j < k; ++j) reads.push_back(shared_read(j, static_cast<std::uint32_t>(j) * row, l.receive_block(0), row));
    in_rounds(c, p, in_rounds(c, p, 0, writes), reads);
  } else {
    // block-by-block (a DMA without strided accesses): every node writes its row; then node j reads block
    // (i, j) of every other row i, starting with row j + 1 so that the k readers begin in different rows.
    std::vector<SaadTransfer> writes, reads;
    for (int i = 0; i < k; ++i) writes.push_back(shared_write(i, l.send_block(0), region(c, i), row));
    for (int s = 1; s < k; ++s)
      for (int j = 0; j < k; ++j) {
        const int i = ring_at(j, s, k);
        reads.push_back(shared_read(j, region(c, i) + static_cast<std::uint32_t>(j) * m, l.receive_block(i), m));
      }
    in_rounds(c, p, in_rounds(c, p, 0, writes), reads);
  }
  return p;
}

SaadFormula multiscatter_formula(const SaadContext& c) {
  const double k = c.topology.num_nodes();
  const double n = static_cast<double>(c.workload.block_layout()->block_bytes) * k * k / static_cast<double>(c.parameters.block_bytes);
  SaadFormula f;
  if (c.machine == SaadMachine::Bus) {
    f.startups = k, f.words = n, f.text = "T_{5,B}: k (tau_B + N / (k b_B))";
  } else {
    // (3.42): one write of N / k words and one read of N / k words per node, k* of them at a time. With
    // method=block-by-block the reads are k - 1 of N / k^2 words each: the equation is then no bound.
    const double r = paper_rounds(c, k);
    f.startups = 2 * r, f.words = 2 * n / k * r;
    f.exact = c.method() == "write-then-read" && rounds(c, k) == r;
    f.text = "(3.42): 2 (N / (b_M k) + tau_M) max(1, k / k*), k* = " + std::to_string(c.parameters.concurrent_transfers);
  }
  return f;
}

}  // namespace

SaadProgram fabric_program(const std::string& operation, const SaadContext& c) {
  if (operation == "one-to-one") return one_to_one(c);
  if (operation == "broadcast") return broadcast_program(c);
  if (operation == "all-to-all-broadcast") return all_to_all(c);
  if (operation == "scatter") return scatter(c);
  if (operation == "gather") return gather(c);
  if (operation == "multiscatter") return multiscatter(c);
  throw std::logic_error("no program for " + operation + " on the " + saad_machine_name(c.machine));
}

SaadFormula fabric_formula(const std::string& operation, const SaadContext& c, const SaadProgram& program) {
  if (operation == "one-to-one") return one_to_one_formula(c);
  if (operation == "broadcast") return broadcast_formula(c, program);
  if (operation == "all-to-all-broadcast") return all_to_all_formula(c);
  if (operation == "scatter") return scatter_formula(c);
  if (operation == "gather") return gather_formula(c);
  if (operation == "multiscatter") return multiscatter_formula(c);
  throw std::logic_error("no formula for " + operation + " on the " + saad_machine_name(c.machine));
}

}  // namespace meshmp
