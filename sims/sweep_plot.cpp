// The plot of a sweep's CSV. See sweep_plot.h.
#include "sims/sweep_plot.h"

#include <algorithm>

#include "sims/plot_script.h"
#include "topology/config_error.h"

namespace meshmp {

void SweepPlot::add_to(CLI::App& app) {
  app.add_option("--plot", png_, "also plot the speedup of --speedup-of over the others (PNG): see --plot-against");
  speedup_of_option_ =
      app.add_option("--speedup-of", speedup_of_, "the algorithm whose speedup the plot shows")->capture_default_str();
  plot_against_option_ = app.add_option("--plot-against", plot_against_,
                 "nodes: one panel per t_s / (b t_c), speedup against the nodes (001 Fig. 9); block-bytes: one "
                 "panel per topology, a line per algorithm and t_s / t_c, against the block size (001 Fig. 10); "
                 "bound: per topology, each algorithm's time over 002's lower bound (steps x (t_s + m t_c)); machines: "
                 "004 §4's comparison, a panel per algorithm and t_s / (b t_c) with the time of each of 004's six "
                 "machines against the nodes, and which is fastest where; energy: per topology, each algorithm's energy against "
                 "its completion time, the Pareto front (no other point both faster and cheaper) marked and printed")
      ->check(CLI::IsMember({"nodes", "block-bytes", "machines", "bound", "energy"}))
      ->capture_default_str();
}

void SweepPlot::check(const std::vector<std::string>& algorithms, const std::string& listed) const {
  for (const CLI::Option* option : {speedup_of_option_, plot_against_option_})
    if (png_.empty() && option->count() > 0)
      throw ConfigError(option->get_name(), option->as<std::string>(), "chooses what --plot draws; no --plot is given");
  if (png_.empty() || algorithms.empty() || (plot_against_ != "nodes" && plot_against_ != "block-bytes")) return;
  if (std::find(algorithms.begin(), algorithms.end(), speedup_of_) == algorithms.end())
    throw ConfigError("--speedup-of", speedup_of_, "the plot divides by it: it must be one of --algorithms (" + listed + ")");
}

OutputFile SweepPlot::open() const { return plot_output("--plot", png_); }

void SweepPlot::draw(const std::string& self_path, const std::string& csv, OutputFile& png, std::ostream& out) const {
  run_plot_script(self_path, "plot_sweep.py", MESHMP_SWEEP_PLOT_SCRIPT, {csv}, png, {speedup_of_, plot_against_}, out);
}

}  // namespace meshmp
