// Whole-block schedules compiled into step programs. See block_program.h.
#include "firmware/paper004/block_program.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

namespace meshmp {

namespace {

// The final place of block b on node v, if it must end there.
const SaadSpot* final_place(const SaadBlockSchedule& schedule, int b, int v) {
  for (const SaadSpot& s : schedule.finish[b])
    if (s.node == v) return &s;
  return nullptr;
}

// Where `move`'s blocks land on its receiver without an in-buffer: their final places, or else their
// homes, when they are consecutive there; none otherwise.
std::optional<std::uint32_t> landing_in_place(const SaadBlockSchedule& schedule, const SaadBlockMove& move,
                                              std::uint32_t m) {
  const SaadSpot* first = final_place(schedule, move.blocks.front(), move.to);
  bool direct = first != nullptr;
  for (std::size_t i = 1; direct && i < move.blocks.size(); ++i) {
    const SaadSpot* spot = final_place(schedule, move.blocks[i], move.to);
    direct = spot != nullptr && spot->address == first->address + i * m;
  }
  if (direct) return first->address;
  if (!schedule.home) return std::nullopt;
  const auto home = schedule.home(move.to, move.blocks.front());
  bool consecutive_home = home.has_value();
  for (std::size_t i = 1; consecutive_home && i < move.blocks.size(); ++i) {
    const auto next = schedule.home(move.to, move.blocks[i]);
    consecutive_home = next && *next == *home + i * m;
  }
  if (consecutive_home) return *home;
  return std::nullopt;
}

}  // namespace

SaadProgram compile_block_schedule(const SaadBlockSchedule& schedule, int nodes, std::uint32_t scratch_base) {
  const std::uint32_t m = schedule.block_bytes;
  const std::size_t blocks = schedule.start.size();
  // Where node v holds block b (a node keeps the last copy it received or started with).
  std::vector<std::map<int, std::uint32_t>> held(static_cast<std::size_t>(nodes));
  for (std::size_t b = 0; b < blocks; ++b) held[schedule.start[b].node][static_cast<int>(b)] = schedule.start[b].address;
  std::vector<std::uint64_t> next_free(static_cast<std::size_t>(nodes), scratch_base);
  auto allocate = [&](int node, std::size_t count) {
    const std::uint64_t at = next_free[node];
    next_free[node] += count * m;
    return static_cast<std::uint32_t>(at);
  };
  SaadProgram program;
  program.step_copies.resize(schedule.steps.size());
  program.steps.resize(schedule.steps.size());
  for (std::size_t s = 0; s < schedule.steps.size(); ++s) {
    std::vector<std::pair<int, std::pair<int, std::uint32_t>>> arrivals;  // (node, (block, address))
    for (const SaadBlockMove& move : schedule.steps[s]) {
      if (move.blocks.empty()) continue;
      auto& at = held[move.from];
      for (int b : move.blocks)
        if (!at.count(b))
          throw std::logic_error("block schedule: node " + std::to_string(move.from) + " sends block " + std::to_string(b) +
                                 " in step " + std::to_string(s) + " without holding it");
      // Sent in place when consecutive in order; otherwise gathered into an out-buffer first.
      std::uint32_t from_address = at[move.blocks.front()];
      bool consecutive = true;
      for (std::size_t i = 1; i < move.blocks.size(); ++i)
        consecutive = consecutive && at[move.blocks[i]] == from_address + i * m;
      if (!consecutive) {
        from_address = allocate(move.from, move.blocks.size());
        for (std::size_t i = 0; i < move.blocks.size(); ++i)
          program.step_copies[s].push_back({move.from, LocalCopy{static_cast<std::uint32_t>(from_address + i * m),
                                                                 at[move.blocks[i]], m}});
      }
      // Received in place when the blocks are consecutive there on the receiver; otherwise in an in-buffer.
      const std::optional<std::uint32_t> landing = landing_in_place(schedule, move, m);
      const std::uint32_t to_address = landing ? *landing : allocate(move.to, move.blocks.size());
      program.steps[s].push_back({move.from, move.to, from_address, to_address,
                                  static_cast<std::uint32_t>(move.blocks.size() * m)});
      for (std::size_t i = 0; i < move.blocks.size(); ++i)
        arrivals.push_back({move.to, {move.blocks[i], static_cast<std::uint32_t>(to_address + i * m)}});
    }
    // Arrivals count from the next step (a node forwards what it received in an earlier step).
    for (const auto& [node, block] : arrivals) held[node][block.first] = block.second;
  }
  for (std::size_t b = 0; b < blocks; ++b)
    for (const SaadSpot& spot : schedule.finish[b]) {
      const auto& at = held[spot.node];
      const auto it = at.find(static_cast<int>(b));
      if (it == at.end())
        throw std::logic_error("block schedule: block " + std::to_string(b) + " never reaches node " + std::to_string(spot.node));
      if (it->second != spot.address) program.final_copies.push_back({spot.node, LocalCopy{spot.address, it->second, m}});
    }
  for (std::uint64_t end : next_free)
    program.scratch_bytes = std::max<std::uint64_t>(program.scratch_bytes, end - scratch_base);
  return program;
}

}  // namespace meshmp
