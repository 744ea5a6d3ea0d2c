// The faults a run injects: their text, and the rules they follow. See fault_spec.h.
#include "hw/machine/fault_spec.h"

#include <limits>

#include "topology/config_error.h"

namespace meshmp {

const char* const kFaultSpecRule =
    "must be memory:NODE:ADDRESS[:BIT], flip:FROM-TO:CYCLE[:BIT], drop:FROM-TO:CYCLE or credit:FROM-TO:CYCLE (whole "
    "numbers; BIT of a memory byte 0..7)";

namespace {

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t at; (at = text.find(by, from)) != std::string::npos; from = at + 1) parts.push_back(text.substr(from, at - from));
  parts.push_back(text.substr(from));
  return parts;
}

// A whole number of at most `largest`; false when `text` is not one.
bool whole(const std::string& text, std::uint64_t largest, std::uint64_t& value) {
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) return false;
  value = std::stoull(text);
  return value <= largest;
}

[[noreturn]] void refuse(const std::string& text, const std::string& rule) {
  throw ConfigError("run.inject_faults", text, rule);
}

}  // namespace

FaultSpec parse_fault_spec(const std::string& text) {
  const std::vector<std::string> parts = split(text, ':');
  FaultSpec fault;
  fault.text = text;
  const std::string& kind = parts.front();
  std::uint64_t a = 0, b = 0, bit = 0;
  const std::uint64_t int_max = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
  if (kind == "memory") {
    if (parts.size() < 3 || parts.size() > 4 || !whole(parts[1], int_max, a) ||
        !whole(parts[2], std::numeric_limits<std::uint64_t>::max() / 2, b) || (parts.size() == 4 && !whole(parts[3], 7, bit)))
      refuse(text, kFaultSpecRule);
    fault.kind = FaultSpec::Kind::Memory;
    fault.node = static_cast<int>(a);
    fault.address = b;
    fault.bit = static_cast<int>(bit);
    return fault;
  }
  const bool flip = kind == "flip";
  if (!flip && kind != "drop" && kind != "credit") refuse(text, kFaultSpecRule);
  const std::vector<std::string> link = parts.size() > 1 ? split(parts[1], '-') : std::vector<std::string>{};
  std::uint64_t cycle = 0;
  if (parts.size() < 3 || parts.size() > (flip ? 4u : 3u) || link.size() != 2 || !whole(link[0], int_max, a) ||
      !whole(link[1], int_max, b) || !whole(parts[2], std::numeric_limits<std::uint64_t>::max() / 2, cycle) ||
      (parts.size() == 4 && !whole(parts[3], int_max, bit)))
    refuse(text, kFaultSpecRule);
  fault.kind = FaultSpec::Kind::Link;
  fault.link.kind = flip ? LinkFault::Kind::FlipBit : kind == "drop" ? LinkFault::Kind::DropFlit : LinkFault::Kind::HoldCredit;
  fault.link.from = static_cast<int>(a);
  fault.link.to = static_cast<int>(b);
  fault.link.cycle = cycle;
  fault.link.bit = static_cast<int>(bit);
  return fault;
}

void check_fault_spec(const FaultSpec& fault, const Topology& topology, NetworkFidelity fidelity) {
  const int n = topology.num_nodes();
  if (fault.kind == FaultSpec::Kind::Memory) {
    if (fault.node >= n)
      refuse(fault.text, "names node " + std::to_string(fault.node) + "; " + topology.spec() + " has nodes 0.." +
                             std::to_string(n - 1));
    return;
  }
  if (!topology.fabric().empty())
    refuse(fault.text, "is a fault of the router network's links; " + topology.spec() + " has none (a memory fault applies)");
  if (fidelity != NetworkFidelity::Cycle)
    refuse(fault.text, "is a fault of a flit or credit on a link: it needs network.fidelity cycle (the transaction level "
                       "moves whole messages)");
  const int from = fault.link.from, to = fault.link.to;
  if (from >= n || to >= n)
    refuse(fault.text, "names node " + std::to_string(std::max(from, to)) + "; " + topology.spec() + " has nodes 0.." +
                           std::to_string(n - 1));
  for (int p = 0; p < topology.num_ports(); ++p)
    if (topology.neighbor(from, p) == to) return;
  refuse(fault.text, "names the link " + std::to_string(from) + "-" + std::to_string(to) + ", which " + topology.spec() +
                         " does not have (" + std::to_string(to) + " is not a neighbour of " + std::to_string(from) + ")");
}

}  // namespace meshmp
