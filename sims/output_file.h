// An output file written whole or not at all, as every file meshmp writes is (statistics, CSVs, waveforms,
// plots, sweep tables). The contents go to a temporary file beside the target, in the same directory, and
// replace the target by a rename only once complete and on disk; a file never committed is removed, so an
// interrupted or failed run leaves the previous file as it was and no temporary file behind. A symbolic
// link is followed (the file it names is replaced, the link stays); a special file (/dev/null, /dev/full,
// a FIFO) is written in place (a FIFO opened as the output is, waiting for its reader while Ctrl-C still
// stops the command). Every write is checked: a failed one is an OutputError naming the file and
// the system's reason.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <streambuf>
#include <stdexcept>
#include <string>
#include <vector>

#include "sims/temporary_paths.h"

namespace meshmp {

// The name that means standard output for the JSON outputs that offer it (`run -o -`, `traffic -o -`);
// any other output refuses it rather than write a file named "-".
inline constexpr const char* kStandardOutput = "-";

class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A stream buffer onto a file descriptor that keeps the first failed write's errno: the reason an
// OutputError gives ("No space left on device", "File too large").
class CheckedFileBuffer : public std::streambuf {
 public:
  CheckedFileBuffer() : buffer_(1 << 16) {}
  bool open(const std::string& path);  // truncates; false with error() set when it cannot
  void adopt(int fd);                  // writes to a descriptor opened elsewhere (a FIFO), closing it at close()
  bool close();                        // writes what is buffered and closes; false on a failed write
  bool is_open() const { return fd_ >= 0; }
  int error() const { return error_; }  // the first errno, 0 while every write succeeded

 protected:
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  bool write_out();

  std::vector<char> buffer_;
  int fd_ = -1;
  int error_ = 0;
};

class OutputFile {
 public:
  OutputFile() = default;
  // Creates the temporary file beside `path` (its name keeps `path`'s extension, for writers that choose
  // the format by it): the check, before any work, that the file can be written. Throws ConfigError
  // naming `field`, the path and the reason.
  OutputFile(std::string field, std::string path);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // removes a temporary file never committed

  bool is_open() const { return !path_.empty(); }
  const std::string& path() const { return path_; }
  const std::string& field() const { return field_; }
  // A special file (a device, a FIFO), written directly instead of through a temporary file.
  bool writes_in_place() const { return in_place_; }
  // Where a writer that opens the file itself (a plot script, a waveform writer) puts the contents.
  const std::string& writing_path() const { return writing_path_; }
  // The stream onto writing_path(), opened on first use.
  std::ostream& stream();
  // Closes the contents (checking every write), flushes them to disk and renames them into place.
  // Throws OutputError.
  void commit();
  // The same, the failure returned as OutputError's message instead of thrown: for the code after a
  // simulation (SystemC's coroutine stacks leave AddressSanitizer's view of the main stack stale, and a
  // throw there trips it).
  std::optional<std::string> try_commit();
  // Removes the temporary file: the target stays as it was.
  void discard() noexcept;

 private:
  // Discards the file; the message naming it, `what` failed and the system's reason.
  std::string failure(const std::string& what, int error_number);

  std::string field_, path_, writing_path_;
  bool in_place_ = false;  // a special file: written directly
  TemporaryPath registered_;  // the temporary file, where a fault handler can remove it
  std::unique_ptr<CheckedFileBuffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

// The file `path` names once symbolic links, `.` and `..` are resolved (the path as given when it cannot
// be resolved): two outputs naming one file are found whatever their spelling.
std::string resolved_path(const std::string& path);
// Throws ConfigError when two of the named outputs (field, path; empty paths are none) are one file.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

}  // namespace meshmp
