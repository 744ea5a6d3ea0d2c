// The network's events between two snapshots. See network_activity.h.
#include "hw/power/network_activity.h"

#include <cstddef>

namespace meshmp {

std::optional<ActivitySnapshot> snapshot_activity(const Interconnect& network) {
  ActivitySnapshot snapshot;
  snapshot.cycle = network.current_cycle();
  const int nodes = network.topology().num_nodes();
  snapshot.routers.reserve(static_cast<std::size_t>(nodes));
  for (int node = 0; node < nodes; ++node) {
    std::optional<RouterActivity> activity = network.router_activity(node);
    if (!activity) return std::nullopt;
    snapshot.routers.push_back(std::move(*activity));
  }
  snapshot.links = network.link_counts();
  return snapshot;
}

ActivitySnapshot ActivitySnapshot::zero_like(const ActivitySnapshot& shape) {
  ActivitySnapshot zero;
  for (const RouterActivity& router : shape.routers) zero.routers.emplace_back(router.ports());
  zero.links = shape.links;
  for (LinkCount& link : zero.links) link.flits = 0;
  return zero;
}

NetworkActivity activity_between(const Interconnect& network, const ActivitySnapshot& from, const ActivitySnapshot& to,
                                 int channel_width_bits, bool price_edge_channels) {
  const RouterParams& router = network.params();
  NetworkActivity activity;
  activity.cycles = to.cycle - from.cycle;
  activity.channel_width_bits = channel_width_bits;
  activity.vcs = router.vcs;
  activity.buffer_flits = router.buffer_flits;
  for (std::size_t k = 0; k < to.links.size(); ++k)
    if (to.links[k].dst >= 0)
      activity.channels.push_back({router.link_latency_cycles, to.links[k].flits - from.links[k].flits});
  const Topology& topology = network.topology();
  const int net_ports = topology.num_ports();
  if (price_edge_channels)
    for (int node = 0; node < topology.num_nodes(); ++node)
      for (int port = 0; port < net_ports; ++port)
        if (topology.neighbor(node, port) < 0) activity.channels.push_back({router.link_latency_cycles, 0});
  for (std::size_t node = 0; node < to.routers.size(); ++node) {
    RouterActivity done = to.routers[node].since(from.routers[node]);
    for (int port = net_ports; port < done.ports(); ++port) {  // each local port's pair of channels
      std::uint64_t ejected = 0;
      for (int in = 0; in < done.ports(); ++in) ejected += done.traversals(in, port);
      activity.channels.push_back({1, done.buffer_writes(port)});
      activity.channels.push_back({1, ejected});
      activity.ejected_flits += ejected;
    }
    activity.routers.push_back(std::move(done));
  }
  return activity;
}

}  // namespace meshmp
