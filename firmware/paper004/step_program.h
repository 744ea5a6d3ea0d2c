// Paper 004's machine model (004 §2) as a program the nodes run: a sequence of synchronous steps, each
// moving messages between nearest neighbours (store-and-forward: a relay forwards what it received in an
// earlier step), at most one message per channel and direction. The programs are pure functions of the
// machine and the options, built by the saad-* algorithms and tested without a simulation; every node runs
// its part with run_saad_program (a step: begin_step, its copies, post the step's receives, start its
// sends, wait; with sync=barrier the machine's hardware barrier after every step, 004's synchronous step).
// Pipelining (004 §3.1 (C), (3.4)): data cut into nu packets follows a path or a tree one hop per step,
// packet p crossing the hop at depth d in step p + d.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "firmware/api/algorithm_options.h"
#include "firmware/api/exchange_parameters.h"
#include "firmware/api/node_api.h"
#include "firmware/api/port_rule.h"
#include "topology/topology.h"

namespace meshmp {

// What a transfer of a step is: a message between two nodes; on 004's broadcast bus (§2 A) one message
// from `from` to every other node (to = -1, every node receiving at `to_address`); on its shared-memory
// machine (§2 B) node `from` writing its local bytes to the global memory at `to_address` (to = -1), or
// node `to` reading the global memory at `from_address` into its local bytes (from = -1).
enum class SaadTransferKind { Message, Broadcast, SharedWrite, SharedRead };

// One transfer of a step: `bytes` from node `from`'s local `from_address` to node `to`'s `to_address`.
struct SaadTransfer {
  int from = 0;
  int to = 0;
  std::uint32_t from_address = 0;
  std::uint32_t to_address = 0;
  std::uint32_t bytes = 0;
  SaadTransferKind kind = SaadTransferKind::Message;
  GlobalPieces pieces{};  // a shared access's global end in pieces (strided); contiguous by default
};

struct SaadProgram {
  std::vector<std::vector<SaadTransfer>> steps;
  // Local copies a node makes before the first step and after the last (pieces into a staging buffer and
  // back into their places), per node; each node's are one local_copies operation (rho per byte).
  std::vector<std::pair<int, LocalCopy>> initial_copies;
  std::vector<std::pair<int, LocalCopy>> final_copies;
  // Per step, copies a node makes before its sends of the step (gathering a message's pieces).
  std::vector<std::vector<std::pair<int, LocalCopy>>> step_copies;
  // Scratch memory per node the program uses after the workload's regions (the busiest node's).
  std::uint64_t scratch_bytes = 0;
  // The packets per path the program pipelines with (nu of (3.4)); 0 when it does not pipeline.
  int packets = 0;
  // Steps after which their phase goes on: a round of the shared memory's k*-limited accesses (004 §2 B)
  // whose next round needs nothing it did, so no barrier follows it even with sync=barrier (the k* ports
  // alone pace the rounds).
  std::vector<bool> round_continues;

  bool barrier_after(std::size_t step) const { return step >= round_continues.size() || !round_continues[step]; }

  // Step `step`, created when absent.
  std::vector<SaadTransfer>& at(std::size_t step) {
    if (steps.size() <= step) steps.resize(step + 1);
    return steps[step];
  }
};

// What statistics.schedule will count of the program: the steps that move a message, and the sum of each
// such step's largest message in units of `unit_bytes` (rounded up).
struct SaadCounts {
  std::uint64_t steps = 0;
  std::uint64_t units = 0;
};
SaadCounts saad_counts(const SaadProgram& program, std::uint32_t unit_bytes);

// One node's part of a program, in the order run_saad_program takes it: its copies before the first step
// and after the last, and per step its copies, the transfers it receives and those it starts. Found for
// every node in one pass over the program (node_parts), so that a node runs in time proportional to its
// own transfers instead of reading every node's. It refers to the program's lists by index.
struct SaadNodePart {
  // Entries [first, first + count) of one of the program's copy lists: the node's pieces, in runs.
  struct Run {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
  };
  enum class Action : std::uint8_t { Copies, Receive, Start };
  struct StepAction {
    std::uint32_t step = 0;
    Action action = Action::Receive;
    Run at;  // Receive, Start: the transfer, at.first in its step; Copies: a run of the step's copies
  };
  std::vector<Run> initial_copies, final_copies;
  std::vector<StepAction> actions;  // by step; in a step its copies, then its receives, then its starts
};
std::vector<SaadNodePart> node_parts(const SaadProgram& program, int nodes);

// Runs node api.id()'s part of `program` (options: sync = none | barrier); `part` is node_parts' for it.
void run_saad_program(NodeApi& api, const SaadProgram& program, const SaadNodePart& part);

// The first node whose own schedule breaks `rule` in `program`, as the machine would report it; empty when
// it obeys the rule (the tests' check of a program before any run).
std::string port_rule_violation(const Topology& topology, PortRule rule, const SaadProgram& program);

// Words [first, first + count) of a piece of data, cut into `packets` packets as evenly as whole words
// allow (the first count % packets packets one word longer).
struct WordPacket {
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};
std::vector<WordPacket> cut_into_packets(std::uint64_t first, std::uint64_t count, int packets);

// Where the words of a pipelined piece live: at the source from `source_base`, at every other node of the
// path or tree from `relay_base` (word w at base + w * word_bytes).
struct WordPlaces {
  std::uint32_t source_base = 0;
  std::uint32_t relay_base = 0;
  std::uint32_t word_bytes = 0;
};

// Pipelines words [first, first + count) along `path` (path[0] the source) in `packets` packets from step
// `start`: packet p crosses hop h in step start + p + h (004 §3.1 (C)).
void pipeline_along_path(SaadProgram& program, const std::vector<int>& path, std::uint64_t first, std::uint64_t count,
                         int packets, const WordPlaces& places, std::size_t start = 0);
// Pipelines the same words down a tree (children[v]: v's children, the root's first): packet p crosses
// the edges out of a node at depth d in step start + p + d. Every node of the tree ends with the words.
void pipeline_down_tree(SaadProgram& program, int root, const std::vector<std::vector<int>>& children,
                        std::uint64_t first, std::uint64_t count, int packets, const WordPlaces& places,
                        std::size_t start = 0);

// 004 (3.4): the time of pipelining N words over i hops in nu packets, (nu - 1 + i)(tau + ceil(N / nu) / b),
// in cycles (tau = t_s cycles, b words per cycle), and the whole nu in [1, N] with the least such time
// among the two whole numbers around (3.4)'s nu_opt = sqrt((i - 1) N / (b tau)).
double pipelined_cycles(std::uint64_t words, int hops, int packets, double tau, double b);
int best_packets(std::uint64_t words, int hops, double tau, double b);
// 004 (3.5): the optimum time (sqrt(N / b) + sqrt((i - 1) tau))^2.
double pipelined_optimum_cycles(double words, int hops, double tau, double b);

// b of 004 §2 on this machine: words per cycle of one link (flit_bytes / word_bytes).
double words_per_cycle(const ExchangeParameters& parameters);

// The packets option: 0 (the default) picks best_packets for `words` over `hops`; otherwise it is checked
// against 1..words (FirmwareError naming the option otherwise).
int packets_option(const AlgorithmOptions& options, std::uint64_t words, int hops, const ExchangeParameters& parameters);

}  // namespace meshmp
