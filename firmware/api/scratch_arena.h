// A node's scratch memory as its firmware manages it: ranges are taken first-fit (the lowest address
// that fits) and given back once their bytes are dead, so that a later message reuses the bytes of an
// earlier one. The node's memory keeps the algorithm's declared scratch (the bound), and only the bytes
// the firmware ever takes are touched: a node's host memory is what it uses (docs/speed.md, issue 42).
#pragma once

#include <cstdint>
#include <map>

namespace meshmp {

class ScratchArena {
 public:
  ScratchArena() = default;
  // Free: [base, base + bytes).
  ScratchArena(std::uint32_t base, std::uint32_t bytes);

  // The lowest free range of `bytes` (> 0). Throws std::logic_error when none fits: the firmware took
  // more than it declared.
  std::uint32_t take(std::uint32_t bytes);
  // Frees [address, address + bytes), joining it to free neighbours. Ranges outside the initial one may
  // be given too (memory the firmware has finished with, such as a buffer used as scratch for a while).
  void give_back(std::uint32_t address, std::uint32_t bytes);
  // The end of the highest range ever taken.
  std::uint32_t high_water() const { return high_water_; }

 private:
  std::map<std::uint32_t, std::uint32_t> free_;  // start -> bytes, disjoint and not adjacent
  std::uint32_t high_water_ = 0;
};

}  // namespace meshmp
