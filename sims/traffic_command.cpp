// `meshmp traffic`. See traffic_command.h.
#include "sims/traffic_command.h"

#include "sims/plot_script.h"

#include <systemc>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "topology/config_error.h"
#include "hw/model_size.h"
#include "hw/network.h"
#include "hw/routing.h"
#include "hw/traffic_generator.h"

#ifndef MESHMP_PLOT_SCRIPT
#define MESHMP_PLOT_SCRIPT "plot_latency.py"
#endif

namespace meshmp {

void TrafficCommand::add_to(CLI::App& c) {
  network_.add_network_options_to(c, /*with_packet_limit=*/false);
  c.add_option("--pattern", pattern_,
               "destinations: uniform (random over all nodes, the source included unless --exclude-self), "
               "transpose ((x,y) -> (y,x), square 2-D), bit-complement (i -> ~i, 2^n nodes), hotspot (a share "
               "--hotspot-fraction to --hotspot-node, the rest uniform), neighbour (+1 in dimension 0, "
               "wrapping)  [default uniform]");
  c.add_option("--rate", rate_, "offered load: Bernoulli injection, flits/node/cycle  [default 0.1]");
  c.add_option("--rates", rates_, "sweep the load FROM:TO:STEP (e.g. 0.02:0.4:0.02), each point in its own process; "
                                  "writes --csv and --png");
  c.add_option("--packet-flits", packet_flits_, "flits per packet, the head included  [default 4]");
  c.add_option("--warmup-cycles", warmup_cycles_, "cycles before packets are measured  [default 10000]");
  c.add_option("--measure-cycles", measure_cycles_, "cycles during which created packets are measured  [default 20000]");
  c.add_option("--drain-cycles", drain_cycles_, "after generation, at most this many cycles to deliver the "
                                                "measured packets  [default 100000]");
  c.add_option("--seed", seed_, "random seed  [default 1]");
  c.add_flag("--exclude-self", exclude_self_, "uniform: never send to the source itself");
  c.add_option("--hotspot-node", hotspot_node_, "hotspot: the hot node  [default 0]");
  c.add_option("--hotspot-fraction", hotspot_fraction_, "hotspot: share of packets sent to it  [default 0.2]");
  c.add_option("-o,--stats-json", stats_json_, "write the result(s) as JSON to this file");
  c.add_option("--csv", csv_, "sweep: latency-vs-load CSV  [default meshmp-traffic.csv]");
  c.add_option("--png", png_, "sweep: latency-vs-load plot (needs python3-matplotlib)  [default meshmp-traffic.png]");
  c.add_option("--compare-reference", reference_,
               "sweep: compare with a reference curve CSV (load,accepted,latency,hops), e.g. "
               "sims/reference/booksim2-mesh8x8-uniform.csv");
  c.add_flag("--json-line", json_line_, "print the result as one JSON line (used by the sweep)")->group("");
}

double saturation_load(const std::vector<double>& loads, const std::vector<double>& latencies) {
  if (loads.empty()) return -1;
  const double threshold = 3 * latencies.front();
  for (std::size_t i = 1; i < loads.size(); ++i)
    if (latencies[i] >= threshold)
      return loads[i - 1] + (loads[i] - loads[i - 1]) * (threshold - latencies[i - 1]) / (latencies[i] - latencies[i - 1]);
  return -1;
}

int TrafficCommand::run_point(double rate, std::ostream& out, std::ostream& err) const {
  MachineConfig config = network_.resolve();
  config.router.max_packet_payload_flits = std::max(1, packet_flits_ - 1);
  config.router.exclusive_ejection = false;  // bare sinks: a flit per cycle from any packet
  if (auto error = config.validate()) {
    err << "meshmp: error: " << *error << "\n";
    return 2;
  }
  const Topology topology = Topology::parse(config.topology);
  if (auto error = check_model_fits(topology, config, std::nullopt)) {
    err << "meshmp: error: " << *error << "\n";
    return 2;
  }
  TrafficParams params;
  params.pattern = parse_traffic_pattern(pattern_);
  params.include_self = !exclude_self_;
  params.hotspot_node = hotspot_node_;
  params.hotspot_fraction = hotspot_fraction_;
  params.flits_per_node_per_cycle = rate;
  params.packet_flits = packet_flits_;
  params.warmup_cycles = warmup_cycles_;
  params.measure_cycles = measure_cycles_;
  params.drain_cycles = drain_cycles_;
  params.seed = seed_;
  if (auto error = params.validate(topology)) {
    err << "meshmp: error: " << *error << "\n";
    return 2;
  }
  const sc_core::sc_time period(1, sc_core::SC_NS);
  Network network("network", topology, config.router, config.port_model, find_routing_function(config.routing),
                  period, config.watchdog_cycles, config.host_threads);
  network.on_failure([] { sc_core::sc_stop(); });
  TrafficGenerator generator(network, params);
  generator.start();
  sc_core::sc_start(period * static_cast<double>(generator.generation_end_cycle()));
  std::uint64_t drained = 0;
  while (!generator.measurement_drained() && !network.failed() && drained < params.drain_cycles &&
         sc_core::sc_get_status() != sc_core::SC_STOPPED) {
    sc_core::sc_start(period * 1000.0);
    drained += 1000;
  }
  const TrafficStats& s = generator.stats();
  const bool complete = generator.measurement_drained();
  nlohmann::json result = {{"pattern", pattern_},
                           {"topology", topology.spec()},
                           {"offered_flits_per_node_per_cycle", rate},
                           {"accepted_flits_per_node_per_cycle", generator.accepted_flits_per_node_per_cycle()},
                           {"average_packet_latency_cycles", generator.average_latency()},
                           {"p99_packet_latency_cycles", generator.latency_percentile(0.99)},
                           {"average_hops", generator.average_hops()},
                           {"measured_packets", s.measured_packets},
                           {"all_measured_packets_delivered", complete},
                           {"errors", s.errors},
                           {"failure", network.failure()}};
  if (!stats_json_.empty()) std::ofstream(stats_json_) << result.dump(1) << "\n";
  if (json_line_) {
    out << result.dump() << "\n";
  } else {
    out << std::fixed << "meshmp traffic: " << topology.spec() << ", " << pattern_ << ", offered " << std::setprecision(3)
        << rate << " flits/node/cycle, " << packet_flits_ << "-flit packets, " << config.router.vcs << " VCs x "
        << config.router.buffer_flits << " flits, " << config.router.pipeline_depth << "-cycle routers\n"
        << "  accepted " << std::setprecision(4) << generator.accepted_flits_per_node_per_cycle()
        << " flits/node/cycle; packet latency average " << std::setprecision(2) << generator.average_latency()
        << ", p99 " << std::setprecision(0) << generator.latency_percentile(0.99) << " cycles (creation to tail "
        << "ejection, source queueing included); average hops " << std::setprecision(3) << generator.average_hops()
        << "\n  " << s.measured_packets << " packets measured"
        << (complete ? "" : " (NOT all delivered within --drain-cycles: the network is saturated)") << "\n";
    for (const auto& e : s.errors) out << "  ERROR: " << e << "\n";
    if (network.failed()) out << "  FAILED: " << network.failure() << "\n";
  }
  return s.errors.empty() && !network.failed() ? 0 : 1;
}

namespace {

std::vector<double> parse_rates(const std::string& text) {
  double from, to, step;
  char c1, c2;
  std::istringstream in(text);
  if (!(in >> from >> c1 >> to >> c2 >> step) || c1 != ':' || c2 != ':' || !in.eof() || !(step > 0) ||
      !(from > 0) || !(to >= from) || to > 1)
    throw ConfigError("traffic.rates", text, "expected FROM:TO:STEP with 0 < FROM <= TO <= 1 and STEP > 0");
  std::vector<double> rates;
  for (int k = 0; from + k * step <= to + 1e-9; ++k) rates.push_back(std::round((from + k * step) * 1e6) / 1e6);
  return rates;
}

struct ReferencePoint {
  double load, accepted, latency, hops;
};

std::vector<ReferencePoint> read_reference(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError("--compare-reference", path, "the file cannot be opened");
  std::vector<ReferencePoint> points;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
    if (f.size() < 3) continue;
    ReferencePoint p{std::stod(f[0]), f[1].empty() ? NAN : std::stod(f[1]), std::stod(f[2]),
                     f.size() > 3 && !f[3].empty() ? std::stod(f[3]) : NAN};
    points.push_back(p);
  }
  return points;
}

}  // namespace

