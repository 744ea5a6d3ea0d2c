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

// `text` as an error message echoes it: whole up to `max` characters, else its first two thirds and its
// end around "..." (never splitting a UTF-8 character).
inline std::string echo(const std::string& text, std::size_t max = kMaxEchoedChars) {
  if (text.size() <= max || max < 8) return text;
  auto continuation = [&text](std::size_t i) { return (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80; };
  std::size_t head = max * 2 / 3;
  while (head > 0 && continuation(head)) --head;
  std::size_t tail = text.size() - (max - max * 2 / 3 - 3);
  while (tail < text.size() && continuation(tail)) ++tail;
  return text.substr(0, head) + "..." + text.substr(tail);
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
