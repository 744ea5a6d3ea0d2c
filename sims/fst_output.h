// The RTL waveform (--trace-rtl) as an output written whole or not at all. Verilator's FST writer checks
// none of its writes and keeps its value buffers in memory-mapped files: on a full disk or past a
// file-size limit a write is lost without a word, and a mapped page that cannot be backed raises
// SIGBUS. So, while the writer runs, SIGBUS ends the program with an error naming the output (every
// uncommitted temporary file removed, exit status 1), and the file it closes is checked block by block
// before it is put in place.
#pragma once

#include <signal.h>

#include <optional>
#include <string>

#include "sims/temporary_paths.h"

namespace meshmp {

// Installs the SIGBUS handler for the writer of `field` = `path` (writing to `writing_path`, whose side
// file writing_path + ".hier" it also registers for removal); the destructor restores the handler
// that was there before.
class FstWriteFaultGuard {
 public:
  FstWriteFaultGuard(const std::string& field, const std::string& path, const std::string& writing_path);
  ~FstWriteFaultGuard();
  FstWriteFaultGuard(const FstWriteFaultGuard&) = delete;
  FstWriteFaultGuard& operator=(const FstWriteFaultGuard&) = delete;

 private:
  TemporaryPath hierarchy_file_;
  struct sigaction previous_ {};
};

// Why the FST file at `path` is not whole (no header block, blocks that do not tile the file, no
// hierarchy or no value changes), or nothing when it is.
std::optional<std::string> fst_file_problem(const std::string& path);

}  // namespace meshmp
