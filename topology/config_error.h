// The error every piece of configuration raises on bad input: it names the field, the value and the
// rule that the value broke, so a user can fix the input without reading the code.
#pragma once

#include <stdexcept>
#include <string>

namespace meshmp {

class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& field, const std::string& value, const std::string& rule)
      : std::runtime_error(field + " = '" + value + "': " + rule), field_(field) {}

  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

}  // namespace meshmp
