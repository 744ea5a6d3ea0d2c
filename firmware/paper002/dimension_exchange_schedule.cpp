// Total exchange inside one dimension (the building blocks of 002's algorithms). See
// dimension_exchange_schedule.h.
#include "firmware/paper002/dimension_exchange_schedule.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace meshmp {
namespace {

struct Held {
  int source, destination;
  int direction;  // +1 or -1 along the dimension (rings and paths)
};

int remaining(const Held& b, int at, int size, bool ring) {
  if (!ring) return std::abs(b.destination - at);
  return ((b.destination - at) * b.direction % size + size) % size;
}

// Forwards blocks one link per step until every block is home; single-port rings use one direction at a
// time. Priority: on a single-port path the busiest nodes' moves, then (everywhere) the block with the
// farthest to go, then the lower source, then the lower destination.
std::vector<ExchangeStep> forward(int size, bool ring, bool multiport, std::vector<std::vector<Held>> held,
                                  bool one_direction_at_a_time) {
  std::vector<ExchangeStep> steps;
  auto pending = [&](int direction) {
    for (const auto& blocks : held)
      for (const Held& b : blocks)
        if (direction == 0 || b.direction == direction) return true;
    return false;
  };
  while (pending(0)) {
    const int only = one_direction_at_a_time ? (pending(+1) ? +1 : -1) : 0;
    struct Candidate {
      int at, index, to, distance;
    };
    std::vector<Candidate> candidates;
    for (int at = 0; at < size; ++at)
      for (std::size_t i = 0; i < held[static_cast<std::size_t>(at)].size(); ++i) {
        const Held& b = held[static_cast<std::size_t>(at)][i];
        if (only != 0 && b.direction != only) continue;
        const int to = ring ? ((at + b.direction) % size + size) % size : at + b.direction;
        candidates.push_back({at, static_cast<int>(i), to, remaining(b, at, size, ring)});
      }
    // Single-port on a path: the moves of the busiest nodes first, a node's load being the blocks it has
    // still to send plus, for the receiver, those it has still to receive (the blocks whose way crosses it).
    std::vector<int> load_to_send(static_cast<std::size_t>(size), 0);
    std::vector<int> load_to_receive(static_cast<std::size_t>(size), 0);
    if (!ring && !multiport)
      for (int at = 0; at < size; ++at)
        for (const Held& b : held[static_cast<std::size_t>(at)])
          for (int v = at; v != b.destination; v += b.direction) {
            ++load_to_send[static_cast<std::size_t>(v)];
            ++load_to_receive[static_cast<std::size_t>(v + b.direction)];
          }
    auto load = [&](const Candidate& c) {
      return load_to_send[static_cast<std::size_t>(c.at)] + load_to_receive[static_cast<std::size_t>(c.to)];
    };
    std::stable_sort(candidates.begin(), candidates.end(), [&](const Candidate& a, const Candidate& b) {
      const Held& x = held[static_cast<std::size_t>(a.at)][static_cast<std::size_t>(a.index)];
      const Held& y = held[static_cast<std::size_t>(b.at)][static_cast<std::size_t>(b.index)];
      if (load(a) != load(b)) return load(a) > load(b);
      if (a.distance != b.distance) return a.distance > b.distance;
      if (x.source != y.source) return x.source < y.source;
      return x.destination < y.destination;
    });
    std::vector<bool> sent(static_cast<std::size_t>(size), false), received(static_cast<std::size_t>(size), false);
    std::vector<bool> link_used(static_cast<std::size_t>(2 * size), false);  // (from, direction)
    ExchangeStep step;
    std::vector<std::pair<int, int>> moved;  // (at, index)
    for (const Candidate& c : candidates) {
      const Held& b = held[static_cast<std::size_t>(c.at)][static_cast<std::size_t>(c.index)];
      if (multiport) {
        const std::size_t link = static_cast<std::size_t>(2 * c.at + (b.direction > 0 ? 1 : 0));
        if (link_used[link]) continue;
        link_used[link] = true;
      } else {
        if (sent[static_cast<std::size_t>(c.at)] || received[static_cast<std::size_t>(c.to)]) continue;
        sent[static_cast<std::size_t>(c.at)] = true;
        received[static_cast<std::size_t>(c.to)] = true;
      }
      step.push_back({c.at, c.to, b.source, b.destination});
      moved.emplace_back(c.at, c.index);
    }
    // Apply: remove the moved blocks (highest index first per node), then add them at their next node.
    std::sort(moved.begin(), moved.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<Held> arriving;
    for (const auto& [at, index] : moved) {
      auto& blocks = held[static_cast<std::size_t>(at)];
      arriving.push_back(blocks[static_cast<std::size_t>(index)]);
      blocks.erase(blocks.begin() + index);
    }
    for (const BlockTransfer& t : step)
      if (t.to != t.destination)
        for (const Held& b : arriving)
          if (b.source == t.source && b.destination == t.destination) held[static_cast<std::size_t>(t.to)].push_back(b);
    steps.push_back(std::move(step));
  }
  return steps;
}

}  // namespace

std::vector<ExchangeStep> dimension_exchange_schedule(DimensionKind kind, int size, bool multiport) {
  std::vector<ExchangeStep> steps;
  if (size < 2) return steps;
  if (kind == DimensionKind::Complete || size == 2) {
    if (multiport) {
      ExchangeStep all;
      for (int x = 0; x < size; ++x)
        for (int y = 0; y < size; ++y)
          if (x != y) all.push_back({x, y, x, y});
      steps.push_back(all);
    } else {
      for (int t = 1; t < size; ++t) {
        ExchangeStep step;
        for (int x = 0; x < size; ++x) step.push_back({x, (x + t) % size, x, (x + t) % size});
        steps.push_back(step);
      }
    }
    return steps;
  }
  const bool ring = kind == DimensionKind::Ring;
  std::vector<std::vector<Held>> held(static_cast<std::size_t>(size));
  for (int x = 0; x < size; ++x)
    for (int y = 0; y < size; ++y) {
      if (x == y) continue;
      int direction = y > x ? +1 : -1;
      if (ring) {
        const int clockwise = ((y - x) % size + size) % size;
        direction = 2 * clockwise < size ? +1 : 2 * clockwise > size ? -1 : (multiport && x % 2 == 1 ? -1 : +1);
      }
      held[static_cast<std::size_t>(x)].push_back({x, y, direction});
    }
  return forward(size, ring, multiport, std::move(held), ring && !multiport);
}

const PositionSchedule& shared_position_schedule(DimensionKind kind, int size, bool multiport) {
  static std::mutex guard;
  static std::map<std::tuple<DimensionKind, int, bool>, std::unique_ptr<const PositionSchedule>> built;
  const std::lock_guard<std::mutex> lock(guard);
  auto& slot = built[{kind, size, multiport}];
  if (!slot) {
    auto schedule = std::make_unique<PositionSchedule>();
    schedule->steps = dimension_exchange_schedule(kind, size, multiport);
    schedule->of_position.assign(static_cast<std::size_t>(std::max(size, 0)),
                                 std::vector<ExchangeStep>(schedule->steps.size()));
    for (std::size_t s = 0; s < schedule->steps.size(); ++s)
      for (const BlockTransfer& t : schedule->steps[s]) {
        schedule->of_position[static_cast<std::size_t>(t.from)][s].push_back(t);
        if (t.to != t.from) schedule->of_position[static_cast<std::size_t>(t.to)][s].push_back(t);
      }
    slot = std::move(schedule);
  }
  return *slot;
}

std::uint64_t path_receive_bound(int size) {
  std::uint64_t best = 0;
  for (int i = 0; i < size; ++i) {
    const auto k = static_cast<std::uint64_t>(size), at = static_cast<std::uint64_t>(i);
    best = std::max(best, at * (k - at) + (k - 1 - at) * (at + 1));
  }
  return best;
}

}  // namespace meshmp
