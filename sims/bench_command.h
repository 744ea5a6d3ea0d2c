// `meshmp bench`: simulation speed, measured, never asserted. Each case runs in its own process (the
// SystemC kernel elaborates one design per process) and reports simulated cycles per second and
// flit-hops per second; a bare-kernel case (one method process woken every cycle, doing nothing)
// measured in the same run is the baseline: each case's speed is also given as the number of
// kernel-floor cycles one of its simulated cycles costs, a ratio that holds across host speeds.
#pragma once

#include <ostream>
#include <string>

namespace meshmp {

// Runs every case in a child process of `self_path` and prints the table; with_scale adds the scale case
// (torus:64x64, minutes, on 2 host threads). The other cases step their routers on `host_threads`.
// Returns the exit code.
int run_benchmarks(const std::string& self_path, const std::string& json_path, bool with_scale, int host_threads,
                   std::ostream& out, std::ostream& err);
// Runs one case in this process and prints its result as one JSON line.
int run_benchmark_case(const std::string& name, int host_threads, std::ostream& out, std::ostream& err);

}  // namespace meshmp
