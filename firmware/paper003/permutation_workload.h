// The dimension-permutation workload (003 §7, Definition 17): on 2^n nodes each node x holds one block
// of m bytes and must send it to the node whose address bit i is x's bit delta(i). Node memory: the
// block at 0 (input), the block that must arrive at m (output), then scratch. Option `permutation`:
// bit-reversal (delta(i) = n-1-i), shuffle (a one-step left cyclic shift of the address, Definition 3),
// unshuffle, or delta(0),...,delta(n-1) as a comma-separated list.
#pragma once

#include <vector>

#include "firmware/api/node_api.h"
#include "firmware/workloads/workload.h"

namespace meshmp {

// delta for a node count and the option's text; throws ConfigError naming workload_options.permutation.
std::vector<int> parse_dimension_permutation(const std::string& text, int n);
// The run's delta; FirmwareError when the workload is not a dimension permutation.
const std::vector<int>& dimension_permutation(const NodeApi& api);

}  // namespace meshmp
