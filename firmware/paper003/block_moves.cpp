// Block moves across cube links. See block_moves.h.
#include "firmware/paper003/block_moves.h"

#include <algorithm>
#include <stdexcept>

#include "firmware/paper003/transpose_moves.h"

namespace meshmp {

std::vector<int> final_positions(const MoveSchedule& schedule, int nodes) {
  std::vector<int> at(nodes);
  for (int b = 0; b < nodes; ++b) at[b] = b;
  for (std::size_t step = 0; step < schedule.size(); ++step)
    for (const BlockMove& move : schedule[step]) {
      if (at[move.block] != move.from)
        throw std::logic_error("step " + std::to_string(step) + " moves block " + std::to_string(move.block) + " from node " +
                               std::to_string(move.from) + ", which does not hold it");
      at[move.block] = move.to;
    }
  return at;
}

int most_blocks_held(const MoveSchedule& schedule, int nodes) {
  std::vector<int> at(nodes), held(nodes, 1);
  for (int b = 0; b < nodes; ++b) at[b] = b;
  int most = 1;
  for (const auto& step : schedule) {
    for (const BlockMove& move : step) {
      --held[move.from];
      ++held[move.to];
      at[move.block] = move.to;
    }
    for (int h : held) most = std::max(most, h);
  }
  return most;
}

std::vector<std::vector<NodeMove>> node_moves(const MoveSchedule& schedule, int nodes) {
  std::vector<std::vector<NodeMove>> moves(static_cast<std::size_t>(nodes));
  for (std::size_t step = 0; step < schedule.size(); ++step) {
    const auto s = static_cast<std::uint32_t>(step);
    for (std::size_t k = 0; k < schedule[step].size(); ++k)
      moves.at(static_cast<std::size_t>(schedule[step][k].to)).push_back({s, static_cast<std::uint32_t>(k), false});
    for (std::size_t k = 0; k < schedule[step].size(); ++k)
      moves.at(static_cast<std::size_t>(schedule[step][k].from)).push_back({s, static_cast<std::uint32_t>(k), true});
  }
  return moves;
}

std::map<int, std::uint32_t> run_block_moves(NodeApi& api, const MoveSchedule& schedule,
                                             const std::vector<NodeMove>& mine, const BlockBuffers& buffers) {
  const int me = api.id();
  std::map<int, std::uint32_t> held = {{me, buffers.own_address}};
  std::vector<bool> busy(buffers.count, false);
  auto take_buffer = [&](std::size_t step) {
    for (int k = 0; k < buffers.count; ++k)
      if (!busy[k]) {
        busy[k] = true;
        return buffers.base + static_cast<std::uint32_t>(k) * buffers.block_bytes;
      }
    throw FirmwareError("node " + std::to_string(me) + " holds more blocks than its " + std::to_string(buffers.count) +
                        " buffers at step " + std::to_string(step));
  };
  auto release = [&](std::uint32_t address) {
    if (address >= buffers.base) busy[(address - buffers.base) / buffers.block_bytes] = false;
  };
  auto next = mine.begin();
  std::vector<std::pair<int, std::uint32_t>> arriving;
  std::vector<std::uint32_t> leaving;
  for (std::size_t step = 0; step < schedule.size(); ++step) {
    if (step > 0 || !buffers.first_step_begun) api.begin_step(buffers.first_step + static_cast<int>(step));
    arriving.clear();
    leaving.clear();
    for (; next != mine.end() && next->step == step; ++next) {
      const BlockMove& move = schedule[step][next->index];
      if (!next->leaving) {
        const std::uint32_t address = take_buffer(step);
        arriving.emplace_back(move.block, address);
        receive_packets(api, move.from, address, buffers.block_bytes, buffers.packet_bytes,
                        static_cast<std::uint32_t>(step));
        continue;
      }
      const auto it = held.find(move.block);
      if (it == held.end())
        throw FirmwareError("node " + std::to_string(me) + " does not hold block " + std::to_string(move.block));
      send_packets(api, move.to, it->second, buffers.block_bytes, buffers.packet_bytes,
                   static_cast<std::uint32_t>(step));
      leaving.push_back(it->second);
      held.erase(it);
    }
    api.wait_all();
    for (std::uint32_t address : leaving) release(address);
    for (const auto& [block, address] : arriving) held[block] = address;
    if (buffers.barrier) api.hardware_barrier();
  }
  return held;
}

}  // namespace meshmp
