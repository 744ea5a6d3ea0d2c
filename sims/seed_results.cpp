// Combining the seeds of one load. See seed_results.h.
#include "sims/seed_results.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "sims/confidence_interval.h"

namespace meshmp {

namespace {

// The numbers the seeds have under `key`, nulls left out.
std::vector<double> numbers_of(const std::vector<nlohmann::json>& seeds, const std::string& key) {
  std::vector<double> values;
  for (const nlohmann::json& seed : seeds)
    if (!seed.at(key).is_null()) values.push_back(seed.at(key).get<double>());
  return values;
}

nlohmann::json number_or_null(double value) { return std::isnan(value) ? nlohmann::json(nullptr) : nlohmann::json(value); }

// The seeds' values of one figure, which has one shape in every seed: the mean of each floating-point
// number (a null where any seed has none), anything else (names, counts of the setting) as the first
// seed has it.
nlohmann::json mean_of(const std::vector<const nlohmann::json*>& values) {
  const nlohmann::json& first = *values.front();
  if (first.is_object()) {
    nlohmann::json mean = nlohmann::json::object();
    for (const auto& item : first.items()) {
      std::vector<const nlohmann::json*> members;
      for (const nlohmann::json* value : values) members.push_back(&value->at(item.key()));
      mean[item.key()] = mean_of(members);
    }
    return mean;
  }
  if (!first.is_number_float()) return first;
  double sum = 0;
  for (const nlohmann::json* value : values) {
    if (!value->is_number()) return nullptr;
    sum += value->get<double>();
  }
  return sum / static_cast<double>(values.size());
}

}  // namespace

nlohmann::json combine_seed_results(const std::vector<nlohmann::json>& seeds) {
  const nlohmann::json& first = seeds.front();
  nlohmann::json combined = nlohmann::json::object();
  for (const char* key : {"meshmp", "config", "pattern", "topology", "offered_flits_per_node_per_cycle"})
    combined[key] = first.at(key);
  combined["config"]["traffic"]["seeds"] = seeds.size();
  for (const char* key : {"accepted_flits_per_node_per_cycle", "average_packet_latency_cycles"}) {
    const std::vector<double> values = numbers_of(seeds, key);
    if (values.empty()) {
      combined[key] = nullptr;
      combined[std::string(key) + "_ci95"] = nullptr;
      continue;
    }
    const MeanWithInterval interval = mean_with_ci95(values);
    combined[key] = interval.mean;
    combined[std::string(key) + "_ci95"] = number_or_null(interval.half_width);
  }
  for (const char* key : {"p50_packet_latency_cycles", "p90_packet_latency_cycles", "p99_packet_latency_cycles",
                          "p999_packet_latency_cycles", "max_packet_latency_cycles", "average_source_queueing_cycles",
                          "average_network_latency_cycles", "average_hops", "average_minimal_hops",
                          "average_packet_flits"}) {
    const std::vector<double> values = numbers_of(seeds, key);
    combined[key] = values.empty() ? nlohmann::json(nullptr) : nlohmann::json(mean_with_ci95(values).mean);
  }
  for (const char* key : {"source_offered_flits_per_cycle", "source_accepted_flits_per_cycle"}) {
    std::vector<double> means(first.at(key).size(), 0.0);
    for (const nlohmann::json& seed : seeds)
      for (std::size_t node = 0; node < means.size(); ++node)
        means[node] += seed.at(key).at(node).get<double>() / static_cast<double>(seeds.size());
    combined[key] = means;
  }
  // Each link's mean over the seeds (the links come in one order in every seed's result).
  nlohmann::json links = first.at("link_utilisation");
  for (std::size_t i = 0; i < links.size(); ++i) {
    double flits = 0, utilisation = 0;
    for (const nlohmann::json& seed : seeds) {
      flits += seed.at("link_utilisation").at(i).at("flits").get<double>() / static_cast<double>(seeds.size());
      utilisation += seed.at("link_utilisation").at(i).at("utilisation").get<double>() / static_cast<double>(seeds.size());
    }
    links[i]["flits"] = flits;
    links[i]["utilisation"] = utilisation;
  }
  combined["link_utilisation"] = links;
  for (const char* key : {"max_link_utilisation", "average_link_utilisation"})
    combined[key] = mean_with_ci95(numbers_of(seeds, key)).mean;
  // The network's power: each component's mean (null when the routers count no events).
  std::vector<const nlohmann::json*> powers;
  for (const nlohmann::json& seed : seeds) powers.push_back(&seed.at("power"));
  combined["power"] = first.at("power").is_null() ? nlohmann::json(nullptr) : mean_of(powers);
  const std::vector<double> accepted = combined["source_accepted_flits_per_cycle"];
  combined["min_source_accepted_flits_per_cycle"] = *std::min_element(accepted.begin(), accepted.end());
  combined["max_source_accepted_flits_per_cycle"] = *std::max_element(accepted.begin(), accepted.end());
  std::uint64_t packets = 0;
  double host_seconds = 0;
  bool delivered = true;
  nlohmann::json errors = nlohmann::json::array();
  std::string failure;
  for (const nlohmann::json& seed : seeds) {
    const std::string name = "seed " + seed.at("config").at("traffic").at("seed").dump() + ": ";
    packets += seed.at("measured_packets").get<std::uint64_t>();
    host_seconds += seed.value("host_seconds", 0.0);
    delivered = delivered && seed.at("all_measured_packets_delivered").get<bool>();
    for (const nlohmann::json& error : seed.at("errors")) errors.push_back(name + error.get<std::string>());
    const std::string seed_failure = seed.at("failure").get<std::string>();
    if (!seed_failure.empty()) failure += (failure.empty() ? "" : "; ") + name + seed_failure;
  }
  combined["measured_packets"] = packets;
  combined["all_measured_packets_delivered"] = delivered;
  combined["errors"] = errors;
  combined["failure"] = failure;
  combined["host_seconds"] = host_seconds;
  combined["seed_results"] = seeds;
  return combined;
}

}  // namespace meshmp
