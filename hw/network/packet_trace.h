// A packet trace: the packets a run offered to its network, one per line of text, which `meshmp run
// --record-trace` writes and `meshmp traffic --trace` replays into the same source queues. The format:
//   # comments from '#' to the end of a line; blank lines are skipped
//   CYCLE SOURCE DESTINATION FLITS
// four whole numbers separated by spaces or tabs: the cycle the packet is created at (its message handed to
// the source), its source and destination nodes, and its length in flits with the head (1..4097). Cycles
// never decrease from one line to the next.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace meshmp {

struct TracePacket {
  std::uint64_t cycle = 0;
  int source = 0;
  int destination = 0;
  int flits = 1;
};

// The packets of `text`, read from `file`, for a network of `nodes` nodes; throws ConfigError naming the
// file, the line, the field and the rule it breaks.
std::vector<TracePacket> parse_packet_trace(const std::string& file, const std::string& text, int nodes);

// Writes `packets` in the format above (a comment naming it first), ordered by cycle (stable).
void write_packet_trace(std::ostream& out, std::vector<TracePacket> packets);

}  // namespace meshmp
