// One offered load run with several seeds (`meshmp traffic --seeds N`): the seeds' traffic results, each
// a run of its own, combined into one result with the mean of each figure and the 95 % confidence
// interval of the average latency and the accepted load (sims/confidence_interval.h).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

namespace meshmp {

// `seeds` (two or more traffic results of one network and load, seeds apart) as one result: the first's
// meshmp, config (with traffic.seeds), pattern, topology and offered load; each other number the mean over
// the seeds that measured it (null where none did), per-source figures averaged node by node, the smallest
// and largest source the extremes of those means; measured_packets and host_seconds summed, every
// delivered when each seed's were, errors and failures each named by its seed. Beside them:
// average_packet_latency_cycles_ci95 and accepted_flits_per_node_per_cycle_ci95 (half widths of the 95 %
// intervals; null with fewer than two measuring seeds), and the seeds' whole results in seed_results. No
// histogram: the seeds' bins differ in width (each seed's is in seed_results).
nlohmann::json combine_seed_results(const std::vector<nlohmann::json>& seeds);

}  // namespace meshmp
