// 004 (3.38)'s ring scatter as whole-block moves, and its reverse. See ring_scatter.h.
#include "firmware/paper004/ring_scatter.h"

#include <algorithm>

#include "firmware/paper004/trees.h"

namespace meshmp {

std::pair<std::vector<int>, std::vector<int>> ring_sides(const Topology& t, int from, int d) {
  std::vector<int> plus, minus;
  const int size = t.dimension(d).size;
  for (int h = 1; h <= size / 2; ++h) plus.push_back(d == 0 ? at_relative(t, from, h, 0) : at_relative(t, from, 0, h));
  for (int h = 1; h <= (size - 1) / 2; ++h) minus.push_back(d == 0 ? at_relative(t, from, -h, 0) : at_relative(t, from, 0, -h));
  return {plus, minus};
}

void ring_scatter(BlockSteps& steps, int root, const std::vector<int>& plus, const std::vector<int>& minus,
                  const std::function<std::vector<int>(int)>& items, std::size_t start) {
  for (const std::vector<int>* side : {&plus, &minus}) {
    const int far = static_cast<int>(side->size());
    for (int target = 1; target <= far; ++target)
      for (int hop = 0; hop < target; ++hop) {
        const std::size_t s = start + static_cast<std::size_t>(far - target + hop);
        if (steps.size() <= s) steps.resize(s + 1);
        const int from = hop == 0 ? root : (*side)[hop - 1];
        steps[s].push_back({from, (*side)[hop], items((*side)[target - 1])});
      }
  }
}

void reverse_in_time(BlockSteps& steps) {
  std::reverse(steps.begin(), steps.end());
  for (auto& step : steps)
    for (SaadBlockMove& move : step) std::swap(move.from, move.to);
}

}  // namespace meshmp
