// The channel dependency graph. See channel_dependencies.h.
#include "hw/router/channel_dependencies.h"

#include <tuple>

#include "hw/router/routing_unit.h"

namespace meshmp {

namespace {

class DependencyGraph {
 public:
  DependencyGraph(const Topology& topology, int classes)
      : topology_(topology),
        ports_(topology.num_ports()),
        classes_(classes),
        words_((ports_ * classes_ + 63) / 64),
        used_(static_cast<std::size_t>(topology.num_nodes()) * ports_ * classes_, false),
        next_(used_.size() * words_, 0) {}

  int channel(int node, int port, int cls) const { return (node * ports_ + port) * classes_ + cls; }
  void use(int c) { used_[c] = true; }
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
        const int node = c / (ports_ * classes_), port = (c / classes_) % ports_;
        const int next_node = topology_.neighbor(node, port);
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

  std::string name(int c) const {
    const int node = c / (ports_ * classes_), port = (c / classes_) % ports_, cls = c % classes_;
    return "node " + std::to_string(node) + " " + topology_.coordinates_text(node) + " " + port_name(topology_, port) +
           (classes_ > 1 ? " class " + std::to_string(cls) : "");
  }

 private:
  const Topology& topology_;
  int ports_, classes_, words_;
  std::vector<bool> used_;
  std::vector<std::uint64_t> next_;  // per channel, a bit per (port, class) of the next node
  std::uint64_t dependencies_ = 0;
};

}  // namespace

std::string ChannelDependencyReport::summary() const {
  std::string text = "channel dependency graph: " + std::to_string(channels) + " channels, " +
                     std::to_string(dependencies) + " dependencies over " + std::to_string(routes) + " routes: ";
  if (acyclic()) return text + "acyclic, deadlock-free (Dally & Seitz)";
  text += "a cycle of " + std::to_string(cycle.size()) + " channels, the configuration can deadlock: ";
  for (std::size_t i = 0; i < cycle.size(); ++i) text += (i ? " -> " : "") + cycle[i];
  return text + " -> " + cycle.front();
}

ChannelDependencyReport check_channel_dependencies(const Topology& topology, const RouterParams& params,
                                                   PortModel port_model, RoutingFunction routing) {
  const int classes = params.dateline && topology.has_rings() ? 2 : 1;
  DependencyGraph graph(topology, classes);
  std::vector<RoutingUnit> units;
  for (int node = 0; node < topology.num_nodes(); ++node) units.emplace_back(node, topology, params, port_model, routing);
  const int net_ports = topology.num_ports();
  auto channel_of = [&](int node, const RouteDecision& d) {
    return graph.channel(node, d.out_port, classes > 1 && d.vc_class == 1 ? 1 : 0);
  };
  ChannelDependencyReport report;
  // Adaptive walks: per channel held (+1: none yet), the walk that last visited it.
  std::vector<std::uint32_t> visited(static_cast<std::size_t>(topology.num_nodes()) * net_ports * classes + 1, 0);
  std::uint32_t walk = 0;
  for (int src = 0; src < topology.num_nodes(); ++src)
    for (int dst = 0; dst < topology.num_nodes(); ++dst) {
      if (src == dst) continue;
      ++report.routes;
      Flit head;
      head.head = true;
      head.dst = dst;
      if (params.adaptive_routing == nullptr) {
        int held = -1;
        for (int node = src; node != dst;) {
          const RouteDecision d = units[node].compute(head, net_ports);
          if (d.out_port >= net_ports) break;
          const int c = channel_of(node, d);
          graph.use(c);
          if (held >= 0) graph.depend(held, c);
          held = c;
          head.vc_class = d.vc_class;
          head.ring_dimension = d.ring_dimension;
          node = topology.neighbor(node, d.out_port);
        }
        continue;
      }
      // Every route the choices allow: depth-first over the channel held (which fixes the node reached and
      // the head's class and ring), each visited once per route.
      ++walk;
      std::vector<std::tuple<int, int, std::uint8_t, std::uint8_t>> stack{{src, -1, 0, kNoPort}};
      while (!stack.empty()) {
        const auto [node, held, vc_class, ring_dimension] = stack.back();
        stack.pop_back();
        if (node == dst || visited[held + 1] == walk) continue;
        visited[held + 1] = walk;
        head.vc_class = vc_class;
        head.ring_dimension = ring_dimension;
        RouteChoices choices;
        units[node].adaptive_choices(head, src, choices);
        for (int k = 0; k < choices.count; ++k) {
          const RouteDecision d = units[node].to_output(head, choices.ports[k]);
          const int c = channel_of(node, d);
          graph.use(c);
          if (held >= 0) graph.depend(held, c);
          stack.push_back({topology.neighbor(node, d.out_port), c, d.vc_class, d.ring_dimension});
        }
      }
    }
  report.channels = graph.channels();
  report.dependencies = graph.dependencies();
  for (int c : graph.find_cycle()) report.cycle.push_back(graph.name(c));
  return report;
}

}  // namespace meshmp
