// A node's scratch memory, taken first-fit and given back. See scratch_arena.h.
#include "firmware/api/scratch_arena.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

namespace meshmp {

ScratchArena::ScratchArena(std::uint32_t base, std::uint32_t bytes) {
  if (bytes > 0) free_.emplace(base, bytes);
  high_water_ = base;
}

std::uint32_t ScratchArena::take(std::uint32_t bytes) {
  if (bytes == 0) throw std::logic_error("scratch: a range of 0 bytes taken");
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < bytes) continue;
    const std::uint32_t address = it->first;
    const std::uint32_t left = it->second - bytes;
    free_.erase(it);
    if (left > 0) free_.emplace(address + bytes, left);
    high_water_ = std::max(high_water_, address + bytes);
    return address;
  }
  throw std::logic_error("scratch: no free range of " + std::to_string(bytes) +
                         " bytes (the firmware takes more scratch than it declares)");
}

void ScratchArena::give_back(std::uint32_t address, std::uint32_t bytes) {
  if (bytes == 0) return;
  auto next = free_.lower_bound(address);
  if (next != free_.end() && next->first < address + bytes)
    throw std::logic_error("scratch: range at " + std::to_string(address) + " given back twice");
  if (next != free_.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second > address)
      throw std::logic_error("scratch: range at " + std::to_string(address) + " given back twice");
    if (previous->first + previous->second == address) {  // join the free range before
      address = previous->first;
      bytes += previous->second;
      free_.erase(previous);
    }
  }
  if (next != free_.end() && next->first == address + bytes) {  // and the one after
    bytes += next->second;
    free_.erase(next);
  }
  free_.emplace(address, bytes);
}

}  // namespace meshmp
