// Paper 003's comparisons from runs of the machine (t_c = 1 cycle per element: 8-byte elements on
// 8-byte flits; local copies free, as in the paper's T):
//   003-paths: SPT, DPT and MPT (§6.1, store-and-forward, n-port with t_s on the channels) on hypercube:6, a 256 x 256 matrix in
//     2-D consecutive partitioning, against the packet size B at two start-up costs (tau / t_c = 20 and
//     200): the routing cycles measured and the paper's count, the time measured, the paper's model of
//     it (routing cycles x (tau + B t_c); MPT: the slowest class H's) and Theorem 3's bound
//     max(n tau, PQ/(2N) t_c). The machine closes every routing cycle with one barrier for all nodes, so
//     a cycle lasts as long as the largest packet of any class in it: MPT's small-H classes, with fewer
//     paths, carry larger packets than the class the paper's count follows;
//   003-exchange: jh-exchange's start-ups per node against §3.2 (shuffle: n ceil(PQ/(2NB))) and §8.1
//     (unbuffered, buffered) over a scan of B, hypercube:6, 64 x 256 row-consecutive;
//   003-ports: one-port vs n-port on the same 1-D transposes: jh-exchange one-port against
//     n (PQ/(2N) t_c + tau), jh-sbnt n-port against PQ/(2N) t_c + n tau (§3.2), with t_s paid by the
//     processor (one start-up at a time) and by each injection channel (the paper's n-port model);
//   003-gray: binary vs Gray (§6.3): the combined transpose-conversion against the naive one, routing
//     steps (n against 2n - 2) and time.
#include "sims/paper_003.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <tuple>

#include "sims/child_run.h"
#include "sims/plot_script.h"

