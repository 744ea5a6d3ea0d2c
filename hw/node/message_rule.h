// A rule every message a node's DMA engine starts must keep, checked as its descriptor starts: the
// machine gives one to the network interfaces when the algorithm has one (004 §2's port rules, through
// hw/machine/machine.cpp), so that a schedule that breaks it ends the run with the rule's error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace meshmp {

class MessageRule {
 public:
  virtual ~MessageRule() = default;
  // Records that node `from` starts a message with `tag` to node `to` in step `step` (the step mark);
  // the error when that breaks the rule.
  virtual std::optional<std::string> record(int step, int from, int to, std::uint32_t tag) = 0;
};

}  // namespace meshmp
