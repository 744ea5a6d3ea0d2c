// What a run found, and how it is told. See run_report.h.
#include "sims/run_report.h"

#include <algorithm>
#include <iomanip>
#include <string>

#include "hw/machine/run_statistics.h"
#include "hw/router/router_model.h"
#include "sims/build_identity.h"

namespace meshmp {

double RunReport::paper_measured_over_estimate() const {
  return static_cast<double>(result.completion_cycles) / paper.cycles;
}

double RunReport::zero_load_measured_over_estimate() const {
  return static_cast<double>(result.completion_cycles) / std::max<double>(1.0, static_cast<double>(zero_load_estimate_cycles));
}

RunReport report_run(Machine& machine, const Algorithm& algorithm, const AlgorithmOptions& options, const RunResult& result) {
  RunReport report;
  report.result = result;
  if (result.status == RunStatus::Completed) report.verification = machine.verify();
  report.paper = paper_estimate(algorithm, machine.topology(), exchange_parameters(machine.config()), options);
  report.zero_load_estimate_cycles = machine.step_statistics().zero_load_prediction_cycles();
  report.statistics = collect_statistics(machine, result);
  return report;
}

void print_run_summary(const Machine& machine, const Algorithm& algorithm, const RunReport& report, std::ostream& summary,
                       std::ostream& err) {
  const MachineConfig& config = machine.config();
  const Topology& topology = machine.topology();
  const RunResult& result = report.result;
  const VerificationReport& verification = report.verification;
  const Algorithm::OptionEstimate& paper = report.paper;
  const nlohmann::json& stats = report.statistics;
  const std::uint32_t unit_bytes = machine.workload().unit_bytes();
  const std::string power_on = config.router.rtl_power_on_seed == 0
                                   ? ""
                                   : ", powered up at random (seed " + std::to_string(config.router.rtl_power_on_seed) + ")";
  const bool transaction_level = machine.has_network() && machine.network().fidelity() == NetworkFidelity::Transaction;
  const std::string& routers = find_router_model(config.router.model).routers;
  const std::string router_model = transaction_level ? "transaction level (no routers stepped), "
                                   : routers.empty() ? ""
                                                     : routers + power_on + ", ";
  summary << "meshmp: " << topology.spec() << " (" << topology.num_nodes() << " nodes), algorithm " << algorithm.name
      << " [" << algorithm.source << "]\n"
      << "  workload: " << machine.workload().describe() << "\n";
  if (!topology.fabric().empty())
    summary << "  " << describe_fabric(config, topology) << "; nodes: one channel each, t_s = " << config.processor.startup_cycles
        << " cycles, rho = " << config.processor.copy_cycles_per_byte << " cycles/byte\n";
  else
    summary << "  router: " << router_model << to_string(config.router.switching) << ", " << config.router.vcs << " VCs x "
      << config.router.buffer_flits << " flits, " << config.router.pipeline_depth << "-cycle routers, "
      << config.router.flit_bytes << "-byte flits, link latency " << config.router.link_latency_cycles
      << " (a credit counted " << config.router.credit_wire_cycles() + config.router.credit_processing_cycles
      << " cycles after it is sent)"
      << "; nodes: " << to_string(config.port_model) << ", t_s = " << config.processor.startup_cycles
      << " cycles, rho = " << config.processor.copy_cycles_per_byte << " cycles/byte\n";
  for (const FaultReport& fault : machine.fault_reports())
    summary << "  fault injected: " << fault.spec << ": "
            << (fault.fired ? "at cycle " + std::to_string(fault.cycle) + ", " : std::string()) << fault.effect << "\n";
  if (result.status != RunStatus::Completed) {
    err << "  FAILED (" << to_string(result.status) << "): " << result.message << "\n";
    const std::size_t shown = std::min<std::size_t>(result.details.size(), 40);
    for (std::size_t i = 0; i < shown; ++i) err << "    " << result.details[i] << "\n";
    if (result.details.size() > shown) err << "    ... and " << result.details.size() - shown << " more\n";
  } else {
    summary << "  completed in " << result.completion_cycles << " cycles\n";
    if (verification.ok()) {
      summary << "  verified: all " << verification.units_checked << " " << verification.unit << "s ("
          << verification.units_checked * unit_bytes << " bytes) in place on every node\n";
    } else {
      err << "  VERIFICATION FAILED: " << verification.error_count << " error(s), "
          << verification.units_correct << " of " << verification.units_checked << " " << verification.unit
          << "s in place\n";
      for (const auto& e : verification.errors) err << "    " << e << "\n";
    }
    summary << "  start-ups: " << stats["startups"]["max_per_node"] << " per node (max), " << stats["startups"]["total"]
        << " in total\n";
    const auto& lat = machine.has_network() ? stats["messages"]["latency_cycles"] : nlohmann::json{{"count", 0}};
    if (lat["count"].get<std::uint64_t>() > 0)
      summary << "  messages: " << lat["count"] << ", latency mean " << std::fixed << std::setprecision(1)
          << lat["mean"].get<double>() << " / p99 " << lat["p99"] << " / max " << lat["max"]
          << " cycles, header blocking mean " << stats["messages"]["header_blocking_cycles"]["mean"].get<double>()
          << " cycles\n";
    const double estimate = paper.cycles;
    const auto zero_load = static_cast<double>(report.zero_load_estimate_cycles);
    if (!paper.choices.empty()) summary << "  choices: " << paper.choices << "\n";
    summary << "  predictions: paper " << std::fixed << std::setprecision(0) << estimate << " cycles by " << paper.formula
        << " (measured / paper = " << std::setprecision(3) << report.paper_measured_over_estimate() << ");\n"
        << "               zero-load model of this machine for the schedule run " << std::setprecision(0) << zero_load
        << " cycles (measured / zero-load = " << std::setprecision(3) << report.zero_load_measured_over_estimate()
        << "; the model puts the marked steps one after the other: exact when every step is synchronised and "
           "none meets header blocking (the schedule line below says), too long where steps overlap, too short "
           "where messages contend)\n";
    if (machine.has_network())
      summary << "  contention: header blocking " << stats["network"]["header_blocking_cycles"] << " cycles, body-flit stalls "
          << stats["network"]["body_flit_stall_cycles"] << " cycles"
          << (transaction_level ? " (flits are not stepped at transaction level)" : "") << "\n";
    else
      summary << "  " << describe_fabric_statistics(stats["fabric"]) << "\n";
    const auto& schedule = stats["schedule"];
    summary << "  schedule: " << schedule["synchronized_steps"] << " synchronized steps, " << schedule["sum_of_step_max_blocks"]
        << " " << (machine.workload().unit_bytes() == config.block_bytes ? machine.workload().unit() : std::string("word"))
        << "s as the sum of each step's largest message, " << schedule["contention_free_steps"]
        << " steps contention-free and " << schedule["steps_with_blocking"] << " with blocking; busiest node "
        << schedule["max_messages_per_node"] << " start-ups, " << schedule["rearrangement_bytes_max_per_node"]
        << " bytes copied locally\n";
    const auto& bounds = stats["bounds"];
    summary << "  bounds (002 §3, steps of one block over one link): status AS(G) = " << std::setprecision(2)
        << bounds["average_status"].get<double>() << " (single-port), cut " << bounds["cut"]["parts"][0] << " x "
        << bounds["cut"]["parts"][1] << " / " << bounds["cut"]["edges"] << " edges = " << bounds["cut_bound_unrounded_steps"].get<double>()
        << " (multiport; " << bounds["cut"]["description"].get<std::string>() << ");\n"
        << "          synchronized steps / bound " << std::setprecision(3)
        << bounds["measured_steps_over_status_bound"].get<double>() << " (status) and "
        << bounds["measured_steps_over_cut_bound"].get<double>()
        << " (cut): below 1 where a step's messages cross several links, as wormhole routing allows\n";
    if (machine.has_network())
      summary << "  network (" << (transaction_level ? "transaction level, docs/fidelity.md" : "cycle level")
          << "): " << stats["network"]["flit_hops"] << " flit-hops, link utilisation max " << std::setprecision(1)
          << 100 * stats["network"]["max_link_utilization_fraction"].get<double>() << "% mean "
          << 100 * stats["network"]["mean_link_utilization_fraction"].get<double>() << "%\n";
    const nlohmann::json& energy = stats["energy"];
    const nlohmann::json& joules = energy["joules"];
    summary << "  energy (docs/energy.md): " << std::defaultfloat << std::setprecision(4) << joules["total"].get<double>() * 1e6
            << " uJ = network ";
    if (joules["network"].is_null())
      summary << (machine.has_network() ? "not priced (no router events at the transaction level)" : "none (004's fabric)");
    else
      summary << joules["network"]["total"].get<double>() * 1e6 << " uJ";
    summary << " + nodes " << joules["nodes"]["total"].get<double>() * 1e6 << " uJ";
    if (!joules["fabric"].is_null()) summary << " + fabric " << joules["fabric"]["total"].get<double>() * 1e6 << " uJ";
    summary << "; average power " << energy["average_watts"].get<double>() << " W at " << std::setprecision(3)
            << energy["clock_ghz"].get<double>() << " GHz; energy-delay " << std::setprecision(4)
            << energy["energy_delay_product_joule_seconds"].get<double>() << " J s";
    if (!stats["area"].is_null()) summary << "; network area " << std::setprecision(3) << stats["area"]["total_mm2"].get<double>() << " mm^2";
    summary << "\n";
  }
  const auto& speed = stats["simulation"];
  summary << "  simulation: " << std::defaultfloat << std::setprecision(3) << result.host_seconds << " s host on "
      << speed["host_threads"] << " thread(s); ";
  if (transaction_level)
    summary << "the network acted at " << speed["cycles_stepped"] << " of " << result.completion_cycles
        << " cycles (sends completing, messages arriving): " << std::fixed << std::setprecision(0);
  else if (machine.has_network())
    summary << "the clock stepped " << speed["cycles_stepped"] << " of " << result.completion_cycles
        << " cycles (it stops while the network is idle): " << std::fixed << std::setprecision(0)
        << speed["stepped_cycles_per_second"].get<double>() << " stepped cycles/s, ";
  else
    summary << "the " << machine.topology().fabric() << " steps no clock (it acts at its transfers' grants "
        << "and completions): " << std::fixed << std::setprecision(0);
  summary << speed["simulated_cycles_per_second"].get<double>() << " simulated cycles/s\n";
}

nlohmann::json run_document(const MachineConfig& config, const RunReport& report) {
  const RunResult& result = report.result;
  const VerificationReport& verification = report.verification;
  const Algorithm::OptionEstimate& paper = report.paper;
  return {{"meshmp", build_identity()},
          {"config", config.to_json()},
          {"verification",
           {{"ok", report.ok()},
            {"unit", verification.unit},
            {"units_checked", verification.units_checked},
            {"units_correct", verification.units_correct},
            {"error_count", verification.error_count},
            {"errors", verification.errors}}},
          {"failure", {{"message", result.message}, {"details", result.details}}},
          {"analytic",
           {{"paper",
             {{"formula", paper.formula},
              {"choices", paper.choices},
              {"estimate_cycles", paper.cycles},
              {"measured_over_estimate", report.paper_measured_over_estimate()}}},
            {"zero_load",
             {{"model", "per step, the slowest node: t_s per message, messages injected one after the "
                        "other per channel, each arriving flits + hops (pipeline_depth + link "
                        "latency) + pipeline_depth + 1 cycles after its injection starts, rho per "
                        "copied byte; steps one after the other"},
              {"estimate_cycles", report.zero_load_estimate_cycles},
              {"measured_over_estimate", report.zero_load_measured_over_estimate()}}}}},
          {"statistics", report.statistics}};
}

}  // namespace meshmp