int TrafficCommand::run_sweep(const std::string& self_path, const std::vector<std::string>& arguments,
                              std::ostream& out, std::ostream& err) const {
  const std::vector<double> rates = parse_rates(rates_);
  std::vector<ReferencePoint> reference;
  if (!reference_.empty()) reference = read_reference(reference_);
  std::string base = shell_quote(self_path);
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == "--rates" || arguments[i] == "-o" || arguments[i] == "--stats-json") {
      ++i;
      continue;
    }
    if (arguments[i].rfind("--rates=", 0) == 0 || arguments[i].rfind("--stats-json=", 0) == 0) continue;
    base += " " + shell_quote(arguments[i]);
  }
  nlohmann::json results = nlohmann::json::array();
  std::vector<double> loads, latencies;
  out << std::fixed;
  for (std::size_t k = 0; k < rates.size(); ++k) {
    std::ostringstream rate;
    rate << std::setprecision(6) << rates[k];
    const std::string command = base + " --rate " + rate.str() + " --json-line";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    std::string text;
    char buffer[4096];
    while (pipe && std::fgets(buffer, sizeof buffer, pipe.get())) text += buffer;
    nlohmann::json point;
    try {
      point = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
      err << "meshmp: error: the point at rate " << rate.str() << " printed no result: " << text << "\n";
      return 1;
    }
    results.push_back(point);
    loads.push_back(rates[k]);
    latencies.push_back(point["average_packet_latency_cycles"].get<double>());
    out << "  [" << k + 1 << "/" << rates.size() << "] offered " << std::setprecision(3) << rates[k] << ": accepted "
        << std::setprecision(4) << point["accepted_flits_per_node_per_cycle"].get<double>() << ", latency "
        << std::setprecision(2) << latencies.back() << " (p99 " << std::setprecision(0)
        << point["p99_packet_latency_cycles"].get<double>() << ")"
        << (point["all_measured_packets_delivered"].get<bool>() ? "" : " saturated") << "\n"
        << std::flush;
  }
  {
    std::ofstream csv(csv_);
    if (!csv) throw ConfigError("--csv", csv_, "the file cannot be written");
    csv << "load_flits_per_node_per_cycle,accepted_flits_per_node_per_cycle,average_packet_latency_cycles,"
           "p99_packet_latency_cycles,average_hops,all_measured_packets_delivered\n";
    for (const auto& p : results)
      csv << p["offered_flits_per_node_per_cycle"].get<double>() << ','
          << p["accepted_flits_per_node_per_cycle"].get<double>() << ','
          << p["average_packet_latency_cycles"].get<double>() << ',' << p["p99_packet_latency_cycles"].get<double>()
          << ',' << p["average_hops"].get<double>() << ',' << (p["all_measured_packets_delivered"].get<bool>() ? 1 : 0)
          << '\n';
  }
  out << "  curve: " << csv_ << "\n";
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
    out << "  against " << reference_ << ":\n";
    double worst = 0;
    comparison["points"] = nlohmann::json::array();
    for (const auto& r : reference)
      for (std::size_t k = 0; k < loads.size(); ++k)
        if (std::abs(loads[k] - r.load) < 1e-9) {
          const double ratio = latencies[k] / r.latency;
          out << "    load " << std::setprecision(2) << r.load << ": latency " << std::setprecision(2) << latencies[k]
              << " vs " << r.latency << " (ratio " << std::setprecision(3) << ratio << ")\n";
          comparison["points"].push_back({{"load", r.load}, {"latency", latencies[k]}, {"reference", r.latency},
                                          {"ratio", ratio}});
          if (r.load < compared_below) worst = std::max(worst, std::abs(ratio - 1));
        }
    out << "    saturation (latency 3x its low-load value): " << std::setprecision(4) << saturation << " vs "
        << ref_saturation << " flits/node/cycle\n"
        << "    largest latency difference at loads below " << std::setprecision(3) << compared_below << ": "
        << std::setprecision(1) << 100 * worst << "%\n";
    comparison["saturation"] = saturation;
    comparison["largest_latency_difference"] = worst;
    comparison["reference_saturation"] = ref_saturation;
  } else {
    out << "  saturation (latency 3x its low-load value): " << std::setprecision(4) << saturation << "\n";
  }
  if (!stats_json_.empty())
    std::ofstream(stats_json_) << nlohmann::json{{"points", results}, {"saturation", saturation},
                                                 {"comparison", comparison}}.dump(1)
                               << "\n";
  std::vector<std::string> plot_arguments = {csv_, png_};
  if (!reference_.empty()) plot_arguments.push_back(reference_);
  run_plot_script(self_path, "plot_latency.py", MESHMP_PLOT_SCRIPT, plot_arguments, png_, out);
  return 0;
}

int TrafficCommand::run(const std::string& self_path, const std::vector<std::string>& arguments, std::ostream& out,
                        std::ostream& err) const {
  if (!rates_.empty()) return run_sweep(self_path, arguments, out, err);
  return run_point(rate_, out, err);
}

}  // namespace meshmp
