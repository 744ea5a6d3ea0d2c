// 004 §2's port rule of an algorithm (firmware/api/port_rule.h) as the rule the network interfaces check
// every message against (hw/node/message_rule.h). Messages with the firmware's reserved tags (its own
// collectives' bookkeeping, firmware/api/node_api.h) are not part of the schedule and are not checked.
#pragma once

#include "firmware/api/node_api.h"
#include "firmware/api/port_rule.h"
#include "hw/node/message_rule.h"

namespace meshmp {

class PortRuleCheck : public MessageRule {
 public:
  PortRuleCheck(const Topology& topology, PortRule rule) : monitor_(topology, rule) {}

  std::optional<std::string> record(int step, int from, int to, std::uint32_t tag) override {
    if (tag >= kReservedTagBase) return std::nullopt;
    return monitor_.record(step, from, to);
  }

 private:
  PortRuleMonitor monitor_;
};

}  // namespace meshmp
