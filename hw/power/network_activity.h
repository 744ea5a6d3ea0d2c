// The network's events between two moments, as the power model takes them (hw/power/network_power.h):
// snapshots of every router's buffer and crossbar counts and every link's flits, and their difference as
// channels (each link between routers, each node's injection and ejection channel) and routers.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "hw/network/interconnect.h"
#include "hw/power/network_power.h"

namespace meshmp {

struct ActivitySnapshot {
  std::uint64_t cycle = 0;
  std::vector<RouterActivity> routers;  // by node
  std::vector<LinkCount> links;         // as link_counts() gives them

  // The counts of a network of `shape`'s routers and links when it was built: cycle 0, no event.
  static ActivitySnapshot zero_like(const ActivitySnapshot& shape);
};

// The network's counts now; none at the transaction level, which has no routers to count events.
std::optional<ActivitySnapshot> snapshot_activity(const Interconnect& network);

// What happened between `from` and `to` (snapshots of `network`, `from` first), priced at a flit width
// of `channel_width_bits`. Each local port has an injection channel, which carried the flits written into
// it, and an ejection channel, which carried those that crossed to it (one of each per node, or per
// network direction with all-port nodes); both are one cycle long, the links between routers
// router.link_latency_cycles. `price_edge_channels`: each network port that leads nowhere (a mesh's edge)
// has an idle channel of a link's length too.
NetworkActivity activity_between(const Interconnect& network, const ActivitySnapshot& from, const ActivitySnapshot& to,
                                 int channel_width_bits, bool price_edge_channels);

}  // namespace meshmp
