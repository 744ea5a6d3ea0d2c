// Whole-number settings parsed and checked against their real rules. See config_limits.h.
#include "hw/base/config_limits.h"

#include <charconv>
#include <cstdlib>

#include "topology/config_error.h"

namespace meshmp {

std::uint64_t parse_integer(const std::string& text, const IntegerLimit& limit) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const bool negative = !text.empty() && text[0] == '-';
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (negative || ec == std::errc::result_out_of_range)
    throw ConfigError(limit.field, text, limit.rule());
  if (text.empty() || ec != std::errc() || ptr != end)
    throw ConfigError(limit.field, text, "is not a whole number; " + limit.rule());
  check_integer(value, limit);
  return value;
}

bool copy_cycles_per_byte_valid(double value) { return value >= 0 && value <= kMaxCopyCyclesPerByte; }

double parse_copy_cycles_per_byte(const std::string& text) {
  const char* rule = "must be a number 0..1e6 (cycles per byte)";
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !copy_cycles_per_byte_valid(value))
    throw ConfigError("node.copy_cycles_per_byte", text, rule);
  return value;
}

void check_integer(std::uint64_t value, const IntegerLimit& limit) {
  if (value < limit.min || value > limit.max) throw ConfigError(limit.field, std::to_string(value), limit.rule());
}

}  // namespace meshmp
