// network.fidelity's names. See interconnect.h.
#include "hw/network/interconnect.h"

#include "topology/config_error.h"

namespace meshmp {

NetworkFidelity parse_network_fidelity(const std::string& text, const std::string& field) {
  if (text == "cycle") return NetworkFidelity::Cycle;
  if (text == "tlm") return NetworkFidelity::Transaction;
  if (text == "both") return NetworkFidelity::Both;
  throw ConfigError(field, text, "expected cycle, tlm or both");
}

std::string to_string(NetworkFidelity fidelity) {
  switch (fidelity) {
    case NetworkFidelity::Cycle: return "cycle";
    case NetworkFidelity::Transaction: return "tlm";
    case NetworkFidelity::Both: return "both";
  }
  return "?";
}

}  // namespace meshmp
