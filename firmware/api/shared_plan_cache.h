// A plan every node of a machine needs alike (a schedule, a route table, a program), built once by the
// first node to start and shared by the others: a firmware plans its own messages, never every node's.
// The cache keeps the plan of the last key asked for (the key names every input the plan depends on).
// It holds the plan, not a node's frame: a node still waiting when a run stops is never unwound.
#pragma once

#include <memory>
#include <string>
#include <utility>

namespace meshmp {

template <class Plan>
class SharedPlanCache {
 public:
  // The plan for `key`, built by `build()` when the key differs from the last one asked for.
  template <class Build>
  std::shared_ptr<const Plan> get(const std::string& key, Build&& build) {
    if (!plan_ || key != key_) {
      plan_ = std::make_shared<const Plan>(std::forward<Build>(build)());
      key_ = key;
    }
    return plan_;
  }

 private:
  std::string key_;
  std::shared_ptr<const Plan> plan_;
};

}  // namespace meshmp
