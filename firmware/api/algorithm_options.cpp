// Algorithm options: declarations checked against given values. See algorithm_options.h.
#include "firmware/api/algorithm_options.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "topology/config_error.h"

namespace meshmp {

std::string to_string(AlgorithmOption::Type type) {
  switch (type) {
    case AlgorithmOption::Type::Integer: return "integer";
    case AlgorithmOption::Type::Number: return "number";
    case AlgorithmOption::Type::Boolean: return "boolean";
    case AlgorithmOption::Type::Text: return "text";
    case AlgorithmOption::Type::Choice: return "choice";
  }
  return "?";
}

AlgorithmOption integer_option(std::string name, std::int64_t default_value, std::int64_t min, std::int64_t max,
                               std::string help) {
  AlgorithmOption option;
  option.name = std::move(name);
  option.type = AlgorithmOption::Type::Integer;
  option.default_value = std::to_string(default_value);
  option.help = std::move(help);
  option.min = min;
  option.max = max;
  return option;
}

std::string AlgorithmOption::rule() const {
  switch (type) {
    case Type::Integer: return "must be a whole number " + std::to_string(min) + ".." + std::to_string(max);
    case Type::Number: return "must be a finite number";
    case Type::Boolean: return "must be true or false";
    case Type::Text: return "any text";
    case Type::Choice: {
      std::string list;
      for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
      return "must be one of " + list;
    }
  }
  return "?";
}

namespace {

void check_value(const std::string& field, const AlgorithmOption& option, const std::string& text) {
  char* end = nullptr;
  switch (option.type) {
    case AlgorithmOption::Type::Integer: {
      // Decimal digits with an optional minus sign, within the declared range (a value past 64 bits is
      // out of range too, never wrapped).
      if (option.max < option.min)
        throw std::logic_error("integer option '" + option.name + "' declares no range");
      std::int64_t value = 0;
      const char* last = text.data() + text.size();
      const auto [ptr, ec] = std::from_chars(text.data(), last, value);
      const bool digits = !text.empty() && text.find_first_not_of("-0123456789") == std::string::npos &&
                          text.find('-', 1) == std::string::npos && text != "-";
      if (!digits || (ec != std::errc() && ec != std::errc::result_out_of_range) || ptr != last)
        throw ConfigError(field, text, "is not a whole number; " + option.rule());
      if (ec == std::errc::result_out_of_range || value < option.min || value > option.max)
        throw ConfigError(field, text, "is out of range: " + option.rule());
      return;
    }
    case AlgorithmOption::Type::Number: {
      const double v = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !std::isfinite(v)) throw ConfigError(field, text, "must be a finite number");
      return;
    }
    case AlgorithmOption::Type::Boolean:
      if (text != "true" && text != "false") throw ConfigError(field, text, "must be true or false");
      return;
    case AlgorithmOption::Type::Text: return;
    case AlgorithmOption::Type::Choice: {
      std::string list;
      for (const auto& c : option.choices) {
        if (c == text) return;
        list += (list.empty() ? "" : ", ") + c;
      }
      throw ConfigError(field, text, "must be one of " + list);
    }
  }
}

}  // namespace

AlgorithmOptions::AlgorithmOptions(const std::string& owner, const std::vector<AlgorithmOption>& declared,
                                   const std::map<std::string, std::string>& given, const std::string& owner_kind,
                                   const std::string& field_name) {
  for (const auto& [name, text] : given) {
    const std::string field = field_name + "." + name;
    const AlgorithmOption* option = nullptr;
    for (const auto& o : declared)
      if (o.name == name) option = &o;
    if (!option) {
      if (declared.empty()) throw ConfigError(field, text, owner_kind + " " + owner + " takes no options");
      std::string list;
      for (const auto& o : declared) list += (list.empty() ? "" : ", ") + o.name;
      throw ConfigError(field, text, owner_kind + " " + owner + " has no such option; its options: " + list);
    }
    check_value(field, *option, text);
  }
  for (const auto& o : declared) {
    auto it = given.find(o.name);
    values_[o.name] = it != given.end() ? it->second : o.default_value;
  }
}

const std::string& AlgorithmOptions::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::logic_error("the algorithm reads option '" + name + "' it did not declare");
  return it->second;
}

std::int64_t AlgorithmOptions::integer(const std::string& name) const { return std::strtoll(value(name).c_str(), nullptr, 10); }
double AlgorithmOptions::number(const std::string& name) const { return std::strtod(value(name).c_str(), nullptr); }
bool AlgorithmOptions::boolean(const std::string& name) const { return value(name) == "true"; }
const std::string& AlgorithmOptions::text(const std::string& name) const { return value(name); }

}  // namespace meshmp
