// The plain parameters an algorithm sees of the machine besides its topology: the block size of the
// exchange and the cost-model quantities of 000 §2 / 001 §1 (start-up t_s, t_c from the link width,
// copy cost rho), the port model, the largest packet, and the workload's options. Filled from the machine's configuration by hw;
// firmware never sees that configuration, nor SystemC.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace meshmp {

struct ExchangeParameters {
  std::uint32_t block_bytes = 64;          // m
  std::uint64_t startup_cycles = 100;      // t_s
  int flit_bytes = 8;                      // link width: t_c = 1 / flit_bytes cycles per byte
  double copy_cycles_per_byte = 0.25;      // rho
  bool all_port = false;                   // all-port nodes (else one-port)
  int max_packet_payload_flits = 16;       // messages are cut into packets of at most this many flits
  int concurrent_transfers = 1;            // k* of 004's bus and shared memory (§2 A, B)
  // The workload's options as given (checked against the workload's declarations by make_workload).
  std::map<std::string, std::string> workload_options;
};

}  // namespace meshmp
