// The index algorithm of Bruck, Ho, Kipnis, Upfal and Weathersby (IEEE TPDS 8(11), 1997, §3, radix 2):
// the complete exchange in ceil(log2 N) steps of combined blocks, the baseline MPI libraries use for
// small blocks, where the start-up t_s dominates (the comparison 001 §6 makes against its tori
// algorithms). Any N, any topology; one message out and one in per step (one-port).
//   1. Local rotation: the work array holds at position k the block for node (i + k) mod N.
//   2. Step b = 0 .. ceil(log2 N) - 1: every position k with bit b set is packed into one message to
//      node (i + 2^b) mod N; the same positions are replaced by the message from (i - 2^b) mod N.
//      A block meant for i + k travels k = sum of its bits, so it arrives with position k intact.
//   3. Position k now holds the block from node (i - k) mod N: an inverse rotation puts it in place.
// Every local move (rotations, packing, unpacking) is a local_copy charged at rho per byte.
#include "firmware/api/algorithm_registry.h"
#include "firmware/api/local_copy_batch.h"

namespace meshmp {
namespace {

int bruck_steps(int n) {
  int steps = 0;
  while ((1 << steps) < n) ++steps;
  return steps;
}

// Positions k < n with bit b set: the blocks step b moves.
std::uint32_t blocks_moved(int n, int b) {
  std::uint32_t count = 0;
  for (int k = 0; k < n; ++k) count += (k >> b) & 1;
  return count;
}

// The scratch area: the work array (N blocks), then the outgoing and incoming packed messages.
struct BruckScratch {
  std::uint32_t work, packed_out, packed_in;
};

BruckScratch scratch_regions(const ExchangeLayout& l) {
  const std::uint32_t m = l.block_bytes;
  const auto n = static_cast<std::uint32_t>(l.num_nodes);
  const std::uint32_t half = (n + 1) / 2 * m;
  return {l.scratch_base(), l.scratch_base() + n * m, l.scratch_base() + n * m + half};
}

// Copies the runs of positions with bit b set between the work array and a packed buffer, a run
// (2^b consecutive positions) per copy.
void move_runs(NodeApi& api, std::uint32_t work, std::uint32_t packed, int b, bool pack) {
  const int n = api.num_nodes();
  const std::uint32_t m = api.layout().block_bytes;
  const int run = 1 << b;
  std::uint32_t at = packed;
  for (int start = run; start < n; start += 2 * run) {
    const std::uint32_t bytes = static_cast<std::uint32_t>(std::min(run, n - start)) * m;
    const std::uint32_t position = work + static_cast<std::uint32_t>(start) * m;
    if (pack) api.local_copy(at, position, bytes);
    else api.local_copy(position, at, bytes);
    at += bytes;
  }
}

void bruck_exchange(NodeApi& api) {
  const ExchangeLayout& l = api.layout();
  const int n = api.num_nodes();
  const int me = api.id();
  const std::uint32_t m = l.block_bytes;
  const BruckScratch s = scratch_regions(l);
  const auto shift = static_cast<std::uint32_t>(me);
  const auto total = static_cast<std::uint32_t>(n);

  // 1. work[k] = send block for (me + k) mod N: two contiguous pieces.
  api.local_copy(s.work, l.send_block(me), (total - shift) * m);
  if (shift > 0) api.local_copy(s.work + (total - shift) * m, l.send_base(), shift * m);

  // 2. One combined message per step.
  for (int b = 0; b < bruck_steps(n); ++b) {
    api.begin_step(b + 1);
    const int to = (me + (1 << b)) % n;
    const int from = ((me - (1 << b)) % n + n) % n;
    const std::uint32_t bytes = blocks_moved(n, b) * m;
    move_runs(api, s.work, s.packed_out, b, true);
    api.send_receive(to, s.packed_out, from, s.packed_in, bytes, static_cast<std::uint32_t>(b + 1));
    move_runs(api, s.work, s.packed_in, b, false);
  }

  // 3. The block from node j is at position (me - j) mod N: a local operation per block.
  LocalCopyBatch place(api);
  for (int j = 0; j < n; ++j) place.add(l.receive_block(j), s.work + static_cast<std::uint32_t>((me - j + n) % n) * m, m);
  place.flush();
}

// Bruck et al.'s cost under 000 §2's model: a start-up and the combined message per step, plus the
// local moves at rho per byte (two rotations of N blocks, packing and unpacking of each message).
double bruck_estimate(const Topology& topology, const ExchangeParameters& p) {
  const int n = topology.num_nodes();
  double cycles = 2.0 * n * p.block_bytes * p.copy_cycles_per_byte;
  for (int b = 0; b < bruck_steps(n); ++b) {
    const double bytes = static_cast<double>(blocks_moved(n, b)) * p.block_bytes;
    cycles += step_cost_cycles(p, bytes) + 2 * bytes * p.copy_cycles_per_byte;
  }
  return cycles;
}

std::vector<Algorithm> bruck_exchange_algorithms() {
  Algorithm bruck;
  bruck.name = "bruck";
  bruck.summary = "ceil(log2 N) steps of combined blocks to i + 2^b, with local rotations (Bruck et al.)";
  bruck.source = "Bruck et al. 1997 §3 (index algorithm, radix 2); the small-block baseline of 001 §6";
  bruck.why_unsupported = [](const Topology&, const ExchangeParameters&) -> std::optional<std::string> {
    return std::nullopt;
  };
  bruck.firmware = bruck_exchange;
  bruck.estimate_cycles = bruck_estimate;
  bruck.estimate_formula =
      "sum over ceil(log2 N) steps of (t_s + n_b m t_c + 2 n_b m rho) + 2 N m rho, n_b = blocks moved in step b";
  bruck.scratch_bytes = [](const Topology& topology, const ExchangeParameters& parameters, const AlgorithmOptions&) -> std::uint64_t {
    const std::uint32_t block_bytes = parameters.block_bytes;
    const auto n = static_cast<std::uint64_t>(topology.num_nodes());
    return (n + 2 * ((n + 1) / 2)) * block_bytes;
  };
  return {bruck};
}

const AlgorithmFamilyRegistration kRegistration{20, bruck_exchange_algorithms};

}  // namespace

}  // namespace meshmp
