// `meshmp traffic`. See traffic_command.h.
#include "sims/traffic_command.h"

#include "sims/build_identity.h"
#include "sims/check_command.h"
#include "sims/link_utilisation.h"
#include "sims/plot_script.h"
#include "sims/seed_results.h"
#include "hw/power/network_activity.h"
#include "hw/power/power_report.h"

#include <systemc>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <optional>
#include <cstdlib>
#include <sstream>

#include <nlohmann/json.hpp>

#include "topology/config_error.h"
#include "topology/input_file.h"
#include "hw/machine/machine_settings.h"
#include "hw/machine/model_size.h"
#include "hw/network/network.h"
#include "hw/network/transaction_network.h"
#include "hw/router/routing.h"
#include "hw/network/traffic_generator.h"
#include "hw/base/config_limits.h"
#include "hw/base/stop_request.h"
#include "sims/child_process.h"
#include "sims/data_files.h"
#include "sims/output_file.h"
#include "sims/stop_signals.h"

#ifndef MESHMP_PLOT_SCRIPT
#define MESHMP_PLOT_SCRIPT "plot_latency.py"
#endif

namespace meshmp {
namespace {

// The settings a reference curve may name in "# key: value" lines before its header: the network it was
// measured on. A comparison with a run whose setting differs is refused (sims/reference/README.md).
const std::vector<std::string> kReferenceKeys{"topology",     "pattern",      "vcs",          "buffer_flits",
                                              "packet_flits", "packet_sizes", "packet_size_rates", "link_latency",
                                              "routing",      "injection",    "burst_cycles", "idle_cycles"};

// A broken rule reported by a validate() function, its message already naming field, value and rule.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The comma-separated items of `text` ("" gives none), spaces around them ignored, each read whole by
// `read` (false: not one), else a ConfigError naming `field` and `rule`.
template <class T, class Read>
std::vector<T> parse_list(const std::string& field, const std::string& text, const std::string& rule, Read read) {
  std::vector<T> items;
  if (text.empty()) return items;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    item.erase(0, item.find_first_not_of(' '));  // "1, 4" as "1,4"
    item.erase(item.find_last_not_of(' ') + 1);
    T value{};
    if (!read(item, value)) throw ConfigError(field, text, rule + "; '" + item + "' is not one");
    items.push_back(value);
  }
  if (text.back() == ',') throw ConfigError(field, text, rule + "; it ends in a comma");
  return items;
}

// traffic.packet_sizes: whole numbers of flits (their range is TrafficParams::validate's).
std::vector<int> parse_packet_sizes(const std::string& text) {
  return parse_list<int>("traffic.packet_sizes", text, "expected a comma-separated list of sizes in flits, e.g. 1,4,8",
                         [](const std::string& item, int& value) {
                           if (item.empty() || item.size() > 9 || item.find_first_not_of("0123456789") != std::string::npos)
                             return false;
                           value = std::stoi(item);
                           return true;
                         });
}

// traffic.packet_size_rates: numbers (positive: TrafficParams::validate's rule).
std::vector<double> parse_size_weights(const std::string& text) {
  return parse_list<double>("traffic.packet_size_rates", text,
                            "expected a comma-separated list of weights, one per packet size, e.g. 1,2,1",
                            [](const std::string& item, double& value) {
                              std::size_t used = 0;
                              try {
                                value = std::stod(item, &used);
                              } catch (const std::exception&) {
                                return false;
                              }
                              return used == item.size();
                            });
}

// A list as a reference curve's "# key: value" line and a run compare it: "1,4,8", "1,2,1", "0.5,1".
template <class T>
std::string canonical_list(const std::vector<T>& values) {
  std::ostringstream text;
  for (std::size_t i = 0; i < values.size(); ++i) text << (i ? "," : "") << values[i];
  return text.str();
}

// "4-flit packets", or a mix: "1/4/8-flit packets weighed 1:2:1", or a trace's "packets of 1..9 flits".
std::string packet_size_text(const TrafficParams& params) {
  if (!params.trace.empty()) {
    int smallest = params.largest_packet_flits();
    for (const TracePacket& packet : params.trace) smallest = std::min(smallest, packet.flits);
    return "packets of " + std::to_string(smallest) + ".." + std::to_string(params.largest_packet_flits()) + " flits";
  }
  if (params.packet_sizes.empty()) return std::to_string(params.packet_flits) + "-flit packets";
  std::ostringstream text;
  const std::vector<double> weights = params.size_weights();
  for (std::size_t i = 0; i < params.packet_sizes.size(); ++i) text << (i ? "/" : "") << params.packet_sizes[i];
  text << "-flit packets weighed ";
  for (std::size_t i = 0; i < weights.size(); ++i) text << (i ? ":" : "") << weights[i];
  return text.str();
}
}  // namespace

// One declaration per setting of the traffic itself (the network's are hw/machine/machine_settings.h): the
// config file's traffic.<key>, the command-line flag, how it is written, the help, and the member it sets.
// The options, the config file's section, the results' "config" and the help's key list come from it.
const std::vector<TrafficCommand::TrafficSetting>& TrafficCommand::traffic_settings() {
  using K = TrafficSetting::Kind;
  static const std::vector<TrafficSetting> settings = {
      {"pattern", "--pattern", K::Text, &TrafficCommand::pattern_, nullptr,
       "destinations: uniform (random over all nodes, the source included unless --exclude-self), transpose "
       "((x,y) -> (y,x), square 2-D), bit-complement (i -> ~i, 2^n nodes), hotspot (a share --hotspot-fraction "
       "to --hotspot-node, the rest uniform), neighbour (+1 in dimension 0, wrapping), bit-reverse (the bits of i "
       "reversed, 2^n nodes), shuffle (the bits of i rotated left, 2^n nodes), tornado (c -> c + ceil(k/2) - 1 in "
       "every dimension of k >= 3), random-permutation (a permutation drawn from --seed), diagonal (BookSim2's: i itself "
       "with probability 2/3, (i + 1) mod N with 1/3), asymmetric (BookSim2's: (i mod N/2) or (i mod N/2) + N/2, "
       "1/2 each)  [default uniform]"},
      {"trace", "--trace", K::Text, &TrafficCommand::trace_, nullptr,
       "replay a packet trace instead of drawing packets: lines 'cycle source destination flits' ('#' comments), "
       "as meshmp run --record-trace writes them; each packet enters its source's queue at its cycle. The "
       "windows span the trace (warm-up 0) unless given"},
      {"rate", "--rate", K::Number, &TrafficCommand::rate_, nullptr,
       "offered load, flits/node/cycle  [default 0.1]"},
      {"injection", "--injection", K::Text, &TrafficCommand::injection_, nullptr,
       "how sources offer it: bernoulli (a trial every cycle) or on-off (BookSim2's two-state Markov source: bursts "
       "of --burst-cycles on average, then --idle-cycles without packets)  [default bernoulli]"},
      {"burst_cycles", "--burst-cycles", K::Number, &TrafficCommand::burst_cycles_, nullptr,
       "on-off: mean burst length, cycles  [default 10]"},
      {"idle_cycles", "--idle-cycles", K::Number, &TrafficCommand::idle_cycles_, nullptr,
       "on-off: mean idle length, cycles  [default 10]"},
      {"rates", "--rates", K::Text, &TrafficCommand::rates_, nullptr,
       "sweep the load FROM:TO:STEP (e.g. 0.02:0.4:0.02) or over a list of increasing loads (e.g. 0.1,0.2,0.25), each "
       "point in its own process; writes --csv and --png"},
      {"routings", "--routings", K::Text, &TrafficCommand::routings_, nullptr,
       "a sweep's curves: each routing function named (comma-separated, e.g. dimension-order,odd-even,min-adaptive) "
       "runs every load, and the plot draws them together"},
      {"packet_flits", "--packet-flits", K::WholeNumber, &TrafficCommand::packet_flits_, &limits::kTrafficPacketFlits,
       "flits per packet, the head included"},
      {"packet_sizes", "--packet-sizes", K::Text, &TrafficCommand::packet_sizes_, nullptr,
       "a mix of packet sizes instead of --packet-flits, flits with the head, e.g. 1,4,8: each packet's size drawn "
       "with the weights --packet-size-rates (BookSim2's packet_size); the load stays in flits, so packets come at "
       "rate / mean size"},
      {"packet_size_rates", "--packet-size-rates", K::Text, &TrafficCommand::packet_size_rates_, nullptr,
       "the weights of --packet-sizes, one positive number per size, e.g. 1,2,1  [default all 1]"},
      {"warmup_cycles", "--warmup-cycles", K::WholeNumber, &TrafficCommand::warmup_cycles_, &limits::kTrafficWarmupCycles,
       "cycles before packets are measured"},
      {"measure_cycles", "--measure-cycles", K::WholeNumber, &TrafficCommand::measure_cycles_,
       &limits::kTrafficMeasureCycles, "cycles during which created packets are measured"},
      {"drain_cycles", "--drain-cycles", K::WholeNumber, &TrafficCommand::drain_cycles_, &limits::kTrafficDrainCycles,
       "after generation, at most this many cycles to deliver the measured packets"},
      {"seed", "--seed", K::WholeNumber, &TrafficCommand::seed_, &limits::kTrafficSeed, "random seed"},
      {"seeds", "--seeds", K::WholeNumber, &TrafficCommand::seeds_, &limits::kTrafficSeeds,
       "runs of each load, with the seeds --seed, --seed + 1, ... (each in its own process): the results give the "
       "mean over them and the 95% confidence interval (Student's t) of the average latency and the accepted load"},
      {"exclude_self", "--exclude-self", K::Switch, &TrafficCommand::exclude_self_, nullptr,
       "uniform: never send to the source itself"},
      {"hotspot_node", "--hotspot-node", K::Node, &TrafficCommand::hotspot_node_, nullptr,
       "hotspot: the hot node  [default 0]"},
      {"hotspot_fraction", "--hotspot-fraction", K::Number, &TrafficCommand::hotspot_fraction_, nullptr,
       "hotspot: share of packets sent to it  [default 0.2]"},
  };
  return settings;
}

