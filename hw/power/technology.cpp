// Reading a technology file. See technology.h.
#include "hw/power/technology.h"

#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "topology/config_error.h"
#include "topology/input_file.h"

namespace meshmp {

namespace {

// Every key, with its member and whether zero is allowed (leakage currents, coupling and the node energies may be).
struct TechnologyKey {
  const char* name;
  double Technology::*member;
  bool zero_allowed;
};

const std::vector<TechnologyKey>& technology_keys() {
  static const std::vector<TechnologyKey> keys{
      {"H_INVD2", &Technology::H_INVD2, false}, {"W_INVD2", &Technology::W_INVD2, false},
      {"H_DFQD1", &Technology::H_DFQD1, false}, {"W_DFQD1", &Technology::W_DFQD1, false},
      {"H_ND2D1", &Technology::H_ND2D1, false}, {"W_ND2D1", &Technology::W_ND2D1, false},
      {"H_SRAM", &Technology::H_SRAM, false},   {"W_SRAM", &Technology::W_SRAM, false},
      {"Vdd", &Technology::Vdd, false},         {"R", &Technology::R, false},
      {"IoffSRAM", &Technology::IoffSRAM, true}, {"IoffP", &Technology::IoffP, true},
      {"IoffN", &Technology::IoffN, true},      {"Cg_pwr", &Technology::Cg_pwr, false},
      {"Cd_pwr", &Technology::Cd_pwr, false},   {"Cgdl", &Technology::Cgdl, true},
      {"Cg", &Technology::Cg, false},           {"Cd", &Technology::Cd, false},
      {"LAMBDA", &Technology::LAMBDA, false},   {"MetalPitch", &Technology::MetalPitch, false},
      {"Rw", &Technology::Rw, false},           {"Cw_gnd", &Technology::Cw_gnd, true},
      {"Cw_cpl", &Technology::Cw_cpl, true},    {"wire_length", &Technology::wire_length, false},
      {"node_instruction_energy", &Technology::node_instruction_energy, true},
      {"node_dma_byte_energy", &Technology::node_dma_byte_energy, true},
      {"node_memory_byte_energy", &Technology::node_memory_byte_energy, true},
      {"node_copy_byte_energy", &Technology::node_copy_byte_energy, true},
      {"node_idle_power", &Technology::node_idle_power, true},
      {"bank_byte_energy", &Technology::bank_byte_energy, true},
  };
  return keys;
}

std::string trimmed(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

}  // namespace

Technology parse_technology(const std::string& field, const std::string& path, const std::string& text) {
  Technology technology;
  std::set<std::string> given;
  std::istringstream lines(text);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const std::string where = "line " + std::to_string(number) + ": ";
    const std::string statement = trimmed(line.substr(0, line.find("//")));
    if (statement.empty()) continue;
    const auto equals = statement.find('=');
    if (equals == std::string::npos || statement.back() != ';')
      throw ConfigError(field, path, where + "'" + statement + "' is not KEY = VALUE;");
    const std::string key = trimmed(statement.substr(0, equals));
    const std::string value = trimmed(statement.substr(equals + 1, statement.size() - equals - 2));
    const TechnologyKey* known = nullptr;
    for (const TechnologyKey& k : technology_keys())
      if (key == k.name) known = &k;
    if (!known) {
      std::string names;
      for (const TechnologyKey& k : technology_keys()) names += (names.empty() ? "" : ", ") + std::string(k.name);
      throw ConfigError(field, path, where + "key '" + key + "' is not a technology parameter; known: " + names);
    }
    if (!given.insert(key).second) throw ConfigError(field, path, where + "key " + key + " is given twice");
    char* end = nullptr;
    const double number_value = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(number_value))
      throw ConfigError(field, path, where + "key " + key + " = '" + value + "': must be a finite number");
    if (number_value < 0 || (number_value == 0 && !known->zero_allowed))
      throw ConfigError(field, path, where + "key " + key + " = '" + value + "': must be " +
                                         (known->zero_allowed ? "zero or more" : "more than zero"));
    technology.*(known->member) = number_value;
  }
  return technology;
}

Technology read_technology(const std::string& field, const std::string& path) {
  if (path.empty()) return Technology{};
  return parse_technology(field, path,
                          read_input_file(field, path, InputFileRule{"a technology file", std::uint64_t{1} << 20,
                                                                     "a technology file must be at most 1 MiB"}));
}

}  // namespace meshmp
