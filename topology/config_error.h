// The error every piece of configuration raises on bad input: it names the field, the value and the
// rule that the value broke, so a user can fix the input without reading the code. Values (and fields,
// which may hold a key the user typed) are echoed cut short, so a 100 KB value gives a one-line message.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace meshmp {

// Longest text a message echoes whole; a longer one keeps its start and its end around "...".
inline constexpr std::size_t kMaxEchoedChars = 64;

// `text` with its control bytes written out (\n, \t, \x00 ...): a message never carries a NUL that
// would cut it, or an escape sequence that a terminal would act on.
inline std::string escape_control_bytes(const std::string& text) {
  std::string shown;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') shown += "\\n";
    else if (c == '\t') shown += "\\t";
    else if (byte < 0x20 || byte == 0x7f) {
      const char* hex = "0123456789abcdef";
      shown += std::string("\\x") + hex[byte >> 4] + hex[byte & 15];
    } else shown += c;
  }
  return shown;
}

// `text` as an error message echoes it: whole up to `max` characters, else its first two thirds and its
// end around "..." (never splitting a UTF-8 character); control bytes written out.
inline std::string echo(const std::string& text, std::size_t max = kMaxEchoedChars) {
  if (text.size() <= max || max < 8) return escape_control_bytes(text);
  auto continuation = [&text](std::size_t i) { return (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80; };
  std::size_t head = max * 2 / 3;
  while (head > 0 && continuation(head)) --head;
  std::size_t tail = text.size() - (max - max * 2 / 3 - 3);
  while (tail < text.size() && continuation(tail)) ++tail;
  return escape_control_bytes(text.substr(0, head)) + "..." + escape_control_bytes(text.substr(tail));
}

class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& field, const std::string& value, const std::string& rule)
      : std::runtime_error(echo(field) + " = '" + echo(value) + "': " + rule), field_(field) {}

  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

}  // namespace meshmp