void TrafficCommand::add_to(CLI::App& c) {
  std::string keys;
  for (const TrafficSetting& setting : traffic_settings()) keys += (keys.empty() ? "" : ", ") + setting.key;
  c.add_option("-c,--config", config_file_,
               "JSON config file: the network's keys as `meshmp run` reads them (topology, router, node, run) and "
               "a section traffic {" + keys + "}, as a result's \"config\" holds them; options given on the command "
               "line override it");
  network_.add_network_options_to(c, /*with_packet_limit=*/false);
  for (const TrafficSetting& setting : traffic_settings()) {
    CLI::Option* option = nullptr;
    switch (setting.kind) {
      case TrafficSetting::Kind::Switch: option = c.add_flag(setting.flags, this->*std::get<bool TrafficCommand::*>(setting.member), setting.help); break;
      case TrafficSetting::Kind::Number: option = c.add_option(setting.flags, this->*std::get<double TrafficCommand::*>(setting.member), setting.help); break;
      case TrafficSetting::Kind::Node: option = c.add_option(setting.flags, this->*std::get<int TrafficCommand::*>(setting.member), setting.help); break;
      case TrafficSetting::Kind::Text: option = c.add_option(setting.flags, this->*std::get<std::string TrafficCommand::*>(setting.member), setting.help); break;
      case TrafficSetting::Kind::WholeNumber: {
        std::string& text = this->*std::get<std::string TrafficCommand::*>(setting.member);
        option = c.add_option(setting.flags, text, setting.help + "  [" + setting.limit->rule().substr(8) + ", default " + text + "]");
        option->type_name("N");
        break;
      }
    }
    given_[setting.key] = option;
  }
  rate_option_ = given_.at("rate");
  hotspot_node_option_ = given_.at("hotspot_node");
  hotspot_fraction_option_ = given_.at("hotspot_fraction");
  c.add_option("-o,--stats-json", stats_json_, "write the result(s) as JSON to this file; - for standard output (the summary then goes to standard error)");
  csv_option_ = c.add_option("--csv", csv_, "sweep: latency-vs-load CSV  [default meshmp-traffic.csv]");
  png_option_ = c.add_option("--png", png_, "sweep: latency- and accepted-vs-load plot, a curve per routing function of --routings (needs python3-matplotlib)  [default meshmp-traffic.png]");
  link_heatmap_option_ = c.add_option(
      "--link-heatmap", link_heatmap_,
      "one load: draw the links coloured by their utilisation in the measurement window (a 2-D mesh or torus as "
      "itself, any other topology as a source x destination matrix; needs python3-matplotlib)");
  c.add_option("--compare-reference", reference_,
               "sweep: compare with a reference curve CSV (load,accepted,latency[,routers crossed]), e.g. "
               "sims/reference/booksim2-mesh8x8-uniform.csv");
  c.add_flag("--json-line", json_line_, "print the result as one JSON line (used by the sweep)")->group("");
  c.footer(R"(
DESCRIPTION
  Every node is a source of packets (--packet-flits, the head included, or a mix: --packet-sizes) at
  the offered load --rate in flits/node/cycle, Bernoulli or on-off (--injection), with an unbounded
  source queue; or the packets of a trace (--trace, as meshmp run --record-trace writes it) replayed.
  Packets created during the measurement window are measured from creation to the ejection of their
  tail (source queueing included; also split into source queueing and network latency, and given as
  percentiles and a histogram); the accepted load counts the flits ejected during the window, in all
  and per source. With --rates each load runs in its own process and the curve is written as CSV and
  PNG; --compare-reference compares it with a reference curve
  (sims/reference/booksim2-mesh8x8-uniform.csv: BookSim2's input-queued router, which
  --pipeline-depth 4 --vcs 4 --buffer-flits 8 --link-latency 1 models).

EXAMPLES
  meshmp traffic --topology mesh:8x8 --pipeline-depth 4 --rate 0.2
  meshmp traffic --topology mesh:8x8 --pipeline-depth 4 --rates 0.02:0.44:0.02 \
      --compare-reference sims/reference/booksim2-mesh8x8-uniform.csv
  meshmp traffic --topology torus:8x8 --pattern transpose --rate 0.1
  meshmp traffic --topology mesh:8x8 --pattern transpose --rate 0.2 --link-heatmap links.png
  meshmp traffic --topology mesh:8x8 --rate 0.3 --packet-sizes 1,4,8 --packet-size-rates 1,2,1
  meshmp traffic --topology mesh:4x4 --trace direct.trace   (from meshmp run ... --record-trace direct.trace))");
}

// The load where the latency reaches 3x its value at the lowest load, interpolated; -1 when the loads run
// never reach it. Loads that measured no packet (latency NaN) are left out.
double saturation_load(const std::vector<double>& all_loads, const std::vector<double>& all_latencies) {
  std::vector<double> loads, latencies;
  for (std::size_t i = 0; i < all_loads.size(); ++i)
    if (!std::isnan(all_latencies[i])) {
      loads.push_back(all_loads[i]);
      latencies.push_back(all_latencies[i]);
    }
  if (loads.empty()) return -1;
  const double threshold = 3 * latencies.front();
  for (std::size_t i = 1; i < loads.size(); ++i)
    if (latencies[i] >= threshold)
      return loads[i - 1] + (loads[i] - loads[i - 1]) * (threshold - latencies[i - 1]) / (latencies[i] - latencies[i - 1]);
  return -1;
}

namespace {

// A number of a point's JSON, NaN where it is null (no packet measured).
double number_or_nan(const nlohmann::json& value) { return value.is_null() ? NAN : value.get<double>(); }

// A saturation load as JSON (null: not reached) and as text.
nlohmann::json saturation_json(double load) { return load >= 0 ? nlohmann::json(load) : nlohmann::json(nullptr); }
std::string saturation_text(double load) {
  if (load < 0) return "not reached at the loads run";
  std::ostringstream text;
  text << std::fixed << std::setprecision(4) << load;
  return text.str();
}

}  // namespace