namespace meshmp {
namespace {

std::string matrix(int p, int q, const std::string& partitioning) {
  return " -m 8 --copy-cycles-per-byte 0 --workload-option rows=" + std::to_string(1 << p) +
         " --workload-option columns=" + std::to_string(1 << q) + " --workload-option partitioning=" + partitioning;
}

int paths_table(const std::string& self_path, const std::string& png, std::ostream& out, std::ostream& err) {
  const int n = 6, side = 8;                             // hypercube:6, 256 x 256
  const double data = std::ldexp(1.0, 2 * side - n);     // PQ/N = 1024 elements
  // The table beside the plot, both checked before the first run and written whole at the end.
  OutputFile png_file, csv;
  if (!png.empty()) {
    png_file = plot_output("--plot", png);
    csv = table_beside_plot(png);
    csv.stream() << "algorithm,startup_cycles,packet_elements,cycles,paper_model_cycles,bound_cycles\n";
  }
  int status = 0;
  out << "meshmp paper 003-paths: hypercube:6, 256 x 256 8-byte elements, 2d-consecutive, n-port (start-ups on the "
         "channels), store-and-forward with a barrier per routing cycle, t_c = 1 cycle per element\n";
  out << std::left << std::setw(9) << "alg" << std::right << std::setw(6) << "tau" << std::setw(6) << "B" << std::setw(9)
      << "cycles" << std::setw(9) << "formula" << std::setw(11) << "time" << std::setw(11) << "model" << std::setw(8)
      << "ratio" << std::setw(9) << "bound" << std::setw(8) << "/bound" << "\n";
  for (int tau : {20, 200})
    for (const std::string algorithm : {"jh-spt", "jh-dpt", "jh-mpt"})
      for (int b : {4, 8, 16, 32, 64, 128, 256, 512}) {
        const MeasuredRun m = measure_verified_run(self_path,
                                   "--topology hypercube:6 --port-model all-port --startup-on channel --startup-cycles " +
                                       std::to_string(tau) +
                                       " --algorithm " + algorithm + " --algorithm-option packet_elements=" +
                                       std::to_string(b) + matrix(side, side, "2d-consecutive"),
                                   err, status);
        if (!m.ok) continue;
        const int paths = algorithm == "jh-spt" ? 1 : 2;
        // The paper's routing cycles: ceil(PQ/(c B N)) + n - 1 (§6.1.1-2); MPT: 2 packets per path every 2H
        // cycles, the class H = n/2 last (2 k H + 1 with k = ceil(PQ/(4 H N B)), §6.1.3).
        double cycles_formula = std::ceil(data / paths / b) + n - 1;
        const double packet = std::min<double>(b, data / paths);
        double model = cycles_formula * (tau + packet);
        if (algorithm == "jh-mpt") {
          // Each class H runs its own schedule (§6.1.3): m packets on each of its 2H paths (at least the
          // pair of Lemma 14), two leaving every 2H cycles; the last leaves at 2H floor((m-1)/2) +
          // (m-1) mod 2 and needs 2H more (2kH + 1 for m = 2k). The paper's time is the slowest class's.
          cycles_formula = model = 0;
          for (int h = 1; h <= n / 2; ++h) {
            const double share = std::ceil(data / (2 * h));
            const int m = static_cast<int>(std::max(2.0, std::ceil(share / b)));
            const double cycles = 2.0 * h * ((m - 1) / 2) + (m - 1) % 2 + 2.0 * h;
            cycles_formula = std::max(cycles_formula, cycles);
            model = std::max(model, cycles * (tau + std::ceil(share / m)));
          }
        }
        const double bound = std::max(n * static_cast<double>(tau), data / 2);
        out << std::left << std::setw(9) << algorithm << std::right << std::fixed << std::setprecision(0) << std::setw(6)
            << tau << std::setw(6) << b << std::setw(9) << m.steps << std::setw(9) << cycles_formula << std::setw(11)
            << m.cycles << std::setw(11) << model << std::setprecision(3) << std::setw(8) << m.cycles / model
            << std::setprecision(0) << std::setw(9) << bound << std::setprecision(2) << std::setw(8) << m.cycles / bound
            << "\n"
            << std::flush;
        if (csv.is_open())
          csv.stream() << algorithm << "," << tau << "," << b << "," << m.cycles << "," << model << "," << bound << "\n";
      }
  if (csv.is_open()) {
    const std::string csv_path = csv.path();
    csv.commit();
    out << "  table: " << csv_path << "\n";
    run_plot_script(self_path, "plot_paper_003.py", MESHMP_PAPER_003_PLOT_SCRIPT, {csv_path}, png_file, {}, out);
  }
  return status;
}

double log2_of(double x) { return std::log2(std::max(1.0, x)); }

int exchange_table(const std::string& self_path, std::ostream& out, std::ostream& err) {
  const int n = 6, p = 6, q = 8;
  const double data = std::ldexp(1.0, p + q - n), nodes = std::ldexp(1.0, n);  // PQ/N, N
  int status = 0;
  out << "meshmp paper 003-exchange: jh-exchange on hypercube:6, 64 x 256 row-consecutive, start-ups per node\n";
  out << std::left << std::setw(12) << "buffering" << std::right << std::setw(6) << "B" << std::setw(8) << "B_copy"
      << std::setw(10) << "start-ups" << std::setw(9) << "formula" << std::setw(10) << "cycles" << "  formula from\n";
  for (const std::string buffering : {"shuffle", "unbuffered", "buffered"})
    for (int b : {1, 4, 16, 64, 256, 1024}) {
      const int b_copy = 16;
      if (buffering == "buffered" && b < b_copy) continue;
      const MeasuredRun m = measure_verified_run(self_path,
                                 "--topology hypercube:6 --algorithm jh-exchange --algorithm-option buffering=" + buffering +
                                     " --algorithm-option packet_elements=" + std::to_string(b) +
                                     " --algorithm-option copy_threshold_elements=" + std::to_string(b_copy) +
                                     matrix(p, q, "row-consecutive"),
                                 err, status);
      if (!m.ok) continue;
      const double half = std::ceil(data / 2 / b), l = std::max(1.0, data / b), lc = data / b_copy;
      double formula = n * half;
      std::string source = "§3.2: n ceil(PQ/(2BN))";
      if (buffering == "unbuffered") {
        // §8.1 writes "- PQ/BN"; for PQ/BN > N (blocks larger than B) that undercounts: every step then
        // sends ceil(PQ/2BN) packets. min(N, PQ/BN), as the buffered formula writes it, is exact.
        formula = nodes + half * std::min<double>(n, log2_of(l)) - std::min(nodes, l);
        source = "§8.1: N + ceil(PQ/2BN) min(n, log ceil(PQ/BN)) - min(N, PQ/BN)";
      } else if (buffering == "buffered") {
        formula = std::min(nodes, lc) - std::min(nodes, l) + half * (std::min<double>(n, log2_of(l)) + std::max(0.0, n - log2_of(lc)));
        source = "§8.1 buffered, B_copy = 16";
      }
      out << std::left << std::setw(12) << buffering << std::right << std::fixed << std::setprecision(0) << std::setw(6) << b
          << std::setw(8) << (buffering == "buffered" ? b_copy : 0) << std::setw(10) << m.startups << std::setw(9)
          << formula << std::setw(10) << m.cycles << "  " << source << "\n" << std::flush;
    }
  return status;
}

int ports_table(const std::string& self_path, std::ostream& out, std::ostream& err) {
  int status = 0;
  out << "meshmp paper 003-ports: one-port vs n-port on the same 1-D transposes (row-consecutive, t_s = 100)\n";
  out << std::left << std::setw(14) << "topology" << std::setw(12) << "algorithm" << std::setw(10) << "ports"
      << std::setw(11) << "t_s on" << std::right
      << std::setw(10) << "cycles" << std::setw(10) << "paper T" << std::setw(8) << "ratio" << "  formula\n";
  for (int n : {4, 6, 8}) {
    const int side = n + 3;  // P = Q = 2^(n+3)
    const double half = std::ldexp(1.0, 2 * side - n) / 2;
    for (const auto& [algorithm, ports, startup_on] :
         {std::tuple<std::string, std::string, std::string>{"jh-exchange", "one-port", "processor"},
          {"jh-sbnt", "one-port", "processor"}, {"jh-sbnt", "all-port", "processor"}, {"jh-sbnt", "all-port", "channel"}}) {
      const MeasuredRun m = measure_verified_run(self_path,
                                 "--topology hypercube:" + std::to_string(n) + " --port-model " + ports + " --startup-on " +
                                     startup_on + " --algorithm " + algorithm + matrix(side, side, "row-consecutive"),
                                 err, status);
      if (!m.ok) continue;
      const bool n_port = ports == "all-port";
      const double paper = n_port ? half + n * 100.0 : n * (half + 100.0);
      out << std::left << std::setw(14) << ("hypercube:" + std::to_string(n)) << std::setw(12) << algorithm << std::setw(10)
          << ports << std::setw(11) << startup_on << std::right << std::fixed << std::setprecision(0) << std::setw(10) << m.cycles << std::setw(10) << paper
          << std::setprecision(3) << std::setw(8) << m.cycles / paper << "  "
          << (n_port ? "PQ/(2N) t_c + n tau" : "n (PQ/(2N) t_c + tau)") << "\n" << std::flush;
    }
  }
  return status;
}

int gray_table(const std::string& self_path, std::ostream& out, std::ostream& err) {
  int status = 0;
  out << "meshmp paper 003-gray: rows binary, columns Gray (A and A^T), 2d-consecutive, one-port, t_s = 100\n";
  out << std::left << std::setw(14) << "topology" << std::setw(10) << "method" << std::right << std::setw(8) << "steps"
      << std::setw(9) << "formula" << std::setw(10) << "cycles" << "\n";
  for (int n : {4, 6, 8, 10}) {
    const int side = n / 2 + 2;
    for (const std::string method : {"combined", "naive"}) {
      const MeasuredRun m = measure_verified_run(self_path,
                                 "--topology hypercube:" + std::to_string(n) + " --algorithm jh-gray-transpose "
                                 "--algorithm-option method=" + method + " --workload-option column_encoding=gray" +
                                     matrix(side, side, "2d-consecutive"),
                                 err, status);
      if (!m.ok) continue;
      out << std::left << std::setw(14) << ("hypercube:" + std::to_string(n)) << std::setw(10) << method << std::right
          << std::fixed << std::setprecision(0) << std::setw(8) << m.steps << std::setw(9)
          << (method == "combined" ? n : 2 * n - 2) << std::setw(10) << m.cycles << "\n" << std::flush;
    }
  }
  return status;
}

}  // namespace

std::vector<std::string> paper_003_tables() { return {"003-paths", "003-exchange", "003-ports", "003-gray"}; }

int run_paper_003(const std::string& self_path, const std::string& table, const std::string& png, std::ostream& out,
                  std::ostream& err) {
  if (table == "003-paths") return paths_table(self_path, png, out, err);
  if (table == "003-exchange") return exchange_table(self_path, out, err);
  if (table == "003-ports") return ports_table(self_path, out, err);
  if (table == "003-gray") return gray_table(self_path, out, err);
  return 2;
}

}  // namespace meshmp
