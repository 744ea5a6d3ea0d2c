// The channel dependency graph. See channel_dependencies.h.
#include "hw/router/channel_dependencies.h"

#include <tuple>

#include "hw/router/minimal_adaptive.h"
#include "hw/router/routing_unit.h"
#include "hw/router/two_phase_routing.h"

namespace meshmp {

namespace {

// Channels are (node, output port, first VC of the range a route takes there): each distinct VC range a
// routing rule gives (the dateline classes, the escape and adaptive VCs, the phases) is a channel of its own.
class DependencyGraph {
 public:
  DependencyGraph(const Topology& topology, int classes)
      : topology_(topology),
        ports_(topology.num_ports()),
        classes_(classes),
        words_((ports_ * classes_ + 63) / 64),
        used_(static_cast<std::size_t>(topology.num_nodes()) * ports_ * classes_, false),
        vc_end_(used_.size(), 0),
        next_(used_.size() * words_, 0) {}

  int channel(int node, const RouteDecision& d) const { return (node * ports_ + d.out_port) * classes_ + d.vc_begin; }
  void use(int c, const RouteDecision& d) {
    used_[c] = true;
    vc_end_[c] = static_cast<std::uint8_t>(d.vc_end);
  }
  // A packet holding `from` asks for `to` (a channel of the next node).
  void depend(int from, int to) {
    const int local = to % (ports_ * classes_);
    std::uint64_t& word = next_[static_cast<std::size_t>(from) * words_ + local / 64];
    const std::uint64_t bit = 1ull << (local % 64);
    if ((word & bit) == 0) ++dependencies_;
    word |= bit;
  }
  std::uint64_t dependencies() const { return dependencies_; }
  std::uint64_t channels() const {
    std::uint64_t n = 0;
    for (bool u : used_) n += u;
    return n;
  }
  int node_of(int c) const { return c / (ports_ * classes_); }
  int port_of(int c) const { return (c / classes_) % ports_; }
  int first_vc(int c) const { return c % classes_; }

  // A cycle, or empty: depth-first, iteratively, with the path kept to name the cycle.
  std::vector<int> find_cycle() const {
    const int n = static_cast<int>(used_.size());
    std::vector<std::uint8_t> state(n, 0);  // 0 unvisited, 1 on the path, 2 done
    for (int root = 0; root < n; ++root) {
      if (!used_[root] || state[root] != 0) continue;
      std::vector<std::pair<int, int>> path{{root, 0}};  // (channel, next successor index to try)
      state[root] = 1;
      while (!path.empty()) {
        auto& [c, k] = path.back();
        const int next_node = topology_.neighbor(node_of(c), port_of(c));
        int successor = -1;
        for (; k < ports_ * classes_ && successor < 0; ++k)
          if (next_[static_cast<std::size_t>(c) * words_ + k / 64] >> (k % 64) & 1) successor = next_node * ports_ * classes_ + k;
        if (successor < 0) {
          state[c] = 2;
          path.pop_back();
          continue;
        }
        if (state[successor] == 1) {
          std::vector<int> cycle;
          for (std::size_t i = 0; i < path.size(); ++i)
            if (path[i].first == successor || !cycle.empty()) cycle.push_back(path[i].first);
          return cycle;
        }
        if (state[successor] == 0) {
          state[successor] = 1;
          path.push_back({successor, 0});
        }
      }
    }
    return {};
  }

  // "node 5 (1,1) d0+", and the VCs when the channel is not all of them: " vc 1" or " vcs 2-3".
  std::string name(int c) const {
    const int node = node_of(c), first = first_vc(c), end = vc_end_[c];
    std::string text = "node " + std::to_string(node) + " " + topology_.coordinates_text(node) + " " +
                       port_name(topology_, port_of(c));
    if (first == 0 && end == classes_) return text;
    return text + (end - first == 1 ? " vc " + std::to_string(first)
                                    : " vcs " + std::to_string(first) + "-" + std::to_string(end - 1));
  }

