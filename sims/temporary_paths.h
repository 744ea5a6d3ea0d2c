// The temporary files meshmp has not committed yet (an output's contents before their rename, a
// writer's side files), kept where a signal handler can reach them: a fatal fault while an output is
// being written removes them all before the program ends, so it leaves no temporary file behind.
#pragma once

#include <string>

namespace meshmp {

// At most this many at once (a run writes five outputs, each with at most one side file).
inline constexpr int kMaxTemporaryPaths = 64;

// A temporary file registered while it exists. Throws std::length_error when the registry is full.
class TemporaryPath {
 public:
  TemporaryPath() = default;
  explicit TemporaryPath(const std::string& path);
  TemporaryPath(TemporaryPath&& other) noexcept;
  TemporaryPath& operator=(TemporaryPath&& other) noexcept;
  TemporaryPath(const TemporaryPath&) = delete;
  TemporaryPath& operator=(const TemporaryPath&) = delete;
  ~TemporaryPath();  // unregisters (the file itself is its owner's to remove or rename)

 private:
  int slot_ = -1;
};

// Removes every registered file. Async-signal-safe: for a fault handler just before _exit.
void remove_temporary_paths_now() noexcept;

}  // namespace meshmp