TrafficCommand::Setup TrafficCommand::prepare(double rate, const std::string& routing) const {
  TrafficParams params;
  params.pattern = parse_traffic_pattern(pattern_);
  params.packet_flits = static_cast<int>(parse_integer(packet_flits_, limits::kTrafficPacketFlits));
  params.packet_sizes = parse_packet_sizes(packet_sizes_);
  params.packet_size_rates = parse_size_weights(packet_size_rates_);
  if (!params.packet_sizes.empty()) {
    if (const CLI::Option* option = given_.at("packet_flits"); option->count() > 0)
      throw ConfigError(option->get_name(), packet_flits_,
                        "gives every packet one size; --packet-sizes gives a mix: give one of the two");
    if (from_file_.count("packet_flits"))
      throw ConfigError("traffic.packet_flits", packet_flits_,
                        "gives every packet one size; traffic.packet_sizes gives a mix: give one of the two");
  }
  params.warmup_cycles = parse_integer(warmup_cycles_, limits::kTrafficWarmupCycles);
  params.measure_cycles = parse_integer(measure_cycles_, limits::kTrafficMeasureCycles);
  params.drain_cycles = parse_integer(drain_cycles_, limits::kTrafficDrainCycles);
  params.seed = parse_integer(seed_, limits::kTrafficSeed);
  if (params.seed > limits::kTrafficSeed.max - (seeds() - 1))
    throw ConfigError("traffic.seeds", seeds_,
                      "the seeds run from traffic.seed (" + seed_ + ") to seed + seeds - 1, which must be at most " +
                          std::to_string(limits::kTrafficSeed.max));
  params.injection = parse_traffic_injection(injection_);
  params.burst_cycles = burst_cycles_;
  params.idle_cycles = idle_cycles_;
  if (params.injection != TrafficInjection::OnOff)
    for (const char* key : {"burst_cycles", "idle_cycles"})
      if (const CLI::Option* option = given_.at(key); option->count() > 0 || from_file_.count(key))
        throw ConfigError(std::string("traffic.") + key, option->count() > 0 ? option->as<std::string>() : from_file_.at(key),
                          "applies to --injection on-off only (the injection is " + injection_ + ")");
  if (params.pattern != TrafficPattern::Hotspot) {
    for (const CLI::Option* option : {hotspot_node_option_, hotspot_fraction_option_})
      if (option && option->count() > 0)
        throw ConfigError(option->get_name(), option->as<std::string>(),
                          "applies to --pattern hotspot only (the pattern is " + pattern_ + ")");
    for (const char* key : {"hotspot_node", "hotspot_fraction"})
      if (from_file_.count(key))
        throw ConfigError(std::string("traffic.") + key, from_file_.at(key),
                          "applies to pattern hotspot only (the pattern is " + pattern_ + ")");
  }
  if (exclude_self_ && params.pattern != TrafficPattern::Uniform)
    throw ConfigError("--exclude-self", "true", "applies to --pattern uniform only (the pattern is " + pattern_ + ")");
  params.include_self = !exclude_self_;
  params.hotspot_node = hotspot_node_;
  params.hotspot_fraction = hotspot_fraction_;
  params.flits_per_node_per_cycle = rate;

  MachineConfig config = network_.resolve_over(file_network_);
  if (!routing.empty()) config.routing = routing;
  if (!Topology::fabric_of(config.topology).empty())
    throw InputError(ConfigError("topology", config.topology,
                                 "is joined by a fabric, not a router network: meshmp traffic drives router networks "
                                 "(mesh, torus, ring, hypercube, ghc, product)")
                         .what());
  if (!trace_.empty()) load_trace(params, Topology::parse(config.topology).num_nodes());
  // Traffic has no node memories: the smallest block keeps the exchange's memory rules out of the way.
  config.block_bytes = 1;
  // (A size of a mix beyond the router's limit is refused below, naming traffic.packet_sizes.)
  config.router.max_packet_payload_flits =
      std::clamp(params.largest_packet_flits() - 1, 1, static_cast<int>(limits::kMaxPacketPayloadFlits.max));
  config.router.exclusive_ejection = false;  // bare sinks: a flit per cycle from any packet
  if (auto error = config.validate()) throw InputError(*error);
  if (config.fidelity == NetworkFidelity::Both)
    throw InputError(ConfigError("network.fidelity", "both",
                                 "meshmp traffic runs one level, cycle or tlm (meshmp fidelity compares them)")
                         .what());
  Topology topology = Topology::parse(config.topology);
  if (auto error = check_model_fits(topology, config, std::nullopt)) throw InputError(*error);
  if (auto error = params.validate(topology)) throw InputError(*error);
  Technology technology = read_technology("power.technology_file", config.technology_file);
  return {std::move(config), std::move(topology), params, technology};
}

std::vector<std::string> TrafficCommand::curve_routings() const {
  if (routings_.empty()) return {};
  const std::string field = given_.at("routings")->count() > 0 ? "--routings" : "traffic.routings";
  std::vector<std::string> names;
  const std::vector<std::string> known = routing_function_names();
  std::stringstream list(routings_);
  for (std::string name; std::getline(list, name, ',');) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string all;
      for (const std::string& k : known) all += (all.empty() ? "" : ", ") + k;
      throw ConfigError(field, routings_, "'" + name + "' is not a routing function; known: " + all);
    }
    if (std::find(names.begin(), names.end(), name) != names.end())
      throw ConfigError(field, routings_, "names '" + name + "' twice: each routing function is one curve");
    names.push_back(name);
  }
  if (routings_.back() == ',') throw ConfigError(field, routings_, "ends with a comma: name a routing function after it");
  if (network_.routing_given())
    throw ConfigError(field, routings_, "gives each curve its routing function: give it or --routing, not both");
  if (!reference_.empty())
    throw ConfigError(field, routings_, "draws several curves; --compare-reference compares one: give one of the two");
  return names;
}

void TrafficCommand::load_trace(TrafficParams& params, int nodes) const {
  for (const char* key : {"pattern", "rate", "rates", "injection", "packet_flits", "packet_sizes", "packet_size_rates",
                          "exclude_self"}) {
    if (const CLI::Option* option = given_.at(key); option->count() > 0)
      throw ConfigError(option->get_name(), option->as<std::string>(),
                        "describes drawn packets; --trace replays its own (give one or the other)");
    if (from_file_.count(key))
      throw ConfigError(std::string("traffic.") + key, from_file_.at(key),
                        "describes drawn packets; traffic.trace replays its own (give one or the other)");
  }
  params.trace = parse_packet_trace(
      trace_, read_input_file("--trace", trace_, InputFileRule{"a packet trace", std::uint64_t{1} << 30,
                                                               "a packet trace must be at most 1 GiB"}),
      nodes);
  auto given = [this](const char* key) { return given_.at(key)->count() > 0 || from_file_.count(key) > 0; };
  if (!given("warmup_cycles")) params.warmup_cycles = 0;
  if (!given("measure_cycles"))
    params.measure_cycles = std::max<std::uint64_t>(1, params.trace.back().cycle + 1 - std::min(params.warmup_cycles, params.trace.back().cycle + 1));
  std::uint64_t flits = 0;
  for (const TracePacket& packet : params.trace)
    if (packet.cycle >= params.warmup_cycles && packet.cycle < params.warmup_cycles + params.measure_cycles)
      flits += static_cast<std::uint64_t>(packet.flits);
  params.flits_per_node_per_cycle = static_cast<double>(flits) / (static_cast<double>(params.measure_cycles) * nodes);
}

namespace {

// The network alone at the level asked for (network.fidelity; `both` is meshmp run's and the fidelity
// table's).
std::unique_ptr<Interconnect> build_network(const MachineConfig& config, const Topology& topology,
                                            sc_core::sc_time period, std::uint64_t seed) {
  if (config.fidelity == NetworkFidelity::Transaction)
    return std::make_unique<TransactionNetwork>("network", topology, config.router, config.port_model,
                                                find_routing_function(config.routing), period);
  RouterParams router = with_routing(config.router, config.routing);
  router.routing_seed = seed;  // router.selection random and two-phase intermediate nodes: the traffic's seed
  return std::make_unique<Network>("network", topology, router, config.port_model,
                                   find_routing_function(config.routing), period, config.watchdog_cycles,
                                   config.host_threads);
}

}  // namespace

std::string TrafficCommand::network_description(const Setup& setup) const {
  const RouterParams& router = setup.config.router;
  return setup.topology.spec() + ", " + pattern_text() + ", " + packet_size_text(setup.params) + ", " +
         std::to_string(router.vcs) + " VCs x " + std::to_string(router.buffer_flits) + " flits, " +
         std::to_string(router.pipeline_depth) + "-cycle routers, " + std::to_string(router.link_latency_cycles) +
         "-cycle links";
}

