// One declaration per setting of a run (MachineConfig): its config-file key, command-line flag, kind of
// value, rule, help and the field it sets. The JSON config reader and writer, the check of every value
// against its rule, the command line's options with their defaults and rules, and the help's CONFIG FILE
// section all come from this table: a new setting is one field in MachineConfig and one entry here.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/machine/machine_config.h"

namespace meshmp {

// How a setting is written: on the command line, and (in brackets) in a config file.
enum class SettingKind {
  WholeNumber,  // --vcs 4; "vcs": 4. Checked against its IntegerLimit (hw/base/config_limits.h).
  Number,       // --copy-cycles-per-byte 0.25; a finite number within its rule
  Text,         // --topology torus:8x8; "topology": "torus:8x8"
  Choice,       // --switching wormhole; one of the names its rule lists
  OffSwitch,    // --no-dateline; "dateline": false. The flag turns the setting off.
  NodeList,     // --trace-nodes 0,9; "trace_nodes": [0, 9]
  OptionMap,    // --workload-option rows=64 (repeatable); "workload_options": {"rows": "64"}
  TextList,     // --inject-fault memory:3:31 (repeatable); "inject_faults": ["memory:3:31"]
};

struct MachineSetting {
  std::string key;    // the config file's key: "block_bytes" or section.key ("router.vcs")
  std::string flags;  // the command line's names, CLI11's way: "-m,--block-bytes"
  std::string help;   // what it sets and why one would change it
  std::string rule;   // the values it takes, for the help ("1..16"); empty when the help says it
  SettingKind kind = SettingKind::Text;
  bool network = false;   // a setting of the network alone: `meshmp traffic` takes it too
  bool recorded = true;   // in the results' "config" and --print-config (the output paths are not)
  std::function<nlohmann::json(const MachineConfig&)> get;
  // Sets the value from a config file's JSON, or from the command line's text (an OffSwitch's text is
  // ignored; an OptionMap's is one KEY=VALUE, a TextList's one item, added to the list). Throw ConfigError
  // naming the key, the value and the rule.
  std::function<void(MachineConfig&, const nlohmann::json&)> read_json;
  std::function<void(MachineConfig&, const std::string&)> read_text;
  // The value's own rule on a configuration built in code (a library user's); nullptr: none beyond its type.
  std::function<void(const MachineConfig&)> check;

  std::string section() const;  // "router"; "" for a top-level key
  std::string name() const;     // "vcs"
  // The help line of its command-line option: help, rule and the built-in default.
  std::string option_help() const;
};

// Every setting, network settings first, in the order the help lists them.
const std::vector<MachineSetting>& machine_settings();
// The setting with this config key; nullptr when there is none.
const MachineSetting* find_machine_setting(const std::string& key);
// The help's CONFIG FILE section: every key of every section.
std::string config_file_help();

}  // namespace meshmp
