// Paper 004's synchronous-step machine model run by every node. See step_program.h.
#include "firmware/paper004/step_program.h"

#include <algorithm>
#include <cmath>
#include <queue>

#include "topology/config_error.h"

namespace meshmp {

namespace {

// Appends entry `index` of a copy list to a node's runs of it.
void extend(std::vector<SaadNodePart::Run>& runs, std::uint32_t index) {
  if (!runs.empty() && runs.back().first + runs.back().count == index) ++runs.back().count;
  else runs.push_back({index, 1});
}

// The pieces of `runs` in `list`, in order: one local_copies operation (rho per byte of them all).
void copy_runs(NodeApi& api, const std::vector<std::pair<int, LocalCopy>>& list, const SaadNodePart::Run* runs,
               std::size_t count, std::vector<LocalCopy>& pieces) {
  pieces.clear();
  for (std::size_t r = 0; r < count; ++r)
    for (std::uint32_t k = runs[r].first; k < runs[r].first + runs[r].count; ++k) pieces.push_back(list[k].second);
  if (!pieces.empty()) api.local_copies(pieces);
}

}  // namespace

std::vector<SaadNodePart> node_parts(const SaadProgram& program, int nodes) {
  std::vector<SaadNodePart> parts(static_cast<std::size_t>(nodes));
  auto part = [&](int node) -> SaadNodePart& { return parts.at(static_cast<std::size_t>(node)); };
  for (std::size_t k = 0; k < program.initial_copies.size(); ++k)
    extend(part(program.initial_copies[k].first).initial_copies, static_cast<std::uint32_t>(k));
  for (std::size_t k = 0; k < program.final_copies.size(); ++k)
    extend(part(program.final_copies[k].first).final_copies, static_cast<std::uint32_t>(k));
  using Action = SaadNodePart::Action;
  for (std::size_t s = 0; s < program.steps.size(); ++s) {
    const auto step = static_cast<std::uint32_t>(s);
    if (s < program.step_copies.size())
      for (std::size_t k = 0; k < program.step_copies[s].size(); ++k) {
        std::vector<SaadNodePart::StepAction>& actions = part(program.step_copies[s][k].first).actions;
        const auto index = static_cast<std::uint32_t>(k);
        if (!actions.empty() && actions.back().step == step && actions.back().action == Action::Copies &&
            actions.back().at.first + actions.back().at.count == index)
          ++actions.back().at.count;
        else
          actions.push_back({step, Action::Copies, {index, 1}});
      }
    const std::vector<SaadTransfer>& transfers = program.steps[s];
    for (std::size_t k = 0; k < transfers.size(); ++k) {
      const SaadTransfer& t = transfers[k];
      const SaadNodePart::Run at{static_cast<std::uint32_t>(k), 1};
      if (t.kind == SaadTransferKind::Message) part(t.to).actions.push_back({step, Action::Receive, at});
      if (t.kind == SaadTransferKind::Broadcast)
        for (int v = 0; v < nodes; ++v)
          if (v != t.from) parts[static_cast<std::size_t>(v)].actions.push_back({step, Action::Receive, at});
    }
    for (std::size_t k = 0; k < transfers.size(); ++k) {
      const SaadTransfer& t = transfers[k];
      const SaadNodePart::Run at{static_cast<std::uint32_t>(k), 1};
      part(t.kind == SaadTransferKind::SharedRead ? t.to : t.from).actions.push_back({step, Action::Start, at});
    }
  }
  return parts;
}

void run_saad_program(NodeApi& api, const SaadProgram& program, const SaadNodePart& part) {
  const int me = api.id();
  const bool barrier = api.options().text("sync") == "barrier";
  using Action = SaadNodePart::Action;
  std::vector<LocalCopy> pieces;
  copy_runs(api, program.initial_copies, part.initial_copies.data(), part.initial_copies.size(), pieces);
  auto next = part.actions.begin();
  std::vector<SaadNodePart::Run> step_runs;
  for (std::size_t s = 0; s < program.steps.size(); ++s) {
    api.begin_step(static_cast<int>(s));
    const auto tag = static_cast<std::uint32_t>(s);
    step_runs.clear();
    for (; next != part.actions.end() && next->step == s && next->action == Action::Copies; ++next)
      step_runs.push_back(next->at);
    if (!step_runs.empty()) copy_runs(api, program.step_copies[s], step_runs.data(), step_runs.size(), pieces);
    for (; next != part.actions.end() && next->step == s; ++next) {
      const SaadTransfer& t = program.steps[s][next->at.first];
      if (next->action == Action::Receive) {
        api.receive(t.from, t.to_address, t.bytes, tag);
        continue;
      }
      if (t.kind == SaadTransferKind::SharedRead) api.shared_read(t.to_address, t.from_address, t.bytes, t.pieces);
      if (t.from != me) continue;
      if (t.kind == SaadTransferKind::Message) api.send(t.to, t.from_address, t.bytes, tag);
      if (t.kind == SaadTransferKind::Broadcast) api.broadcast(t.from_address, t.bytes, tag);
      if (t.kind == SaadTransferKind::SharedWrite) api.shared_write(t.to_address, t.from_address, t.bytes, t.pieces);
    }
    api.wait_all();
    if (barrier && program.barrier_after(s)) api.hardware_barrier();
  }
  copy_runs(api, program.final_copies, part.final_copies.data(), part.final_copies.size(), pieces);
}

SaadCounts saad_counts(const SaadProgram& program, std::uint32_t unit_bytes) {
  SaadCounts counts;
  for (const auto& step : program.steps) {
    if (step.empty()) continue;
    std::uint32_t largest = 0;
    for (const SaadTransfer& t : step) largest = std::max(largest, t.bytes);
    ++counts.steps;
    counts.units += (largest + unit_bytes - 1) / unit_bytes;
  }
  return counts;
}

std::string port_rule_violation(const Topology& topology, PortRule rule, const SaadProgram& program) {
  PortRuleMonitor monitor(topology, rule);
  for (std::size_t s = 0; s < program.steps.size(); ++s)
    for (const SaadTransfer& t : program.steps[s])
      if (t.kind == SaadTransferKind::Message)
        if (auto broken = monitor.record(static_cast<int>(s), t.from, t.to)) return *broken;
  return "";
}

std::vector<WordPacket> cut_into_packets(std::uint64_t first, std::uint64_t count, int packets) {
  std::vector<WordPacket> cut;
  const auto p = static_cast<std::uint64_t>(std::max(1, packets));
  std::uint64_t at = first;
  for (std::uint64_t i = 0; i < p; ++i) {
    const std::uint64_t size = count / p + (i < count % p ? 1 : 0);
    if (size == 0) continue;
    cut.push_back({at, size});
    at += size;
  }
  return cut;
}

void pipeline_along_path(SaadProgram& program, const std::vector<int>& path, std::uint64_t first, std::uint64_t count,
                         int packets, const WordPlaces& places, std::size_t start) {
  std::vector<std::vector<int>> children;
  int max_node = 0;
  for (int v : path) max_node = std::max(max_node, v);
  children.resize(static_cast<std::size_t>(max_node) + 1);
  for (std::size_t h = 0; h + 1 < path.size(); ++h) children[path[h]].push_back(path[h + 1]);
  pipeline_down_tree(program, path.front(), children, first, count, packets, places, start);
}

void pipeline_down_tree(SaadProgram& program, int root, const std::vector<std::vector<int>>& children,
                        std::uint64_t first, std::uint64_t count, int packets, const WordPlaces& places,
                        std::size_t start) {
  const std::vector<WordPacket> cut = cut_into_packets(first, count, packets);
  // Breadth first from the root: each node with its depth.
  std::queue<std::pair<int, std::size_t>> frontier;
  frontier.push({root, 0});
  while (!frontier.empty()) {
    const auto [node, depth] = frontier.front();
    frontier.pop();
    if (static_cast<std::size_t>(node) >= children.size()) continue;
    for (int child : children[node]) {
      for (std::size_t p = 0; p < cut.size(); ++p) {
        SaadTransfer t;
        t.from = node;
        t.to = child;
        const std::uint32_t from_base = node == root ? places.source_base : places.relay_base;
        t.from_address = from_base + static_cast<std::uint32_t>(cut[p].first * places.word_bytes);
        t.to_address = places.relay_base + static_cast<std::uint32_t>(cut[p].first * places.word_bytes);
        t.bytes = static_cast<std::uint32_t>(cut[p].count * places.word_bytes);
        program.at(start + p + depth).push_back(t);
      }
      frontier.push({child, depth + 1});
    }
  }
}

double pipelined_cycles(std::uint64_t words, int hops, int packets, double tau, double b) {
  const double per_packet = std::ceil(static_cast<double>(words) / packets);
  return (packets - 1 + hops) * (tau + per_packet / b);
}

int best_packets(std::uint64_t words, int hops, double tau, double b) {
  if (words <= 1 || hops <= 1) return 1;
  const double optimum = tau > 0 ? std::sqrt((hops - 1) * static_cast<double>(words) / (b * tau))
                                 : static_cast<double>(words);
  const auto clamp = [words](double nu) {
    return static_cast<int>(std::min<double>(std::max(1.0, nu), static_cast<double>(std::min<std::uint64_t>(words, 1u << 20))));
  };
  const int low = clamp(std::floor(optimum)), high = clamp(std::ceil(optimum));
  return pipelined_cycles(words, hops, high, tau, b) < pipelined_cycles(words, hops, low, tau, b) ? high : low;
}

double pipelined_optimum_cycles(double words, int hops, double tau, double b) {
  const double root = std::sqrt(words / b) + std::sqrt(std::max(0, hops - 1) * tau);
  return root * root;
}

double words_per_cycle(const ExchangeParameters& parameters) {
  return static_cast<double>(parameters.flit_bytes) / parameters.block_bytes;
}

int packets_option(const AlgorithmOptions& options, std::uint64_t words, int hops, const ExchangeParameters& parameters) {
  const std::int64_t given = options.integer("packets");
  if (given == 0) return best_packets(words, hops, static_cast<double>(parameters.startup_cycles), words_per_cycle(parameters));
  if (static_cast<std::uint64_t>(given) > std::max<std::uint64_t>(1, words))
    throw ConfigError("algorithm_options.packets", std::to_string(given),
                      "at most the " + std::to_string(words) + " words each path carries (a packet holds a whole word)");
  return static_cast<int>(given);
}

}  // namespace meshmp
