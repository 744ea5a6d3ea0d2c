// Packet traces. See packet_trace.h.
#include "hw/network/packet_trace.h"

#include <algorithm>
#include <sstream>

#include "topology/config_error.h"

namespace meshmp {

std::vector<TracePacket> parse_packet_trace(const std::string& file, const std::string& text, int nodes) {
  std::vector<TracePacket> packets;
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::size_t comment = line.find('#');
    if (comment != std::string::npos) line.erase(comment);
    std::istringstream fields(line);
    std::vector<std::string> words;
    for (std::string word; fields >> word;) words.push_back(word);
    if (words.empty()) continue;
    auto refuse = [&](const std::string& what) {
      throw ConfigError("--trace", file, "line " + std::to_string(number) + ": " + what);
    };
    if (words.size() != 4)
      refuse("has " + std::to_string(words.size()) + " fields; expected 4: cycle source destination flits");
    // A field as a whole number in [low, high], else refused naming it.
    auto number_in = [&](std::size_t index, const char* name, std::uint64_t low, std::uint64_t high,
                         const std::string& rule) {
      const std::string& word = words[index];
      const bool digits = word.size() <= 19 && word.find_first_not_of("0123456789") == std::string::npos;
      const std::uint64_t value = digits ? std::stoull(word) : 0;
      if (!digits || value < low || value > high) refuse(std::string("field ") + name + " = '" + word + "': " + rule);
      return value;
    };
    const auto last_node = static_cast<std::uint64_t>(nodes - 1);
    const std::string node_rule = "must be a node, 0.." + std::to_string(last_node);
    TracePacket packet;
    packet.cycle = number_in(0, "cycle", packets.empty() ? 0 : packets.back().cycle, UINT64_MAX / 2,
                             packets.empty() ? "must be a whole number of cycles"
                                             : "must be a whole number of cycles, at least the line before's " +
                                                   std::to_string(packets.back().cycle));
    packet.source = static_cast<int>(number_in(1, "source", 0, last_node, node_rule));
    packet.destination = static_cast<int>(number_in(2, "destination", 0, last_node, node_rule));
    packet.flits = static_cast<int>(number_in(3, "flits", 1, 4097, "must be 1..4097 (head included)"));
    packets.push_back(packet);
  }
  if (packets.empty()) throw ConfigError("--trace", file, "holds no packet (expected lines: cycle source destination flits)");
  return packets;
}

void write_packet_trace(std::ostream& out, std::vector<TracePacket> packets) {
  std::stable_sort(packets.begin(), packets.end(),
                   [](const TracePacket& a, const TracePacket& b) { return a.cycle < b.cycle; });
  out << "# meshmp packet trace: cycle source destination flits (meshmp traffic --trace replays it)\n";
  for (const TracePacket& p : packets) out << p.cycle << ' ' << p.source << ' ' << p.destination << ' ' << p.flits << '\n';
}

}  // namespace meshmp