void TrafficCommand::check_like_with_like(const std::map<std::string, std::string>& network, const Setup& setup) const {
  const RouterParams& router = setup.config.router;
  const auto plain = [](double value) {
    std::ostringstream text;
    text << value;
    return text.str();
  };
  const std::map<std::string, std::string> here{{"topology", setup.topology.spec()},
                                                {"pattern", pattern_text()},
                                                {"vcs", std::to_string(router.vcs)},
                                                {"buffer_flits", std::to_string(router.buffer_flits)},
                                                {"packet_flits", packet_sizes_.empty() ? std::to_string(setup.params.packet_flits)
                                                                                        : canonical_list(setup.params.sizes())},
                                                {"packet_sizes", canonical_list(setup.params.sizes())},
                                                {"packet_size_rates", canonical_list(setup.params.size_weights())},
                                                {"link_latency", std::to_string(router.link_latency_cycles)},
                                                {"routing", setup.config.routing},
                                                {"injection", to_string(setup.params.injection)},
                                                {"burst_cycles", plain(setup.params.burst_cycles)},
                                                {"idle_cycles", plain(setup.params.idle_cycles)}};
  for (const std::string& key : kReferenceKeys) {  // in this order: the first setting that differs is named
    if (!network.count(key)) continue;
    const std::string& value = network.at(key);
    std::string theirs = value;
    if (key == "topology") theirs = Topology::parse(value, "--compare-reference").spec();
    if (key == "packet_sizes") theirs = canonical_list(parse_packet_sizes(value));
    if (key == "packet_size_rates") theirs = canonical_list(parse_size_weights(value));
    if (key == "burst_cycles" || key == "idle_cycles") theirs = plain(std::strtod(value.c_str(), nullptr));
    if (theirs != here.at(key))
      throw ConfigError("--compare-reference", reference_,
                        "was measured with " + key + " " + value + "; this run has " + key + " " + here.at(key) +
                            ": the curves would not compare like with like");
  }
}

void TrafficCommand::print_point(std::ostream& out, const MachineConfig& config, const Topology& topology,
                                 const TrafficParams& params, double rate, const TrafficGenerator& generator,
                                 const Interconnect& network, const nlohmann::json& result) const {
  const TrafficStats& s = generator.stats();
  const bool complete = generator.measurement_drained();
  out << std::fixed << "meshmp traffic: " << topology.spec() << ", " << pattern_text() << ", offered " << std::setprecision(3)
      << rate << " flits/node/cycle, " << packet_size_text(params) << ", " << config.router.vcs << " VCs x "
      << config.router.buffer_flits << " flits, " << config.router.pipeline_depth << "-cycle routers\n"
      << "  accepted " << std::setprecision(4) << generator.accepted_flits_per_node_per_cycle() << " flits/node/cycle; ";
  if (s.measured_packets == 0)
    out << "no packet was measured, so no latency or hops (a longer --measure-cycles or a higher rate measures some)";
  else {
    const LatencyDistribution latencies = generator.latency_distribution();
    out << "packet latency average " << std::setprecision(2) << generator.average_latency() << ", p50 / p90 / p99 / "
        << "p99.9 / max " << latencies.percentile(0.5) << " / " << latencies.percentile(0.9) << " / "
        << latencies.percentile(0.99) << " / " << latencies.percentile(0.999) << " / " << latencies.max()
        << " cycles (creation to tail ejection): source queueing " << std::setprecision(2)
        << generator.average_source_queueing_latency() << " + network " << generator.average_network_latency()
        << " on average; average hops " << std::setprecision(3) << generator.average_hops() << " (minimal "
        << generator.average_minimal_hops() << ")";
  }
  const std::vector<double> accepted = generator.accepted_flits_per_cycle_by_source();
  out << "\n  accepted per source: min " << std::setprecision(4) << *std::min_element(accepted.begin(), accepted.end())
      << ", max " << *std::max_element(accepted.begin(), accepted.end()) << " flits/cycle";
  if (const std::string links = link_utilisation_text(result); !links.empty()) out << "\n  " << links;
  if (const nlohmann::json& power = result["power"]; !power.is_null()) {
    out << "\n  network power " << std::setprecision(4) << power["watts"]["total"].get<double>() << " W (leakage "
        << power["watts"]["leakage"].get<double>() << " W) at " << std::setprecision(2) << power["clock_ghz"].get<double>()
        << " GHz, area " << std::setprecision(3) << power["area_mm2"]["total"].get<double>() << " mm^2";
    if (!power["energy_per_delivered_bit_joules"].is_null())
      out << ", " << std::setprecision(3) << power["energy_per_delivered_bit_joules"].get<double>() * 1e12
          << " pJ per delivered bit";
  }
  out << "\n  " << s.measured_packets << " packets measured"
      << (complete ? "" : " (NOT all delivered within --drain-cycles: the network is saturated)") << "\n";
  for (const auto& e : s.errors) out << "  ERROR: " << e << "\n";
  if (network.failed()) out << "  FAILED: " << network.failure() << "\n";
}

void TrafficCommand::refuse_sweep_outputs() const {
  if (!routings_.empty())
    throw ConfigError(given_.at("routings")->count() > 0 ? "--routings" : "traffic.routings", routings_,
                      "draws a curve per routing function of a sweep of loads: give --rates FROM:TO:STEP");
  if (csv_option_->count() > 0 || png_option_->count() > 0 || !reference_.empty()) {
    const CLI::Option* given = !reference_.empty() ? nullptr : csv_option_->count() > 0 ? csv_option_ : png_option_;
    throw ConfigError(given ? given->get_name() : "--compare-reference", given ? given->as<std::string>() : reference_,
                      "belongs to a sweep of loads: give --rates FROM:TO:STEP");
  }
}

std::optional<OutputFile> TrafficCommand::link_heatmap_output() const {
  if (link_heatmap_option_->count() == 0) return std::nullopt;
  check_distinct_outputs({{"--link-heatmap", link_heatmap_},
                          {"--stats-json", stats_json_ == kStandardOutput ? "" : stats_json_}});
  return plot_output("--link-heatmap", link_heatmap_);
}

std::string TrafficCommand::heatmap_title(const Setup& setup, double rate) const {
  std::ostringstream title;
  title << network_description(setup) << "\noffered " << std::fixed << std::setprecision(3) << rate
        << " flits/node/cycle";
  return title.str();
}

std::uint64_t TrafficCommand::seeds() const { return parse_integer(seeds_, limits::kTrafficSeeds); }

