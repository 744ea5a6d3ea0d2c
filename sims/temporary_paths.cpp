// The registry of uncommitted temporary files. See temporary_paths.h.
#include "sims/temporary_paths.h"

#include <limits.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace meshmp {
namespace {

enum SlotState : int { kFree, kFilling, kRegistered };

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};

Slot slots[kMaxTemporaryPaths];

}  // namespace

TemporaryPath::TemporaryPath(const std::string& path) {
  if (path.size() >= PATH_MAX) throw std::length_error("temporary file name longer than PATH_MAX: " + path);
  for (int i = 0; i < kMaxTemporaryPaths; ++i) {
    int free_slot = kFree;
    if (!slots[i].state.compare_exchange_strong(free_slot, kFilling)) continue;
    std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
    slots[i].state.store(kRegistered);  // the handler reads a path only once it is whole
    slot_ = i;
    return;
  }
  throw std::length_error("more temporary files at once than the registry holds");
}

TemporaryPath::TemporaryPath(TemporaryPath&& other) noexcept : slot_(std::exchange(other.slot_, -1)) {}

TemporaryPath& TemporaryPath::operator=(TemporaryPath&& other) noexcept {
  if (this != &other) {
    if (slot_ >= 0) slots[slot_].state.store(kFree);
    slot_ = std::exchange(other.slot_, -1);
  }
  return *this;
}

TemporaryPath::~TemporaryPath() {
  if (slot_ >= 0) slots[slot_].state.store(kFree);
}

void remove_temporary_paths_now() noexcept {
  for (Slot& slot : slots)
    if (slot.state.load() == kRegistered) unlink(slot.path);
}

}  // namespace meshmp
