// The zero-load model of a run as an observer of the schedule the firmware marks (the per-step prediction
// every run reports beside the paper's formula; docs/architecture.md, "Predictions every run reports").
// The processors tell it what their firmware does (step marks, sends, completed waits, copies,
// computation, barriers); the network interfaces tell it which message was sent and which receive it
// completed. It costs each node's part of each step as if nothing else were in the network: start-ups,
// copies and computation advance a cursor; each message is injected when its channel is free and arrives
// zero_load_transfer_cycles (hw/network/zero_load_model.h) later; a send completes when injected, a receive when
// its message arrives; the step costs max(cursor, last arrival). Nothing of it sits in a register or a
// flit: a message's predicted arrival travels beside it on the host side (tlm/zero_load_stamp.h), so no
// table of the messages in flight is kept. Changing what a send does changes the hardware, and this model
// only where the timing formula changes.
#pragma once

#include <cstdint>
#include <memory_resource>
#include <optional>
#include <unordered_map>
#include <vector>

#include "firmware/api/node_api.h"
#include "hw/node/processor_activity.h"
#include "hw/node/processor_params.h"
#include "tlm/zero_load_stamp.h"
#include "topology/topology.h"

namespace meshmp {

class ZeroLoadObserver : public ProcessorActivity {
 public:
  ZeroLoadObserver(const Topology& topology, const TransferTiming& timing, const ProcessorParams& params);

  // From the processors, in the order the firmware acts (hw/node/processor_activity.h).
  // A new step mark: the node's receives of earlier steps are no longer costed by their messages.
  void begin_step(int node, int step) override;
  // The node's cost of the step it ends (cycles from the step's start); the node's model starts afresh.
  std::uint64_t close_step(int node) override;
  // A send about to be issued: t_s, the channel, the arrival, when it will have been injected.
  void sending(int node, int peer, std::uint32_t length, const std::vector<int>& route) override;
  void issued(int node, Handle handle) override;
  // A send of this step completes when injected; a receive when its message arrives by its sender's
  // model (a message of this step), else when this node's own messages so far have arrived (right for
  // the symmetric exchanges, where a partner sends what it is sent).
  void completed(int node, Handle handle) override;
  void completed_all(int node, Handle first, Handle end) override;
  void local_work(int node, std::uint64_t cycles) override;
  // When the send issued as `handle` (since the last completed_all) is injected by the model, in cycles
  // from its step's start; none when `handle` is not such a send.
  std::optional<std::uint64_t> injected(int node, Handle handle) const;

  // From the network interfaces (router networks; the fabrics' receives take the fallback above).
  // A message was just created by the send the node's processor is issuing (or by another initiator on
  // its registers: no stamp): the stamp it carries (tlm/zero_load_stamp.h).
  ZeroLoadStamp stamp_sent(int src);
  // The receive descriptor `receive` of node `dst` was completed by a message with that stamp.
  void message_received(int dst, std::uint32_t receive, const ZeroLoadStamp& stamp);

 private:
  struct NodeModel {
    explicit NodeModel(std::pmr::memory_resource* entries) : receive_arrivals(entries) {}
    int step = 0;
    std::uint64_t cursor = 0;
    std::uint64_t last_arrival = 0;
    std::vector<std::uint64_t> channel_free;  // per injection channel
    // The sends since the last completed_all(), in issue order: when each was injected, and its step.
    std::vector<Handle> send_handles;
    std::vector<std::uint64_t> send_injected;
    std::vector<int> send_step;
    ZeroLoadStamp sending;  // the send being issued, until its interface stamps its message
    std::uint64_t issuing_injected = 0;  // when the send being issued is injected
    std::pmr::unordered_map<std::uint32_t, std::uint64_t> receive_arrivals;  // receive descriptor -> arrival
  };

  // What completed() does for the send at `index` of the node's list, and for a receive (or another
  // initiator's descriptor).
  static void complete_send(NodeModel& model, std::size_t index);
  static void complete_receive(NodeModel& model, Handle handle);

  const Topology& topology_;
  TransferTiming timing_;
  ProcessorParams params_;
  // The entries of the nodes' receive_arrivals, recycled as receives come and go (no heap allocation per
  // message).
  std::pmr::unsynchronized_pool_resource entries_;
  std::vector<NodeModel> nodes_;
};

}  // namespace meshmp
