// Every file meshmp reads that a user names (a config, a sweep CSV to resume or merge, a reference curve)
// is read through one function: only a regular file, only up to a bound, every failure a ConfigError
// naming the option, the path and the reason. A directory, a device such as /dev/zero or a FIFO would
// otherwise crash the reader, give bytes without end or block in open() with no way out but a kill.
#pragma once

#include <cstdint>
#include <string>

namespace meshmp {

// What a file named by option `field` must be: `what` in errors ("a JSON file", "a sweep CSV"), at most
// `max_bytes` bytes (`size_rule` says so in the user's words: "a config file must be at most 16 MiB").
struct InputFileRule {
  std::string what;
  std::uint64_t max_bytes;
  std::string size_rule;
};

// The whole contents of `path`. Throws ConfigError(field, path, ...) when it is missing or cannot be
// read, is not a regular file or is larger than the rule allows.
std::string read_input_file(const std::string& field, const std::string& path, const InputFileRule& rule);

// Whether `path` names nothing at all (a missing file, which some inputs take as empty).
bool input_file_missing(const std::string& path);

}  // namespace meshmp