int TrafficCommand::run_point(double rate, const std::string& self_path, std::ostream& out, std::ostream& err) const {
  refuse_sweep_outputs();
  std::optional<Setup> setup;
  try {
    setup = prepare(rate);
  } catch (const InputError& e) {
    err << "meshmp: error: " << e.what() << "\n";
    return 2;
  }
  const MachineConfig& config = setup->config;
  const Topology& topology = setup->topology;
  const TrafficParams& params = setup->params;
  if (!params.trace.empty()) rate = params.flits_per_node_per_cycle;  // the trace's, in its measurement window
  // -o -: the JSON goes to standard output, the summary to standard error.
  const bool stats_to_stdout = stats_json_ == kStandardOutput;
  std::ostream& summary = stats_to_stdout ? err : out;
  OutputFile stats_file;
  if (!stats_json_.empty() && !stats_to_stdout) stats_file = OutputFile("--stats-json", stats_json_);
  std::optional<OutputFile> heatmap = link_heatmap_output();
  warn_of_a_dependency_cycle(config, err);
  const sc_core::sc_time period(1, sc_core::SC_NS);
  const std::unique_ptr<Interconnect> built = build_network(config, topology, period, params.seed);
  Interconnect& network = *built;
  network.on_failure([] { sc_core::sc_stop(); });
  TrafficGenerator generator(network, params);
  generator.start();
  const auto started = std::chrono::steady_clock::now();
  // The links' counts at both ends of the measurement window: what they carried in it is the difference.
  const auto running = [] { return sc_core::sc_get_status() != sc_core::SC_STOPPED; };
  if (params.warmup_cycles > 0) sc_core::sc_start(period * static_cast<double>(params.warmup_cycles));
  const std::vector<LinkCount> links_at_warmup_end = network.link_counts();
  const std::optional<ActivitySnapshot> activity_at_warmup_end = snapshot_activity(network);
  if (running()) sc_core::sc_start(period * static_cast<double>(params.measure_cycles));
  const std::vector<LinkCount> links_at_measure_end = network.link_counts();
  const std::optional<ActivitySnapshot> activity_at_measure_end = snapshot_activity(network);
  std::uint64_t drained = 0;
  while (!generator.measurement_drained() && !network.failed() && drained < params.drain_cycles &&
         sc_core::sc_get_status() != sc_core::SC_STOPPED) {
    sc_core::sc_start(period * 1000.0);
    drained += 1000;
  }
  const double host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const TrafficStats& s = generator.stats();
  const bool complete = generator.measurement_drained();
  // A figure of the measured packets: null when none was measured (an average of nothing is no 0).
  auto measured = [&s](double value) { return s.measured_packets > 0 ? nlohmann::json(value) : nlohmann::json(nullptr); };
  const LatencyDistribution latencies = generator.latency_distribution();
  nlohmann::json histogram = nlohmann::json::array();
  for (const LatencyBin& bin : latencies.histogram())
    histogram.push_back({{"from_cycles", bin.from_cycles}, {"to_cycles", bin.to_cycles}, {"packets", bin.packets}});
  const std::vector<double> accepted_by_source = generator.accepted_flits_per_cycle_by_source();
  nlohmann::json result = {{"meshmp", build_identity()},
                           {"config", config_json(*setup, rate)},
                           {"pattern", pattern_text()},
                           {"topology", topology.spec()},
                           {"offered_flits_per_node_per_cycle", rate},
                           {"accepted_flits_per_node_per_cycle", generator.accepted_flits_per_node_per_cycle()},
                           {"source_offered_flits_per_cycle", generator.offered_flits_per_cycle_by_source()},
                           {"source_accepted_flits_per_cycle", accepted_by_source},
                           {"min_source_accepted_flits_per_cycle",
                            *std::min_element(accepted_by_source.begin(), accepted_by_source.end())},
                           {"max_source_accepted_flits_per_cycle",
                            *std::max_element(accepted_by_source.begin(), accepted_by_source.end())},
                           {"average_packet_latency_cycles", measured(generator.average_latency())},
                           {"p50_packet_latency_cycles", measured(latencies.percentile(0.5))},
                           {"p90_packet_latency_cycles", measured(latencies.percentile(0.9))},
                           {"p99_packet_latency_cycles", measured(latencies.percentile(0.99))},
                           {"p999_packet_latency_cycles", measured(latencies.percentile(0.999))},
                           {"max_packet_latency_cycles", measured(latencies.max())},
                           {"packet_latency_histogram", histogram},
                           {"average_source_queueing_cycles", measured(generator.average_source_queueing_latency())},
                           {"average_network_latency_cycles", measured(generator.average_network_latency())},
                           {"average_hops", measured(generator.average_hops())},
                           {"average_minimal_hops", measured(generator.average_minimal_hops())},
                           {"average_packet_flits", measured(generator.average_packet_flits())},
                           {"measured_packets", s.measured_packets},
                           {"all_measured_packets_delivered", complete},
                           {"errors", s.errors},
                           {"failure", network.failure()},
                           {"host_seconds", host_seconds}};
  add_link_utilisation(result, links_at_warmup_end, links_at_measure_end, params.measure_cycles);
  // The network's power over the measurement window, from its routers' and channels' events.
  result["power"] = nullptr;
  if (activity_at_warmup_end && activity_at_measure_end) {
    const NetworkActivity activity =
        activity_between(network, *activity_at_warmup_end, *activity_at_measure_end, config.priced_channel_width_bits(),
                         config.price_edge_channels);
    result["power"] = power_report(network_power(setup->technology, activity), activity, config.technology_file);
  }
  if (stop_signal() != 0) {
    err << "meshmp: stopped by " << signal_name(stop_signal()) << " at simulated cycle " << network.current_cycle()
        << "; no output written\n";
    return stopped_exit_status();
  }
  if (stats_file.is_open()) {
    stats_file.stream() << result.dump(1) << "\n";
    if (auto error = stats_file.try_commit()) {
      err << "meshmp: error: " << *error << "\n";
      return 1;
    }
  }
  if (stats_to_stdout) out << result.dump(1) << "\n";
  if (json_line_) {
    out << result.dump() << "\n";
  } else {
    print_point(summary, config, topology, params, rate, generator, network, result);
  }
  if (heatmap)  // "plot: FILE" beside the summary, never inside the JSON line
    draw_link_heatmap(self_path, topology, result, heatmap_title(*setup, rate), *heatmap, json_line_ ? err : summary);
  return s.errors.empty() && !network.failed() ? 0 : 1;
}

namespace {

// `text` read whole as a number; NaN when it is not one.
double whole_number_text(const std::string& text) {
  std::size_t used = 0;
  double value = NAN;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  return used == text.size() && !text.empty() ? value : NAN;
}

// FROM:TO:STEP, or the loads themselves as a comma-separated list (one load alone too), increasing.
std::vector<double> parse_rates(const std::string& text) {
  const std::string rule =
      "expected FROM:TO:STEP with 0 < FROM <= TO <= 1 and STEP > 0, or a comma-separated list of increasing loads "
      "in (0, 1]";
  constexpr double kMaxPoints = 1000;  // each point is a process of its own
  std::vector<double> rates;
  if (text.find(':') == std::string::npos) {
    std::istringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
      const double load = whole_number_text(item);
      if (!(load > 0) || load > 1 || (!rates.empty() && !(load > rates.back())))
        throw ConfigError("traffic.rates", text, rule);
      rates.push_back(load);
    }
    if (rates.empty() || text.back() == ',') throw ConfigError("traffic.rates", text, rule);
    if (rates.size() > kMaxPoints)
      throw ConfigError("traffic.rates", text, "at most " + std::to_string(static_cast<int>(kMaxPoints)) + " loads");
    return rates;
  }
  double from, to, step;
  char c1, c2;
  std::istringstream in(text);
  if (!(in >> from >> c1 >> to >> c2 >> step) || c1 != ':' || c2 != ':' || !in.eof() || !(step > 0) ||
      !(from > 0) || !(to >= from) || to > 1)
    throw ConfigError("traffic.rates", text, rule);
  if ((to - from) / step + 1 > kMaxPoints + 1e-9)
    throw ConfigError("traffic.rates", text,
                      "at most " + std::to_string(static_cast<int>(kMaxPoints)) + " loads (this gives " +
                          std::to_string(static_cast<long long>(std::floor((to - from) / step + 1e-9)) + 1) + ")");
  for (int k = 0; from + k * step <= to + 1e-9; ++k) rates.push_back(std::round((from + k * step) * 1e6) / 1e6);
  return rates;
}

struct ReferencePoint {
  double load, accepted, latency, routers;
};


struct ReferenceCurve {
  std::map<std::string, std::string> network;  // from the "# key: value" lines
  std::vector<ReferencePoint> points;
};

// "# key: value" (a key of kReferenceKeys), else a ConfigError naming the line.
void read_reference_setting(const std::string& path, const std::string& line, int number, ReferenceCurve& curve) {
  const std::size_t colon = line.find(':');
  std::string key = colon == std::string::npos ? "" : line.substr(1, colon - 1);
  std::string value = colon == std::string::npos ? "" : line.substr(colon + 1);
  auto trim = [](std::string& text) {
    text.erase(0, text.find_first_not_of(' '));
    text.erase(text.find_last_not_of(' ') + 1);
  };
  trim(key);
  trim(value);
  if (std::find(kReferenceKeys.begin(), kReferenceKeys.end(), key) == kReferenceKeys.end() || value.empty())
    throw ConfigError("--compare-reference", path,
                      "line " + std::to_string(number) + ": '" + echo(line.substr(0, 60)) +
                          "': expected '# KEY: VALUE' with KEY one of topology, pattern, vcs, buffer_flits, "
                          "packet_flits, packet_sizes, packet_size_rates, link_latency, routing, injection, "
                          "burst_cycles, idle_cycles");
  curve.network[key] = value;
}

// A reference curve: "# key: value" lines naming its network (optional), a header line, then
// load,accepted,latency[,routers] rows of numbers (accepted and routers may be empty). Anything else is
// an error naming the line.
ReferenceCurve read_reference(const std::string& path) {
  std::istringstream in(read_input_file(
      "--compare-reference", path,
      InputFileRule{"a reference CSV", std::uint64_t{16} << 20, "a reference curve must be at most 16 MiB"}));
  auto number = [&](const std::string& text, int line, bool may_be_empty) {
    if (may_be_empty && text.empty()) return static_cast<double>(NAN);
    const double value = whole_number_text(text);
    if (!std::isfinite(value) || value < 0)
      throw ConfigError("--compare-reference", path,
                        "line " + std::to_string(line) + ": '" + text.substr(0, 40) +
                            "' is not a number >= 0 (expected rows load,accepted,latency[,routers] after a header)");
    return value;
  };
  ReferenceCurve curve;
  std::vector<ReferencePoint>& points = curve.points;
  std::string line;
  int number_of_line = 1;
  bool header = false;
  while (!header && std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind('#', 0) == 0) read_reference_setting(path, line, number_of_line++, curve);
    else header = true;
  }
  if (!header) throw ConfigError("--compare-reference", path, "the file is empty (expected a header and rows)");
  while (std::getline(in, line)) {
    ++number_of_line;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
    if (f.size() < 3 || f.size() > 4)
      throw ConfigError("--compare-reference", path,
                        "line " + std::to_string(number_of_line) + " has " + std::to_string(f.size()) +
                            " fields (expected load,accepted,latency[,routers])");
    points.push_back({number(f[0], number_of_line, false), number(f[1], number_of_line, true),
                      number(f[2], number_of_line, false), f.size() > 3 ? number(f[3], number_of_line, true) : NAN});
  }
  if (points.empty()) throw ConfigError("--compare-reference", path, "the file has no rows of numbers");
  return curve;
}

