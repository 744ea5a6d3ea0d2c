// Files named by the user, read within bounds. See input_file.h.
#include "topology/input_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "topology/config_error.h"

namespace meshmp {

bool input_file_missing(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) != 0 && errno == ENOENT;
}

std::string read_input_file(const std::string& field, const std::string& path, const InputFileRule& rule) {
  // The kind of file is checked before it is opened: opening a FIFO for reading waits for a writer.
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) {
    const int error = errno;
    throw ConfigError(field, path,
                      error == ENOENT ? "the file cannot be opened (no such file)"
                                      : "the file cannot be opened (" + std::string(std::strerror(error)) + ")");
  }
  if (S_ISDIR(status.st_mode)) throw ConfigError(field, path, "is a directory, not " + rule.what);
  if (!S_ISREG(status.st_mode))
    throw ConfigError(field, path, "is not a regular file (a device, FIFO or socket); give " + rule.what);
  if (static_cast<std::uint64_t>(status.st_size) > rule.max_bytes) throw ConfigError(field, path, rule.size_rule);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(field, path, "the file cannot be opened (" + std::string(std::strerror(errno)) + ")");
  // Read in chunks up to one byte past the bound: a file that grows while it is read is held to it too.
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > rule.max_bytes) throw ConfigError(field, path, rule.size_rule);
  }
  if (in.bad()) throw ConfigError(field, path, "the file cannot be read");
  return text;
}

}  // namespace meshmp