 private:
  const Topology& topology_;
  int ports_, classes_, words_;
  std::vector<bool> used_;
  std::vector<std::uint8_t> vc_end_;  // per channel, one past its last VC
  std::vector<std::uint64_t> next_;  // per channel, a bit per (port, first VC) of the next node
  std::uint64_t dependencies_ = 0;
};

}  // namespace

std::string ChannelDependencyReport::summary() const {
  std::string text = "channel dependency graph: " + std::to_string(channels) + " channels, " +
                     std::to_string(dependencies) + " dependencies over " + std::to_string(routes) + " routes: ";
  if (escape_channels > 0)
    text += "the escape channels' graph (Duato): " + std::to_string(escape_channels) + " channels, " +
            std::to_string(escape_dependencies) + " dependencies: ";
  if (acyclic()) return text + (escape_channels > 0 ? "acyclic, deadlock-free (Duato)" : "acyclic, deadlock-free (Dally & Seitz)");
  text += "a cycle of " + std::to_string(cycle.size()) + " channels, the configuration can deadlock: ";
  for (std::size_t i = 0; i < cycle.size(); ++i) text += (i ? " -> " : "") + cycle[i];
  return text + " -> " + cycle.front();
}

ChannelDependencyReport check_channel_dependencies(const Topology& topology, const RouterParams& params,
                                                   PortModel port_model, RoutingFunction routing) {
  DependencyGraph graph(topology, params.vcs);
  // Duato's condition, for a function with escape channels: the escape channels' own graph is acyclic.
  const bool duato = params.adaptive() && params.routing_function->escape_channels && params.escape_channels;
  DependencyGraph escape_graph(topology, duato ? params.vcs : 1);
  std::vector<RoutingUnit> units;
  for (int node = 0; node < topology.num_nodes(); ++node) units.emplace_back(node, topology, params, port_model, routing);
  const int net_ports = topology.num_ports();
  ChannelDependencyReport report;
  // A route takes the channel `d` gives at `node` (after `held`, -1: none yet): the next node, or -1 when
  // `d` ejects. The head's state as the next router reads it.
  const auto step = [&](int node, int& held, const RouteDecision& d, Flit& head) {
    if (d.out_port >= net_ports) return -1;
    const int c = graph.channel(node, d);
    graph.use(c, d);
    if (held >= 0) graph.depend(held, c);
    held = c;
    head.vc_class = d.vc_class;
    head.ring_dimension = d.ring_dimension;
    head.vc = static_cast<std::uint8_t>(d.vc_begin);
    return topology.neighbor(node, d.out_port);
  };
  // Per channel, the walk that last went on from it (a route's future from a channel is the same each time).
  const std::size_t channels = static_cast<std::size_t>(topology.num_nodes()) * net_ports * params.vcs;
  std::vector<std::uint32_t> visited(2 * channels, 0);  // adaptive walks: per channel and dateline class
  std::vector<std::uint32_t> visited_second_phase(params.two_phase() ? channels : 0, 0);
  std::uint32_t walk = 0, second_phase_walk = 0;
  const auto fresh_head = [](int dst) {
    Flit head;
    head.head = true;
    head.dst = dst;
    return head;
  };

  if (params.two_phase()) {
    // Every intermediate node of every route. From a channel held in phase 0 the rest of the route depends
    // on the intermediate node and the destination, in phase 1 on the destination alone.
    const IntermediateRange range = units[0].intermediates();
    for (int dst = 0; dst < topology.num_nodes(); ++dst) {
      ++second_phase_walk;
      for (int intermediate = 0; intermediate < topology.num_nodes(); ++intermediate) {
        ++walk;
        for (int src = 0; src < topology.num_nodes(); ++src) {
          if (src == dst || !is_intermediate(topology, range, src, dst, intermediate)) continue;
          ++report.routes;
          Flit head = fresh_head(dst);
          int held = -1, in_port = net_ports;
          for (int node = src; node >= 0;) {
            const RouteDecision d = units[node].compute_two_phase(head, in_port, intermediate);
            const int next = step(node, held, d, head);
            if (next < 0) break;
            auto& seen = two_phase_phase(head) == 0 ? visited[held] : visited_second_phase[held];
            const std::uint32_t id = two_phase_phase(head) == 0 ? walk : second_phase_walk;
            if (seen == id) break;
            seen = id;
            in_port = topology.reverse_port(d.out_port);
            node = next;
          }
        }
      }
    }
  } else {
    for (int src = 0; src < topology.num_nodes(); ++src)
      for (int dst = 0; dst < topology.num_nodes(); ++dst) {
        if (src == dst) continue;
        ++report.routes;
        if (!params.adaptive()) {
          Flit head = fresh_head(dst);
          int held = -1;
          for (int node = src; node >= 0;) node = step(node, held, units[node].compute(head, net_ports), head);
          continue;
        }
        // Every route the choices allow: depth-first over the channel held and the head's dateline class
        // (which fix the node reached and everything the head's next choices read: its ring, its VC), each
        // gone on from once per route.
        ++walk;
        struct Reached {
          int node, held;
          Flit head;
        };
        std::vector<Reached> stack{{src, -1, fresh_head(dst)}};
        while (!stack.empty()) {
          const Reached r = stack.back();
          stack.pop_back();
          if (r.node < 0 || r.node == dst) continue;
          if (r.held >= 0) {
            std::uint32_t& seen = visited[2 * static_cast<std::size_t>(r.held) + (r.head.vc_class & 1)];
            if (seen == walk) continue;
            seen = walk;
          }
          RouteChoices choices;
          units[r.node].adaptive_choices(r.head, r.held < 0 ? net_ports : 0, src, choices);
          for (int k = 0; k < choices.count; ++k) {
            Reached next{r.node, r.held, r.head};
            const RouteDecision d = units[r.node].to_output(r.head, choices.ports[k], choices.vc_sets[k]);
            if (choices.vc_sets[k] == VcSet::Escape) {
              // Duato's extended graph of the escape channels: the escape channel a packet last held (it keeps
              // to them once on one, so only a direct dependency) to this one.
              const int c = escape_graph.channel(r.node, d);
              escape_graph.use(c, d);
              if (r.held >= 0 && r.head.vc < escape_vcs(topology, params.dateline)) escape_graph.depend(r.held, c);
            }
            next.node = step(r.node, next.held, d, next.head);
            stack.push_back(next);
          }
        }
      }
  }
  report.channels = graph.channels();
  report.dependencies = graph.dependencies();
  const DependencyGraph& decisive = duato ? escape_graph : graph;
  if (duato) {
    report.escape_channels = escape_graph.channels();
    report.escape_dependencies = escape_graph.dependencies();
  }
  for (int c : decisive.find_cycle()) report.cycle.push_back(decisive.name(c));
  return report;
}

}  // namespace meshmp
