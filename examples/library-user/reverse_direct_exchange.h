// An exchange algorithm of this program's own (reverse_direct_exchange.cpp).
#pragma once

namespace library_user {

// Registers "reverse-direct" with meshmp's algorithm registry.
void register_reverse_direct_exchange();

}  // namespace library_user
