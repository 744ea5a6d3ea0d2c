// Which meshmp made a result. See build_identity.h.
#include "sims/build_identity.h"

namespace meshmp {

const char* meshmp_version() { return MESHMP_VERSION; }

nlohmann::json build_identity() { return {{"version", meshmp_version()}, {"commit", meshmp_source_commit()}}; }

std::string version_line() {
  return std::string("meshmp ") + meshmp_version() + " (commit " + meshmp_source_commit() + ")";
}

}  // namespace meshmp
