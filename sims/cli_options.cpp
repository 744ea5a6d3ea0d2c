// The `meshmp run` options. See cli_options.h.
#include "sims/cli_options.h"

#include "topology/config_error.h"
#include "hw/machine/machine_settings.h"
#include "hw/router/routing.h"
#include "sims/data_files.h"
#include "topology/topology.h"

#include <map>
#include <stdexcept>

namespace meshmp {

RunOptions::RunOptions() : given_(machine_settings().size()) {}

void RunOptions::add_to(CLI::App& c) {
  c.add_option("-c,--config", config_file_, "JSON config file (keys as printed in the stats' \"config\"); "
                                            "options given on the command line override it");
  c.add_flag("--print-config", print_config_,
             "print the configuration (the defaults, the --config file, then the options given) as a config file "
             "that reproduces this run, and exit without running");
  c.add_flag("-q,--quiet", quiet_, "print no summary (errors and failure reports still go to standard error)");
  add_network_options_to(c);
  const auto& settings = machine_settings();
  for (std::size_t i = 0; i < settings.size(); ++i) {
    if (settings[i].network) continue;
    add_setting(c, i);
    if (settings[i].key == "fabric.memory_banks")  // beside the settings it sets
      c.add_option("--cost-model", cost_model_,
                   "machine: every setting as given; 004: paper 004's model on all six of its machines, tau = "
                   "--startup-cycles and b = --flit-bytes on each (ring, grid, hypercube: all-port nodes paying t_s on "
                   "every channel; bus, shared memory, switch: t_s of 0 and a fabric start-up of tau - 1, plus the "
                   "cycle of arbitration; rho = 0 everywhere)  [default machine]");
  }
}

void RunOptions::add_network_options_to(CLI::App& c, bool with_packet_limit) {
  const auto& settings = machine_settings();
  for (std::size_t i = 0; i < settings.size(); ++i) {
    if (settings[i].network && (with_packet_limit || settings[i].key != "router.max_packet_payload_flits"))
      add_setting(c, i);
    if (settings[i].key == "router.vc_allocator")  // beside the rules it sets
      c.add_option("--router-rules", router_rules_,
                   "meshmp: every router setting as given; booksim2: BookSim2's input-queued router, the rules its "
                   "cross-validation runs with (--pipeline-depth 4, --head-pipeline from-front, --vc-allocator islip, "
                   "--routing dimension-order-split-ties unless --routing names an adaptive or two-phase function, and, on a "
                   "topology with rings, --dateline-classes "
                   "whole-segment; SystemC router; the power model prices a mesh's edge channels, --edge-channels idle, "
                   "and 128-bit flits, --channel-width 128, unless given)  [default meshmp]");
  }
}

void RunOptions::add_setting(CLI::App& c, std::size_t index) {
  const MachineSetting& setting = machine_settings()[index];
  GivenSetting& given = given_[index];
  switch (setting.kind) {
    case SettingKind::OffSwitch: c.add_flag(setting.flags, given.flag, setting.option_help()); break;
    case SettingKind::OptionMap: c.add_option(setting.flags, given.items, setting.option_help())->type_name("KEY=VALUE"); break;
    case SettingKind::TextList: c.add_option(setting.flags, given.items, setting.option_help())->type_name("SPEC"); break;
    case SettingKind::WholeNumber: c.add_option(setting.flags, given.text, setting.option_help())->type_name("N"); break;
    case SettingKind::Number: c.add_option(setting.flags, given.text, setting.option_help())->type_name("X"); break;
    case SettingKind::Choice: c.add_option(setting.flags, given.text, setting.option_help())->type_name("NAME"); break;
    case SettingKind::NodeList: c.add_option(setting.flags, given.text, setting.option_help())->type_name("IDS"); break;
    case SettingKind::Text: c.add_option(setting.flags, given.text, setting.option_help()); break;
  }
}

const RunOptions::GivenSetting& RunOptions::given(const std::string& key) const {
  const auto& settings = machine_settings();
  for (std::size_t i = 0; i < settings.size(); ++i)
    if (settings[i].key == key) return given_[i];
  throw std::logic_error("no setting " + key);
}

MachineConfig RunOptions::resolve() const {
  MachineConfig config;
  if (config_file_) {
    if (config_file_->empty())
      throw ConfigError("--config", "", "names no file; give a JSON config file, or leave --config out for the defaults");
    load_config_file(config, data_file(*config_file_));
  }
  return resolve_over(std::move(config));
}

MachineConfig RunOptions::resolve_over(MachineConfig config) const {
  const auto& settings = machine_settings();
  for (std::size_t i = 0; i < settings.size(); ++i) {
    const MachineSetting& setting = settings[i];
    const GivenSetting& given = given_[i];
    if (given.flag) setting.read_text(config, "");
    if (given.text) setting.read_text(config, *given.text);
    if (setting.kind == SettingKind::TextList) {  // the items given replace the config file's list
      if (!given.items.empty()) setting.read_json(config, nlohmann::json::array());
      for (const std::string& item : given.items) setting.read_text(config, item);
      continue;
    }
    // KEY=VALUE options over the config file's; a key given twice on the command line is an error, as a
    // repeated flag is (which of the two was meant?).
    std::map<std::string, std::string> seen;
    for (const std::string& option : given.items) {
      setting.read_text(config, option);  // refuses what is not KEY=VALUE
      const auto equals = option.find('=');
      const std::string key = option.substr(0, equals), value = option.substr(equals + 1);
      if (const auto it = seen.find(key); it != seen.end())
        throw ConfigError(setting.key + "." + key, value,
                          "is given twice (" + setting.flags + " " + echo(key + "=" + it->second) + " and " + echo(option) +
                              "); give each option once");
      seen[key] = value;
    }
  }
  if (cost_model_) apply_cost_model(config);
  if (router_rules_) apply_router_rules(config);
  return config;
}

void RunOptions::refuse_given_beside(const std::vector<const char*>& keys, const std::string& preset) const {
  for (const char* key : keys)
    if (const GivenSetting& setting = given(key); setting.given())
      throw ConfigError(find_machine_setting(key)->flags, setting.text.value_or("true"),
                        "is set by " + preset + "; give one of the two");
}

void RunOptions::apply_router_rules(MachineConfig& config) const {
  if (*router_rules_ == "meshmp") return;
  if (*router_rules_ != "booksim2")
    throw ConfigError("--router-rules", *router_rules_,
                      "must be meshmp (every router setting as given) or booksim2 (BookSim2's input-queued router)");
  const Topology topology = Topology::parse(config.topology);
  if (!topology.fabric().empty())
    throw ConfigError("--router-rules", *router_rules_, config.topology + " has no router network: router rules change nothing there");
  refuse_given_beside({"router.pipeline_depth", "router.head_pipeline", "router.vc_allocator", "router.dateline_classes"},
                      "--router-rules booksim2");
  // The rules route by dimension order with BookSim2's ties; an adaptive or two-phase function (BookSim2's
  // min_adapt, valiant, romm) may be given beside them.
  if (!given("router.routing").given() || !find_routing(config.routing).beyond_one_route()) {
    refuse_given_beside({"router.routing"}, "--router-rules booksim2 (beside it: an adaptive or two-phase function)");
    config.routing = "dimension-order-split-ties";
  }
  config.router.pipeline_depth = 4;
  config.router.head_pipeline_from_front = true;
  if (!given("power.edge_channels").given()) config.price_edge_channels = true;
  // BookSim2's power module prices a flit of its channel_width, 128 bits by default.
  if (!given("power.channel_width_bits").given()) config.channel_width_bits = 128;
  config.router.islip_vc_allocator = true;
  if (topology.has_rings() && config.router.dateline) config.router.dateline_whole_segment = true;
}

void RunOptions::apply_cost_model(MachineConfig& config) const {
  if (*cost_model_ == "machine") return;
  if (*cost_model_ != "004")
    throw ConfigError("--cost-model", *cost_model_,
                      "must be machine (every setting as given) or 004 (paper 004's tau and b on all six machines)");
  // The settings the model decides may not be given beside it: which of the two was meant?
  refuse_given_beside({"node.port_model", "node.startup_on", "node.copy_cycles_per_byte", "fabric.startup_cycles",
                       "fabric.bytes_per_cycle"},
                      "--cost-model 004 (tau = --startup-cycles, b = --flit-bytes)");
  config.processor.copy_cycles_per_byte = 0;
  if (Topology::fabric_of(config.topology).empty()) {
    config.port_model = PortModel::AllPort;
    config.processor.startup_on_channel = true;
    return;
  }
  const std::uint64_t tau = config.processor.startup_cycles;
  if (tau == 0)
    throw ConfigError("--startup-cycles", "0",
                      "--cost-model 004 on " + config.topology + " needs tau >= 1: a transfer's tau includes its cycle of arbitration");
  config.processor.startup_cycles = 0;
  config.fabric.startup_cycles = tau - 1;
  config.fabric.bytes_per_cycle = static_cast<std::uint32_t>(config.router.flit_bytes);
}

}  // namespace meshmp