// `arguments` (this command line's) without the options named in `valued` (each with its value, as two
// words or joined by '=') and the switches named in `flags`: a child process's command line is built on them.
std::vector<std::string> without_options(const std::vector<std::string>& arguments,
                                         const std::vector<std::string>& valued, const std::vector<std::string>& flags) {
  auto named = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& a = arguments[i];
    if (named(valued, a)) {
      ++i;
      continue;
    }
    const bool joined = a.rfind("--", 0) == 0 && a.find('=') != std::string::npos && named(valued, a.substr(0, a.find('=')));
    if (!joined && !named(flags, a)) kept.push_back(a);
  }
  return kept;
}

// How the saturation loads compare, in words: by how much when both saturated, else which did not.
std::string saturation_difference(double measured, double reference) {
  std::ostringstream text;
  if (measured >= 0 && reference > 0)
    text << "saturation differs by " << std::fixed << std::setprecision(1) << 100 * std::abs(measured / reference - 1) << "%";
  else if (measured < 0 && reference < 0)
    text << "neither curve saturates at the loads run";
  else
    text << (measured < 0 ? "this run does not saturate at the loads run; the reference does"
                          : "the reference does not saturate at its loads; this run does");
  return text.str();
}

}  // namespace

int TrafficCommand::run_sweep(const std::string& self_path, const std::vector<std::string>& arguments,
                              std::ostream& out, std::ostream& err) const {
  if (link_heatmap_option_->count() > 0)
    throw ConfigError("--link-heatmap", link_heatmap_,
                      "draws the links of one load: give --rate, not --rates (a sweep runs " + rates_ + ")");
  if (rate_option_->count() > 0)
    throw ConfigError("--rate", rate_option_->as<std::string>(), "a sweep of loads (--rates) sets the rate of each point");
  if (from_file_.count("rate"))
    throw ConfigError("traffic.rate", from_file_.at("rate"), "a sweep of loads (traffic.rates) sets the rate of each point");
  const std::vector<double> rates = parse_rates(rates_);
  const std::vector<std::string> routings = curve_routings();
  ReferenceCurve reference_curve;
  const std::vector<ReferencePoint>& reference = reference_curve.points;
  const std::string reference_file = data_file(reference_);  // from any directory (sims/data_files.h)
  if (!reference_.empty()) reference_curve = read_reference(reference_file);
  // Every input is checked before the first point runs, and every output can be written.
  std::optional<Setup> first;
  try {
    first = prepare(rates.front());
    for (const std::string& routing : routings) {
      try {
        prepare(rates.front(), routing);
      } catch (const InputError& e) {  // the curve's function on this network: named with --routings
        throw InputError("--routings = '" + routings_ + "': the curve of " + routing + ": " + e.what());
      }
    }
  } catch (const InputError& e) {
    err << "meshmp: error: " << e.what() << "\n";
    return 2;
  }
  check_like_with_like(reference_curve.network, *first);
  // -o -: the JSON goes to standard output, the progress and the summary to standard error.
  const bool stats_to_stdout = stats_json_ == kStandardOutput;
  std::ostream& summary = stats_to_stdout ? err : out;
  check_distinct_outputs({{"--csv", csv_}, {"--png", png_}, {"--stats-json", stats_to_stdout ? "" : stats_json_}});
  OutputFile csv("--csv", csv_), png = plot_output("--png", png_), stats_file;
  if (!stats_json_.empty() && !stats_to_stdout) stats_file = OutputFile("--stats-json", stats_json_);
  // A point's command line: this one without the sweep's own options, plus its rate (and its curve's
  // routing function).
  std::vector<std::string> base{self_path};
  for (const std::string& a : without_options(
           arguments, {"--rates", "--routings", "-o", "--stats-json", "--csv", "--png", "--compare-reference"}, {}))
    base.push_back(a);
  // One curve per routing function of --routings, else one of the configured function.
  struct Curve {
    std::string routing;  // empty: the configured one
    nlohmann::json points = nlohmann::json::array();
    std::vector<double> loads, latencies;
  };
  std::vector<Curve> curves;
  for (const std::string& routing : routings) {
    curves.emplace_back();
    curves.back().routing = routing;
  }
  if (curves.empty()) curves.emplace_back();
  summary << std::fixed;
  std::size_t points_run = 0;
  for (Curve& curve : curves) {
    if (stop_signal() != 0) break;
    if (!curve.routing.empty()) summary << "  routing " << curve.routing << ":\n";
    for (std::size_t k = 0; k < rates.size() && stop_signal() == 0; ++k) {
      std::ostringstream rate;
      rate << std::setprecision(6) << rates[k];
      std::vector<std::string> argv = base;
      if (!curve.routing.empty()) argv.insert(argv.end(), {"--routing", curve.routing});
      argv.insert(argv.end(), {"--rate", rate.str(), "--json-line"});
      const ChildOutcome point_run = run_child_process(argv);
      if (stopped_with_this_process(point_run)) break;
      nlohmann::json point;
      try {
        point = nlohmann::json::parse(point_run.out);
      } catch (const nlohmann::json::exception&) {
        err << "meshmp: error: the point at rate " << rate.str()
            << (curve.routing.empty() ? "" : " under " + curve.routing) << " failed (" << point_run.describe() << ")\n";
        return 1;
      }
      ++points_run;
      curve.points.push_back(point);
      curve.loads.push_back(rates[k]);
      curve.latencies.push_back(number_or_nan(point["average_packet_latency_cycles"]));
      // Several seeds: each mean with its 95% interval.
      auto interval = [&point](const char* key) {
        const nlohmann::json half_width = point.value(std::string(key) + "_ci95", nlohmann::json());
        std::ostringstream text;
        if (!half_width.is_null()) text << " +- " << std::fixed << std::setprecision(4) << half_width.get<double>();
        return text.str();
      };
      summary << "  [" << k + 1 << "/" << rates.size() << "] offered " << std::setprecision(3) << rates[k]
              << ": accepted " << std::setprecision(4) << point["accepted_flits_per_node_per_cycle"].get<double>()
              << interval("accepted_flits_per_node_per_cycle");
      if (std::isnan(curve.latencies.back()))
        summary << ", no packet measured";
      else
        summary << ", latency " << std::setprecision(2) << curve.latencies.back()
                << interval("average_packet_latency_cycles") << " (p99 " << std::setprecision(0)
                << point["p99_packet_latency_cycles"].get<double>() << ")";
      summary << (point["all_measured_packets_delivered"].get<bool>() ? "" : " saturated") << "\n" << std::flush;
    }
  }
  {
    std::ostream& rows = csv.stream();
    // The columns: a point's numbers under their JSON names (the load is its offered load); the columns
    // added since the first six come after them, so a reader of those by position reads them still.
    std::vector<std::string> columns{
        "load_flits_per_node_per_cycle", "accepted_flits_per_node_per_cycle", "average_packet_latency_cycles",
        "p99_packet_latency_cycles",     "average_hops",                      "all_measured_packets_delivered",
        "p50_packet_latency_cycles",     "p90_packet_latency_cycles",         "p999_packet_latency_cycles",
        "max_packet_latency_cycles",     "average_source_queueing_cycles",    "average_network_latency_cycles",
        "min_source_accepted_flits_per_cycle", "max_source_accepted_flits_per_cycle"};
    if (seeds() > 1)  // the 95% intervals of the means over the seeds
      columns.insert(columns.end(), {"average_packet_latency_cycles_ci95", "accepted_flits_per_node_per_cycle_ci95"});
    // The network's power (docs/energy.md), named by their path in the result: empty where it has none.
    const std::vector<std::pair<std::string, nlohmann::json::json_pointer>> power_columns{
        {"power.watts.total", nlohmann::json::json_pointer("/power/watts/total")},
        {"power.energy_per_delivered_bit_joules", nlohmann::json::json_pointer("/power/energy_per_delivered_bit_joules")}};
    auto cell = [](const nlohmann::json& value) {  // empty where no packet was measured
      std::ostringstream text;
      if (value.is_boolean()) text << (value.get<bool>() ? 1 : 0);
      else if (!value.is_null()) text << value.get<double>();
      return text.str();
    };
    for (std::size_t c = 0; c < columns.size(); ++c) rows << (c ? "," : "") << columns[c];
    for (const auto& column : power_columns) rows << "," << column.first;
    if (!routings.empty()) rows << ",routing";  // the curve a row belongs to
    rows << '\n';
    for (const Curve& curve : curves)
      for (const auto& p : curve.points) {
        for (std::size_t c = 0; c < columns.size(); ++c)
          rows << (c ? "," : "") << cell(p.at(c == 0 ? "offered_flits_per_node_per_cycle" : columns[c]));
        for (const auto& column : power_columns)
          rows << "," << (p.contains(column.second) ? cell(p.at(column.second)) : "");
        if (!routings.empty()) rows << "," << curve.routing;
        rows << '\n';
      }
    csv.commit();
  }
  summary << "  curve" << (routings.empty() ? "" : "s") << ": " << csv_ << "\n";
  if (stop_signal() != 0) {  // the finished points are kept; no comparison or plot of a cut curve
    err << "meshmp: stopped by " << signal_name(stop_signal()) << " after " << points_run << " of "
        << rates.size() * curves.size() << " loads; " << csv_ << " holds them\n";
    return stopped_exit_status();
  }
  nlohmann::json document;
  if (routings.empty()) {
    const std::vector<double>& loads = curves.front().loads;
    const std::vector<double>& latencies = curves.front().latencies;
    const nlohmann::json& results = curves.front().points;
    nlohmann::json comparison;
    const double saturation = saturation_load(loads, latencies);
    if (!reference.empty()) {
      std::vector<double> ref_loads, ref_latencies;
      for (const auto& r : reference) {
        ref_loads.push_back(r.load);
        ref_latencies.push_back(r.latency);
      }
      const double ref_saturation = saturation_load(ref_loads, ref_latencies);
      // Latencies are compared below the reference's saturation, less the 0.025 the saturation may differ by.
      const double compared_below = ref_saturation > 0 ? ref_saturation - 0.025 : 2.0;
      summary << "  against " << reference_ << ":\n";
      double worst = 0, worst_to_80 = 0;  // the second up to 80% of the reference's saturation
      const double eighty_percent = ref_saturation > 0 ? 0.8 * ref_saturation : 2.0;
      comparison["points"] = nlohmann::json::array();
      for (const auto& r : reference)
        for (std::size_t k = 0; k < loads.size(); ++k)
          if (std::abs(loads[k] - r.load) < 1e-9 && !std::isnan(latencies[k])) {
            const double ratio = latencies[k] / r.latency;
            summary << "    load " << std::setprecision(2) << r.load << ": latency " << std::setprecision(2) << latencies[k]
                << " vs " << r.latency << " (ratio " << std::setprecision(3) << ratio << ")\n";
            comparison["points"].push_back({{"load_flits_per_node_per_cycle", r.load},
                                            {"average_packet_latency_cycles", latencies[k]},
                                            {"reference_average_packet_latency_cycles", r.latency},
                                            {"measured_over_reference", ratio}});
            if (r.load < compared_below) worst = std::max(worst, std::abs(ratio - 1));
            if (r.load <= eighty_percent + 1e-9) worst_to_80 = std::max(worst_to_80, std::abs(ratio - 1));
          }
      summary << "    saturation (latency 3x its low-load value): " << saturation_text(saturation) << " vs "
          << saturation_text(ref_saturation) << " flits/node/cycle\n"
          << "    largest latency difference at loads below " << std::setprecision(3) << compared_below << ": "
          << std::setprecision(1) << 100 * worst << "%\n"
          << "    largest latency difference up to 80% of its saturation (" << std::setprecision(3) << eighty_percent
          << "): " << std::setprecision(1) << 100 * worst_to_80 << "%; " << saturation_difference(saturation, ref_saturation)
          << "\n";
      comparison["saturation_flits_per_node_per_cycle"] = saturation_json(saturation);
      comparison["largest_latency_difference_fraction_to_80_percent_of_saturation"] = worst_to_80;
      comparison["largest_latency_difference_fraction"] = worst;
      comparison["reference_saturation_flits_per_node_per_cycle"] = saturation_json(ref_saturation);
    } else {
      summary << "  saturation (latency 3x its low-load value): " << saturation_text(saturation) << "\n";
    }
    document = {{"meshmp", build_identity()},
                {"config", config_json(*first, std::nullopt)},
                {"points", results},
                {"saturation_flits_per_node_per_cycle", saturation_json(saturation)},
                {"comparison", comparison}};
  } else {
    // A curve per routing function, each a sweep's document of its own.
    document = {{"meshmp", build_identity()}, {"config", config_json(*first, std::nullopt)}, {"curves", nlohmann::json::array()}};
    for (const Curve& curve : curves) {
      const double saturation = saturation_load(curve.loads, curve.latencies);
      summary << "  saturation under " << curve.routing << " (latency 3x its low-load value): "
              << saturation_text(saturation) << "\n";
      nlohmann::json config = config_json(prepare(rates.front(), curve.routing), std::nullopt);
      config["traffic"].erase("routings");  // the curve's own function is its router.routing
      document["curves"].push_back({{"meshmp", build_identity()},
                                    {"config", config},
                                    {"points", curve.points},
                                    {"saturation_flits_per_node_per_cycle", saturation_json(saturation)},
                                    {"comparison", nullptr}});
    }
  }
  if (stats_file.is_open()) {
    stats_file.stream() << document.dump(1) << "\n";
    stats_file.commit();
  }
  if (stats_to_stdout) out << document.dump(1) << "\n";
  std::vector<std::string> trailing{network_description(*first)};
  if (!reference_.empty()) trailing.push_back(reference_file);
  run_plot_script(self_path, "plot_latency.py", MESHMP_PLOT_SCRIPT, {csv_}, png, trailing, summary);
  return 0;
}

