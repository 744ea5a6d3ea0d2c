// A router model of this program's own, registered with meshmp::register_router_model: meshmp's SystemC
// router (model "cpp") behind the router seam, counting the cycles it is stepped and the flits it
// receives. A real one would model a different microarchitecture the same way.
#pragma once

#include <cstdint>

namespace library_user {

// Registers "counting"; the counts are summed over every router built.
void register_counting_router();
std::uint64_t counted_steps();
std::uint64_t counted_flits();

}  // namespace library_user
