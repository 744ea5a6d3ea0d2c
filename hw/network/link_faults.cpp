// Faults injected on the router network's links. See link_faults.h.
#include "hw/network/link_faults.h"

#include <utility>

namespace meshmp {

LinkFaults::LinkFaults(std::vector<LinkFault> faults) : faults_(std::move(faults)), outcomes_(faults_.size()) {}

bool LinkFaults::pass_flit(int from, int to, std::uint64_t cycle, Flit& flit) {
  if (flit.head || flit.payload_bytes == 0) return true;
  for (std::size_t i = 0; i < faults_.size(); ++i) {
    const LinkFault& f = faults_[i];
    LinkFaultOutcome& outcome = outcomes_[i];
    if (outcome.fired || f.kind == LinkFault::Kind::HoldCredit || f.from != from || f.to != to || cycle < f.cycle) continue;
    outcome.fired = true;
    outcome.cycle = cycle;
    const std::string packet = "packet " + std::to_string(flit.tag) + (flit.tail ? "'s tail flit" : "'s payload flit");
    if (f.kind == LinkFault::Kind::DropFlit) {
      outcome.what = "dropped " + packet;
      return false;
    }
    const int bit = f.bit % (8 * flit.payload_bytes);
    flit.data[static_cast<std::size_t>(bit / 8)] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    outcome.what = "flipped bit " + std::to_string(bit % 8) + " of byte " + std::to_string(bit / 8) + " of " + packet;
  }
  return true;
}

bool LinkFaults::pass_credit(int from, int to, std::uint64_t cycle) {
  for (std::size_t i = 0; i < faults_.size(); ++i) {
    const LinkFault& f = faults_[i];
    LinkFaultOutcome& outcome = outcomes_[i];
    if (outcome.fired || f.kind != LinkFault::Kind::HoldCredit || f.from != from || f.to != to || cycle < f.cycle) continue;
    outcome.fired = true;
    outcome.cycle = cycle;
    outcome.what = "withheld a credit";
    return false;
  }
  return true;
}

}  // namespace meshmp