int TrafficCommand::run_seeds(const std::string& self_path, const std::vector<std::string>& arguments,
                              std::ostream& out, std::ostream& err) const {
  refuse_sweep_outputs();
  std::optional<Setup> setup;
  try {
    setup = prepare(rate_);
  } catch (const InputError& e) {
    err << "meshmp: error: " << e.what() << "\n";
    return 2;
  }
  const bool stats_to_stdout = stats_json_ == kStandardOutput;
  std::ostream& summary = stats_to_stdout ? err : out;
  OutputFile stats_file;
  if (!stats_json_.empty() && !stats_to_stdout) stats_file = OutputFile("--stats-json", stats_json_);
  warn_of_a_dependency_cycle(setup->config, err);
  // A seed's command line: this one with one run of that seed, its result as a JSON line.
  std::vector<std::string> base{self_path};
  std::optional<OutputFile> heatmap = link_heatmap_output();  // drawn here, of the seeds' means
  for (const std::string& a :
       without_options(arguments, {"--seed", "--seeds", "-o", "--stats-json", "--link-heatmap"}, {"--json-line"}))
    base.push_back(a);
  const std::uint64_t first_seed = setup->params.seed, runs = seeds();
  std::vector<nlohmann::json> results;
  for (std::uint64_t k = 0; k < runs && stop_signal() == 0; ++k) {
    std::vector<std::string> argv = base;
    argv.insert(argv.end(), {"--seed", std::to_string(first_seed + k), "--seeds", "1", "--json-line"});
    const ChildOutcome seed_run = run_child_process(argv);
    if (stopped_with_this_process(seed_run)) break;
    try {
      results.push_back(nlohmann::json::parse(seed_run.out));
    } catch (const nlohmann::json::exception&) {
      err << "meshmp: error: the run of seed " << first_seed + k << " failed (" << seed_run.describe() << ")\n";
      return 1;
    }
  }
  if (stop_signal() != 0) {
    err << "meshmp: stopped by " << signal_name(stop_signal()) << " after " << results.size() << " of " << runs
        << " seeds; no output written\n";
    return stopped_exit_status();
  }
  const nlohmann::json result = combine_seed_results(results);
  if (stats_file.is_open()) {
    stats_file.stream() << result.dump(1) << "\n";
    stats_file.commit();
  }
  if (stats_to_stdout) out << result.dump(1) << "\n";
  if (json_line_) {
    out << result.dump() << "\n";
  } else {
    // The means, each with its interval, then each seed's figures.
    const auto with_interval = [](const nlohmann::json& mean, const nlohmann::json& half_width, int digits) {
      std::ostringstream text;
      text << std::fixed << std::setprecision(digits) << mean.get<double>();
      if (!half_width.is_null()) text << " +- " << half_width.get<double>();
      return text.str();
    };
    summary << "meshmp traffic: " << network_description(*setup) << ", offered " << std::fixed << std::setprecision(3)
            << rate_ << " flits/node/cycle, " << runs << " seeds (" << first_seed << " to " << first_seed + runs - 1
            << "): means and 95% confidence intervals over the seeds\n  accepted "
            << with_interval(result["accepted_flits_per_node_per_cycle"], result["accepted_flits_per_node_per_cycle_ci95"], 4)
            << " flits/node/cycle; packet latency average ";
    if (result["average_packet_latency_cycles"].is_null())
      summary << "none (no packet was measured)";
    else
      summary << with_interval(result["average_packet_latency_cycles"], result["average_packet_latency_cycles_ci95"], 2)
              << " cycles";
    summary << "\n";
    for (const nlohmann::json& seed : results) {
      summary << "  seed " << seed["config"]["traffic"]["seed"] << ": accepted " << std::setprecision(4)
              << seed["accepted_flits_per_node_per_cycle"].get<double>() << ", latency ";
      if (seed["average_packet_latency_cycles"].is_null()) summary << "none";
      else summary << std::setprecision(2) << seed["average_packet_latency_cycles"].get<double>();
      summary << "\n";
    }
    summary << "  " << result["measured_packets"] << " packets measured"
            << (result["all_measured_packets_delivered"].get<bool>()
                    ? ""
                    : " (NOT all delivered within --drain-cycles: the network is saturated)")
            << "\n";
    for (const auto& e : result["errors"]) summary << "  ERROR: " << e.get<std::string>() << "\n";
    if (!result["failure"].get<std::string>().empty())
      summary << "  FAILED: " << result["failure"].get<std::string>() << "\n";
  }
  if (heatmap)
    draw_link_heatmap(self_path, setup->topology, result,
                      heatmap_title(*setup, rate_) + ", means over " + std::to_string(runs) + " seeds", *heatmap,
                      json_line_ ? err : summary);
  return result["errors"].empty() && result["failure"].get<std::string>().empty() ? 0 : 1;
}

