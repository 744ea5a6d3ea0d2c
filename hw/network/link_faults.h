// Faults injected on the router network's links, as a verification engineer injects them to see what the
// machine and its checks make of them (--inject-fault; the spec's text is hw/machine/fault_spec.h): the
// first flit that leaves router `from` for its neighbour `to` at or after `cycle` has one bit of its
// payload flipped, or is dropped; or the first credit router `to` returns to `from` for that link at or
// after `cycle` is withheld. A head flit is never touched (its header routes the packet: the faults model a
// payload wire and a credit wire): flit faults take the first payload flit. Each fault fires once; what it
// did (its cycle, the packet, the bit) is kept for the run's report. The links are the same for both router
// models (SystemC and verilated): the faults reach either.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/router/flit.h"

namespace meshmp {

struct LinkFault {
  enum class Kind { FlipBit, DropFlit, HoldCredit };
  Kind kind = Kind::FlipBit;
  std::uint64_t cycle = 0;
  int from = 0, to = 0;  // the link from -> to (a credit for it travels to -> from)
  int bit = 0;           // FlipBit: the payload bit, counted from bit 0 of its first byte, modulo its bits
};

// What a fault did: nothing yet (fired false), or at which cycle, to what.
struct LinkFaultOutcome {
  bool fired = false;
  std::uint64_t cycle = 0;
  std::string what;
};

class LinkFaults {
 public:
  LinkFaults() = default;
  explicit LinkFaults(std::vector<LinkFault> faults);
  bool empty() const { return faults_.empty(); }
  // A flit leaving `from` for `to` at `cycle`: false when a fault drops it; a FlipBit fault changes `flit`.
  bool pass_flit(int from, int to, std::uint64_t cycle, Flit& flit);
  // A credit for the link from -> to, sent back at `cycle`: false when a fault withholds it.
  bool pass_credit(int from, int to, std::uint64_t cycle);
  const std::vector<LinkFault>& faults() const { return faults_; }
  const std::vector<LinkFaultOutcome>& outcomes() const { return outcomes_; }

 private:
  std::vector<LinkFault> faults_;
  std::vector<LinkFaultOutcome> outcomes_;
};

}  // namespace meshmp
