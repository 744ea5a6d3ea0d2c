// How a whole message crosses one of paper 004's shared-resource machines (004 §2 A broadcast bus,
// §2 F switch; tlm/broadcast_bus.h, tlm/omega_switch.h) as a TLM-2.0 transaction, and how the machines'
// timing is given to them.
//
// A sending node's DMA engine is a TLM-2.0 initiator: it calls b_transport on the fabric's target socket
// bound for its node with a generic payload whose command is TLM_WRITE_COMMAND, whose data pointer and
// length are the message's bytes (read from the sender's memory), whose address is 0 (the receiver's DMA
// engine, not the sender, decides where the bytes land), no byte enables (a payload with byte enables is
// answered TLM_BYTE_ENABLE_ERROR_RESPONSE), streaming width = length, and a MessageTransfer extension
// (below) naming the sender, the receiver(s), the tag and the sender's step. b_transport blocks the
// calling SC_THREAD for the transfer's whole time (the machine's arbitration, then tau + m / b) and
// returns once every receiver has taken the bytes: TLM_OK_RESPONSE, or an error response
// (TLM_ADDRESS_ERROR_RESPONSE for a receiver that is not a node, TLM_GENERIC_ERROR_RESPONSE for a
// payload without the extension), the reason in MessageTransfer::error. Annotated delays are honoured on
// entry (the fabric first waits them out) and returned as zero.
//
// The fabric delivers to each receiver by b_transport on its initiator socket bound for that node (the
// receiving DMA engine is the target), with the same payload (TLM_WRITE_COMMAND, the extension attached),
// once the transfer's time has passed; the receiver copies the bytes before it returns.
//
// Time: the fabrics count whole cycles of `cycle` (the machine's clock period). A transfer of m bytes
// costs startup_cycles + ceil(m / bytes_per_cycle) cycles of the fabric's resource (004's tau + m / b).
// Arbitration is deterministic: requests are collected and granted at clock edges in a documented order
// (never in the order SystemC happens to run the requesting threads).
#pragma once

#include <tlm>

#include <cstdint>
#include <string>
#include <vector>

namespace meshmp {

struct MessageTransfer : tlm::tlm_extension<MessageTransfer> {
  int source = 0;
  std::vector<int> destinations;  // one receiver, or several (the bus's broadcast: every listed node)
  std::uint32_t tag = 0;
  std::uint32_t step = 0;         // the sender's STEP_MARK (statistics)
  std::uint64_t sequence = 0;     // the sender's per-destination message number (non-overtaking)
  std::string error;              // why the fabric refused it

  tlm::tlm_extension_base* clone() const override { return new MessageTransfer(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const MessageTransfer&>(other);
  }
};

// The timing a fabric is built with (004 §2: tau and b of the machine).
struct FabricTiming {
  std::uint64_t startup_cycles = 100;  // tau
  std::uint32_t bytes_per_cycle = 8;   // b, in bytes per cycle of one channel
  std::uint64_t transfer_cycles(std::uint64_t bytes) const {
    return startup_cycles + (bytes + bytes_per_cycle - 1) / bytes_per_cycle;
  }
};

}  // namespace meshmp
