// Options an algorithm declares (name, type, default, help) and the values a run gives them
// (`--algorithm-option key=value`, the config file's `algorithm_options` object), checked against the
// declarations with errors that name the option, the value and the rule. Firmware reads them through
// NodeApi::options().
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace meshmp {

struct AlgorithmOption {
  enum class Type { Integer, Number, Boolean, Text, Choice };
  std::string name;
  Type type = Type::Text;
  std::string default_value;
  std::string help;
  std::vector<std::string> choices;  // Type::Choice
  // Type::Integer: the range of the values it takes (every integer option declares one; a value outside
  // it is refused with rule(), never wrapped or clamped).
  std::int64_t min = 0;
  std::int64_t max = -1;
  // What a value must be: "must be a whole number MIN..MAX" for an integer, the choices for a choice.
  std::string rule() const;
};

std::string to_string(AlgorithmOption::Type type);
// The largest count of bytes or elements an option takes: 2^32 - 1, what a node's 32-bit addresses hold.
inline constexpr std::int64_t kLargestSizeOption = 0xffffffffll;
// An integer option taking min..max.
AlgorithmOption integer_option(std::string name, std::int64_t default_value, std::int64_t min, std::int64_t max,
                               std::string help);

// The checked values of every declared option (defaults filled in).
class AlgorithmOptions {
 public:
  AlgorithmOptions() = default;
  // Checks `given` (name -> text) against `declared`; throws ConfigError naming <field>.<name>
  // (algorithm_options.<name> for an algorithm's, workload_options.<name> for a workload's).
  AlgorithmOptions(const std::string& owner, const std::vector<AlgorithmOption>& declared,
                   const std::map<std::string, std::string>& given, const std::string& owner_kind = "algorithm",
                   const std::string& field = "algorithm_options");

  std::int64_t integer(const std::string& name) const;
  double number(const std::string& name) const;
  bool boolean(const std::string& name) const;
  const std::string& text(const std::string& name) const;  // Text and Choice
  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  const std::string& value(const std::string& name) const;
  std::map<std::string, std::string> values_;
};

}  // namespace meshmp