void TrafficCommand::apply_config_file() {
  if (!config_file_) return;
  if (config_file_->empty())
    throw ConfigError("--config", "", "names no file; give a JSON config file, or leave --config out for the defaults");
  const std::string path = data_file(*config_file_);
  nlohmann::json json = read_config_file(path);
  if (!json.is_object()) throw ConfigError("--config", *config_file_, "must hold a JSON object");
  nlohmann::json traffic = nlohmann::json::object();
  if (json.contains("traffic")) {
    traffic = json["traffic"];
    json.erase("traffic");
  }
  file_network_.apply_json(json);
  std::set<std::string> keys;
  for (const TrafficSetting& setting : traffic_settings()) keys.insert(setting.key);
  check_config_keys(traffic, "traffic", keys);
  for (const TrafficSetting& setting : traffic_settings()) {
    const std::string& key = setting.key;
    if (!traffic.contains(key)) continue;
    const nlohmann::json& value = traffic[key];
    const std::string field = "traffic." + key;
    if (given_.at(key)->count() > 0) continue;                       // the command line overrides the file
    if (key == "rates" && given_.at("rate")->count() > 0) continue;  // one load asked for: a sweep's point
    if (key == "rate" && given_.at("rates")->count() > 0) continue;  // a sweep asked for
    if (key == "routings" && given_.at("rate")->count() > 0) continue;  // one curve's point
    auto need = [&](bool ok, const char* what) {
      if (!ok) throw ConfigError(field, value.dump(), std::string("must be ") + what);
    };
    from_file_[key] = value.is_string() ? value.get<std::string>() : value.dump();
    switch (setting.kind) {
      case TrafficSetting::Kind::Text:
        need(value.is_string(), "a string");
        this->*std::get<std::string TrafficCommand::*>(setting.member) = value.get<std::string>();
        break;
      case TrafficSetting::Kind::Number:
        need(value.is_number(), "a number");
        this->*std::get<double TrafficCommand::*>(setting.member) = value.get<double>();
        break;
      case TrafficSetting::Kind::Switch:
        need(value.is_boolean(), "true or false");
        this->*std::get<bool TrafficCommand::*>(setting.member) = value.get<bool>();
        break;
      case TrafficSetting::Kind::Node:
        need(value.is_number_integer() && value.get<long long>() >= 0 && value.get<long long>() <= INT32_MAX, "a node id");
        this->*std::get<int TrafficCommand::*>(setting.member) = value.get<int>();
        break;
      case TrafficSetting::Kind::WholeNumber:  // checked against its rule where it is parsed
        need(value.is_number_unsigned(), "a whole number");
        this->*std::get<std::string TrafficCommand::*>(setting.member) = value.dump();
        break;
    }
  }
}

nlohmann::json TrafficCommand::config_json(const Setup& setup, const std::optional<double>& rate) const {
  nlohmann::json traffic = nlohmann::json::object();
  for (const TrafficSetting& setting : traffic_settings()) {
    const std::string& key = setting.key;
    if (key == "rate" || key == "rates") continue;  // one of the two, below
    if (key == "seeds" && seeds() == 1) continue;   // one run per load: the results as they were before --seeds
    if ((key == "hotspot_node" || key == "hotspot_fraction") && setup.params.pattern != TrafficPattern::Hotspot) continue;
    if ((key == "burst_cycles" || key == "idle_cycles") && setup.params.injection != TrafficInjection::OnOff) continue;
    // A trace replays its own packets: the settings of drawn ones are not its.
    if (!trace_.empty() && (key == "pattern" || key == "injection" || key == "packet_flits" || key == "exclude_self"))
      continue;
    if (key == "trace" && trace_.empty()) continue;
    if (key == "routings" && (routings_.empty() || rate)) continue;  // a sweep's curves
    // One size (packet_flits) or a mix (packet_sizes and its weights): never both, which a config refuses.
    if (key == "packet_flits" && !setup.params.packet_sizes.empty()) continue;
    if ((key == "packet_sizes" || key == "packet_size_rates") &&
        (this->*std::get<std::string TrafficCommand::*>(setting.member)).empty())
      continue;
    switch (setting.kind) {
      case TrafficSetting::Kind::Text: traffic[key] = this->*std::get<std::string TrafficCommand::*>(setting.member); break;
      case TrafficSetting::Kind::Number: traffic[key] = this->*std::get<double TrafficCommand::*>(setting.member); break;
      case TrafficSetting::Kind::Switch: traffic[key] = this->*std::get<bool TrafficCommand::*>(setting.member); break;
      case TrafficSetting::Kind::Node: traffic[key] = this->*std::get<int TrafficCommand::*>(setting.member); break;
      case TrafficSetting::Kind::WholeNumber:  // the windows as run (a trace's span them unless given)
        traffic[key] = key == "warmup_cycles"    ? setup.params.warmup_cycles
                       : key == "measure_cycles" ? setup.params.measure_cycles
                                                 : parse_integer(this->*std::get<std::string TrafficCommand::*>(setting.member), *setting.limit);
        break;
    }
  }
  if (rate && trace_.empty())  // a trace sets its own load
    traffic["rate"] = *rate;
  else if (!rate)
    traffic["rates"] = rates_;
  // The network's settings only (those `meshmp traffic` takes): a run's keys (algorithm, block_bytes, the
  // node's and the fabric's) describe nothing of a traffic run. The packet limit is traffic.packet_flits's.
  const nlohmann::json all = setup.config.to_json();
  nlohmann::json config = nlohmann::json::object();
  for (const MachineSetting& setting : machine_settings()) {
    if (!setting.network || !setting.recorded || setting.key == "router.max_packet_payload_flits") continue;
    if (setting.section().empty()) config[setting.key] = all.at(setting.key);
    else config[setting.section()][setting.name()] = all.at(setting.section()).at(setting.name());
  }
  config["traffic"] = traffic;
  return config;
}

int TrafficCommand::run(const CommandContext& context) {
  const std::string& self_path = context.self_path;
  std::ostream& out = context.out;
  std::ostream& err = context.err;
  const std::vector<std::string>& arguments = context.arguments;  // a sweep re-runs them per point
  apply_config_file();
  if (!rates_.empty()) return run_sweep(self_path, arguments, out, err);
  if (seeds() > 1) return run_seeds(self_path, arguments, out, err);
  return run_point(rate_, self_path, out, err);
}

}  // namespace meshmp
