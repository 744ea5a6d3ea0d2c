// Whole-block schedules compiled into step programs. See block_program.h.
#include "firmware/paper004/block_program.h"

#include <algorithm>
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

// Where each block is held: per block, the nodes holding a copy and where (a node keeps the last copy it
// received or started with). A block is held by the few nodes of its path, so a lookup scans a handful of
// entries, and the table grows with the blocks, not with blocks x nodes.
class HeldBlocks {
 public:
  explicit HeldBlocks(std::size_t blocks) : by_block_(blocks) {}
  const std::uint32_t* find(int node, int block) const {
    for (const Copy& c : by_block_[static_cast<std::size_t>(block)])
      if (c.node == node) return &c.address;
    return nullptr;
  }
  void keep(int node, int block, std::uint32_t address) {
    for (Copy& c : by_block_[static_cast<std::size_t>(block)])
      if (c.node == node) {
        c.address = address;
        return;
      }
    by_block_[static_cast<std::size_t>(block)].push_back({node, address});
  }

 private:
  struct Copy {
    int node;
    std::uint32_t address;
  };
  std::vector<std::vector<Copy>> by_block_;
};

}  // namespace

SaadProgram compile_block_schedule(const SaadBlockSchedule& schedule, int nodes, std::uint32_t scratch_base) {
  const std::uint32_t m = schedule.block_bytes;
  const std::size_t blocks = schedule.start.size();
  HeldBlocks held(blocks);
  for (std::size_t b = 0; b < blocks; ++b) held.keep(schedule.start[b].node, static_cast<int>(b), schedule.start[b].address);
  std::vector<std::uint64_t> next_free(static_cast<std::size_t>(nodes), scratch_base);
  auto allocate = [&](int node, std::size_t count) {
    const std::uint64_t at = next_free[node];
    next_free[node] += count * m;
    return static_cast<std::uint32_t>(at);
  };
  SaadProgram program;
  program.step_copies.resize(schedule.steps.size());
  program.steps.resize(schedule.steps.size());
  std::vector<std::uint32_t> sent_from;  // where the sender holds each block of a move
  for (std::size_t s = 0; s < schedule.steps.size(); ++s) {
    std::vector<std::pair<int, std::pair<int, std::uint32_t>>> arrivals;  // (node, (block, address))
    for (const SaadBlockMove& move : schedule.steps[s]) {
      if (move.blocks.empty()) continue;
      sent_from.clear();
      for (int b : move.blocks) {
        const std::uint32_t* at = held.find(move.from, b);
        if (!at)
          throw std::logic_error("block schedule: node " + std::to_string(move.from) + " sends block " + std::to_string(b) +
                                 " in step " + std::to_string(s) + " without holding it");
        sent_from.push_back(*at);
      }
      // Sent in place when consecutive in order; otherwise gathered into an out-buffer first.
      std::uint32_t from_address = sent_from.front();
      bool consecutive = true;
      for (std::size_t i = 1; i < move.blocks.size(); ++i)
        consecutive = consecutive && sent_from[i] == from_address + i * m;
      if (!consecutive) {
        from_address = allocate(move.from, move.blocks.size());
        for (std::size_t i = 0; i < move.blocks.size(); ++i)
          program.step_copies[s].push_back({move.from, LocalCopy{static_cast<std::uint32_t>(from_address + i * m),
                                                                 sent_from[i], m}});
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
    for (const auto& [node, block] : arrivals) held.keep(node, block.first, block.second);
  }
  for (std::size_t b = 0; b < blocks; ++b)
    for (const SaadSpot& spot : schedule.finish[b]) {
      const std::uint32_t* at = held.find(spot.node, static_cast<int>(b));
      if (!at)
        throw std::logic_error("block schedule: block " + std::to_string(b) + " never reaches node " + std::to_string(spot.node));
      if (*at != spot.address) program.final_copies.push_back({spot.node, LocalCopy{spot.address, *at, m}});
    }
  for (std::uint64_t end : next_free)
    program.scratch_bytes = std::max<std::uint64_t>(program.scratch_bytes, end - scratch_base);
  return program;
}

}  // namespace meshmp
