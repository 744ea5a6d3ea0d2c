// The range of every whole-number setting, in one place: validate() checks against it, and the command
// line and the JSON config reader parse against it, so an out-of-range or unparsable value is reported
// with the rule that really applies (never a type's range, never silently clamped).
#pragma once

#include <cstdint>
#include <string>

namespace meshmp {

struct IntegerLimit {
  const char* field;
  std::uint64_t min;
  std::uint64_t max;
  std::string rule() const { return "must be " + std::to_string(min) + ".." + std::to_string(max); }
};

namespace limits {
inline constexpr IntegerLimit kVcs{"router.vcs", 1, 16};
inline constexpr IntegerLimit kBufferFlits{"router.buffer_flits", 1, 1024};
inline constexpr IntegerLimit kPipelineDepth{"router.pipeline_depth", 1, 5};
inline constexpr IntegerLimit kLinkLatency{"router.link_latency_cycles", 1, 64};
inline constexpr IntegerLimit kChannelWidthBits{"power.channel_width_bits", 0, 8192};  // 0: the flit's width
inline constexpr IntegerLimit kCreditLatency{"router.credit_latency_cycles", 0, 64};  // 0: the link latency
inline constexpr IntegerLimit kCreditProcessing{"router.credit_processing_cycles", 0, 8};
inline constexpr IntegerLimit kFlitBytes{"router.flit_bytes", 1, 32};
inline constexpr IntegerLimit kMaxPacketPayloadFlits{"router.max_packet_payload_flits", 1, 4096};
inline constexpr IntegerLimit kRtlPowerOnSeed{"router.rtl_power_on_seed", 0, 0x7fffffff};
inline constexpr IntegerLimit kBlockBytes{"block_bytes", 1, 0xffffffffull};
inline constexpr IntegerLimit kStartupCycles{"node.startup_cycles", 0, 100000000};
inline constexpr IntegerLimit kBarrierLatency{"node.barrier_latency_cycles", 0, 100000000};
inline constexpr IntegerLimit kUnexpectedBufferBytes{"node.unexpected_buffer_bytes", 0, 0xffffffffull};
inline constexpr IntegerLimit kWatchdogCycles{"run.watchdog_cycles", 10, 1ull << 62};
inline constexpr IntegerLimit kMaxCycles{"run.max_cycles", 1, 1ull << 62};
inline constexpr IntegerLimit kHostThreads{"run.host_threads", 1, 64};
// 004 §2's shared-resource machines (topology bus:K, shared-memory:K, omega:K).
inline constexpr IntegerLimit kFabricStartupCycles{"fabric.startup_cycles", 0, 100000000};
inline constexpr IntegerLimit kFabricBytesPerCycle{"fabric.bytes_per_cycle", 1, 1024};
inline constexpr IntegerLimit kConcurrentTransfers{"fabric.concurrent_transfers", 1, 4096};
inline constexpr IntegerLimit kMemoryBanks{"fabric.memory_banks", 0, 1u << 20};
// meshmp traffic: packets and the measurement's windows.
inline constexpr IntegerLimit kTrafficPacketFlits{"traffic.packet_flits", 1, 4097};
inline constexpr IntegerLimit kTrafficWarmupCycles{"traffic.warmup_cycles", 0, 1000000000};
inline constexpr IntegerLimit kTrafficMeasureCycles{"traffic.measure_cycles", 1, 1000000000};
inline constexpr IntegerLimit kTrafficDrainCycles{"traffic.drain_cycles", 0, 1000000000};
inline constexpr IntegerLimit kTrafficSeed{"traffic.seed", 0, 0x7fffffffffffffffull};
// Each seed of a load is a process of its own (meshmp traffic --seeds).
inline constexpr IntegerLimit kTrafficSeeds{"traffic.seeds", 1, 1000};
}  // namespace limits

// Parses a whole number written in decimal; throws ConfigError(limit.field, text, rule) when the text is
// not one or lies outside the limit.
std::uint64_t parse_integer(const std::string& text, const IntegerLimit& limit);
// node.copy_cycles_per_byte (rho): a finite number 0..1e6. Parses text strictly (no nan, no inf).
constexpr double kMaxCopyCyclesPerByte = 1e6;
double parse_copy_cycles_per_byte(const std::string& text);
bool copy_cycles_per_byte_valid(double value);
// Throws ConfigError(limit.field, value, rule) when value lies outside the limit.
void check_integer(std::uint64_t value, const IntegerLimit& limit);

}  // namespace meshmp
