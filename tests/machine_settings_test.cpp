// One declaration per setting (hw/machine/machine_settings.h): the command line, the config file, the results'
// "config", the help and the rules all come from the table, so none of them can miss a setting.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "hw/base/config_limits.h"
#include "hw/machine/machine_settings.h"
#include "topology/config_error.h"
#include "meshmp_process.h"

namespace meshmp {
namespace {

using meshmp_test::meshmp;

// The text of `meshmp run --help` from its CONFIG FILE heading to the next heading.
std::string config_file_section() {
  const std::string help = meshmp("run --help").output;
  const auto begin = help.find("CONFIG FILE");
  const auto end = help.find("EXIT STATUS", begin);
  if (begin == std::string::npos || end == std::string::npos) return "";
  return help.substr(begin, end - begin);
}

// The setting's long flag: "--block-bytes" of "-m,--block-bytes".
std::string long_flag(const MachineSetting& setting) {
  const auto comma = setting.flags.rfind(',');
  return comma == std::string::npos ? setting.flags : setting.flags.substr(comma + 1);
}

TEST(MachineSettings, TheHelpListsEveryKeyOfTheConfigFileAndEveryOption) {
  const std::string section = config_file_section();
  ASSERT_FALSE(section.empty());
  const std::string help = meshmp("run --help").output;
  std::set<std::string> sections;
  for (const MachineSetting& setting : machine_settings()) {
    if (!setting.section().empty()) {
      sections.insert(setting.section());
      EXPECT_NE(section.find(setting.section() + " {"), std::string::npos) << setting.key;
    }
    // Each key inside its own section's braces (or among the top-level keys).
    const auto scope = setting.section().empty() ? 0 : section.find(setting.section() + " {");
    const auto scope_end = setting.section().empty() ? section.find(" and the sections") : section.find('}', scope);
    const std::string keys = section.substr(scope, scope_end - scope);
    EXPECT_NE(keys.find(setting.name()), std::string::npos) << setting.key << " missing from:\n" << keys;
    EXPECT_NE(help.find(long_flag(setting) + " "), std::string::npos) << setting.flags;
  }
  // Among them the ones a hand-kept list once left out.
  EXPECT_NE(section.find("workload_options"), std::string::npos);
  EXPECT_NE(section.find("startup_on"), std::string::npos);
  EXPECT_NE(section.find("fabric {"), std::string::npos);
}

TEST(MachineSettings, EveryKeyIsReadFromAConfigFileAndEveryRecordedOneWrittenBack) {
  MachineConfig config;
  nlohmann::json all = config.to_json();
  for (const MachineSetting& setting : machine_settings()) {
    const bool written = setting.section().empty() ? all.contains(setting.key)
                                                    : all.contains(setting.section()) && all[setting.section()].contains(setting.name());
    EXPECT_EQ(written, setting.recorded) << setting.key;
    if (!setting.recorded) all[setting.section()][setting.name()] = setting.get(config);
  }
  MachineConfig read;
  EXPECT_NO_THROW(read.apply_json(all)) << all.dump();
  EXPECT_EQ(read.to_json(), config.to_json());
}

// Every whole number one past its largest value: refused, naming the key and the rule, whether it comes
// from a config file, the command line, or a configuration built in code.
TEST(MachineSettings, EveryWholeNumberIsCheckedAgainstItsRuleWhereverItComesFrom) {
  int checked = 0;
  for (const MachineSetting& setting : machine_settings()) {
    if (setting.kind != SettingKind::WholeNumber) continue;
    ++checked;
    const std::string max = setting.rule.substr(setting.rule.find("..") + 2);
    const std::string past = std::to_string(std::stoull(max) + 1);
    const std::string expected = setting.key + " = '" + past + "': must be " + setting.rule;

    MachineConfig from_file;
    nlohmann::json json;
    (setting.section().empty() ? json[setting.key] : json[setting.section()][setting.name()]) = std::stoull(past);
    try {
      from_file.apply_json(json);
      ADD_FAILURE() << setting.key << " accepted " << past << " from a config file";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }

    MachineConfig from_text;
    try {
      setting.read_text(from_text, past);
      ADD_FAILURE() << setting.key << " accepted " << past << " as text";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }

    // The largest value itself is taken and written back as given.
    MachineConfig at_max;
    setting.read_text(at_max, max);
    EXPECT_EQ(setting.get(at_max).dump(), max) << setting.key;
  }
  EXPECT_GE(checked, 20);
}

TEST(MachineSettings, TheCommandLineRefusesEveryWholeNumberPastItsRule) {
  for (const MachineSetting& setting : machine_settings()) {
    if (setting.kind != SettingKind::WholeNumber) continue;
    const std::string past = std::to_string(std::stoull(setting.rule.substr(setting.rule.find("..") + 2)) + 1);
    const auto outcome = meshmp("run " + long_flag(setting) + " " + past + " -o ''");
    EXPECT_EQ(outcome.status, 2) << setting.key << "\n" << outcome.output;
    EXPECT_NE(outcome.output.find(setting.key + " = '" + past + "': must be " + setting.rule), std::string::npos)
        << outcome.output;
  }
}

// A configuration built in code (a library user's) is checked by validate() against the same rules.
TEST(MachineSettings, ValidateChecksAFieldSetInCode) {
  MachineConfig config;
  config.fabric.memory_banks = -1;
  EXPECT_NE(config.validate().value_or("").find("fabric.memory_banks = '-1': must be 0..1048576"), std::string::npos)
      << config.validate().value_or("valid");
  MachineConfig no_cycles;
  no_cycles.max_cycles = 0;
  EXPECT_NE(no_cycles.validate().value_or("").find("run.max_cycles = '0': must be 1.."), std::string::npos);
}

TEST(MachineSettings, EveryOptionGivenOnTheCommandLineReachesItsKey) {
  // One non-default value per kind; --print-config shows where each landed.
  const auto outcome = meshmp(
      "run --print-config -a saad-broadcast -t hypercube:3 --vcs 3 --startup-on channel --no-dateline "
      "--copy-cycles-per-byte 0.5 --workload-option words=8 -m 16");
  ASSERT_EQ(outcome.status, 0) << outcome.output;
  const nlohmann::json json = nlohmann::json::parse(outcome.output);
  EXPECT_EQ(json["router"]["vcs"], 3);
  EXPECT_EQ(json["node"]["startup_on"], "channel");
  EXPECT_EQ(json["router"]["dateline"], false);
  EXPECT_EQ(json["node"]["copy_cycles_per_byte"], 0.5);
  EXPECT_EQ(json["workload_options"]["words"], "8");
  EXPECT_EQ(json["block_bytes"], 16);
  // A fabric's setting on a machine joined by one (on a router network it would change nothing: refused).
  const auto fabric = meshmp("run --print-config -t shared-memory:4 -a saad-broadcast --memory-banks 4");
  ASSERT_EQ(fabric.status, 0) << fabric.output;
  EXPECT_EQ(nlohmann::json::parse(fabric.output)["fabric"]["memory_banks"], 4);
}

}  // namespace
}  // namespace meshmp
