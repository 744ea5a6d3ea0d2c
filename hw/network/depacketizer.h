// Depacketizer of a node's ejection channels: reassembles the flits arriving on each (channel, virtual
// channel) into packets and checks them: a body flit without a head, flits of another packet interleaved
// on one VC, or a flit count different from the header's is reported as an error, never dropped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/router/flit.h"
#include "hw/network/packet_records.h"

namespace meshmp {

struct ReceivedPacket {
  Flit header;                         // the head flit (its tag names the packet's host record)
  std::vector<std::uint8_t> payload;   // the payload bytes in order
};

class Depacketizer {
 public:
  // `packets`: the host records, to name a malformed packet's source in errors.
  Depacketizer(int channels, int vcs, const PacketRecords& packets);

  // Takes one ejected flit. Returns true when it completed a packet (then `packet` holds it).
  // On a malformed stream sets `error` and returns false.
  bool accept(int channel, const Flit& flit, ReceivedPacket& packet, std::string& error);

 private:
  struct Assembly {
    bool open = false;
    int flits = 0;
    ReceivedPacket packet;
  };
  std::vector<Assembly> assemblies_;
  int vcs_;
  const PacketRecords& packets_;
};

}  // namespace meshmp
