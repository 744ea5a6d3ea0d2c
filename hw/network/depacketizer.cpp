// Depacketizer of a node's ejection channels. See depacketizer.h.
#include "hw/network/depacketizer.h"

namespace meshmp {

Depacketizer::Depacketizer(int channels, int vcs, const PacketRecords& packets)
    : assemblies_(channels * vcs), vcs_(vcs), packets_(packets) {}

bool Depacketizer::accept(int channel, const Flit& flit, ReceivedPacket& packet, std::string& error) {
  Assembly& a = assemblies_[channel * vcs_ + flit.vc];
  auto where = [&] {
    return "ejection channel " + std::to_string(channel) + " vc " + std::to_string(flit.vc) + ", packet tag " +
           std::to_string(flit.tag) + (packets_.contains(flit.tag) ? " from node " + std::to_string(packets_.at(flit.tag).src) : std::string(" (unknown)"));
  };
  if (flit.head) {
    if (a.open) {
      error = where() + ": head flit arrived while packet " + std::to_string(a.packet.header.tag) +
              " was still open";
      return false;
    }
    a.open = true;
    a.flits = 1;
    a.packet.header = flit;
    a.packet.payload.clear();
  } else {
    if (!a.open) {
      error = where() + ": body flit without a head";
      return false;
    }
    if (flit.tag != a.packet.header.tag) {
      error = where() + ": flit interleaved into packet " + std::to_string(a.packet.header.tag);
      return false;
    }
    ++a.flits;
    a.packet.payload.insert(a.packet.payload.end(), flit.data.begin(), flit.data.begin() + flit.payload_bytes);
  }
  if (!flit.tail) return false;
  a.open = false;
  if (a.flits != a.packet.header.packet_flits) {
    error = where() + ": " + std::to_string(a.flits) + " flits received, header says " +
            std::to_string(a.packet.header.packet_flits);
    return false;
  }
  packet = std::move(a.packet);
  a.packet = ReceivedPacket{};
  return true;
}

}  // namespace meshmp
