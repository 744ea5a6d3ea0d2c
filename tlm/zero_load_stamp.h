// The zero-load model's prediction for one message (hw/node/zero_load_observer.h), carried beside the
// message on the host side only: in the outgoing message, the transaction's NetworkMessage extension
// and every packet's host record (hw/network/packet_records.h), never in a flit, a register or a byte of
// the modelled hardware. The sender's model stamps it when the send is issued; the receiver's model reads
// it when the message completes a receive, so no table of the messages in flight is kept.
#pragma once

#include <cstdint>

namespace meshmp {

struct ZeroLoadStamp {
  std::uint64_t arrival = 0;  // when the message would arrive on an empty network
  std::int32_t step = -1;     // the sender's model step it belongs to; -1: not modelled (no stamp)
  bool stamped() const { return step >= 0; }
};

}  // namespace meshmp
