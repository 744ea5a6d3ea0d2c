// The zero-load model of a run as an observer of the schedule the firmware marks (the per-step prediction
// every run reports beside the paper's formula; docs/architecture.md, "Predictions every run reports").
// The processors tell it what their firmware does (step marks, sends, completed waits, copies,
// computation, barriers); the network interfaces tell it which message was sent and which receive it
// completed. It costs each node's part of each step as if nothing else were in the network: start-ups,
// copies and computation advance a cursor; each message is injected when its channel is free and arrives
// zero_load_transfer_cycles (hw/network/zero_load_model.h) later; a send completes when injected, a receive when
// its message arrives; the step costs max(cursor, last arrival). Nothing of it travels with the messages
// or sits in a register: changing what a send does changes the hardware, and this model only where the
// timing formula changes.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "firmware/api/node_api.h"
#include "hw/node/processor_activity.h"
#include "hw/node/processor_params.h"
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
  // The message `message_id` (the source's sequence number to `dst`) was just created by the send the
  // node's processor is issuing, or by another initiator on its registers (not modelled).
  void message_sent(int src, int dst, std::uint32_t message_id);
  // The receive descriptor `receive` of node `dst` was completed by that message.
  void message_received(int dst, std::uint32_t receive, int src, std::uint32_t message_id);

 private:
  struct Sent {
    std::uint64_t arrival;
    int step;
  };
  struct NodeModel {
    int step = 0;
    std::uint64_t cursor = 0;
    std::uint64_t last_arrival = 0;
    std::vector<std::uint64_t> channel_free;  // per injection channel
    // The sends since the last completed_all(), in issue order: when each was injected, and its step.
    std::vector<Handle> send_handles;
    std::vector<std::uint64_t> send_injected;
    std::vector<int> send_step;
    std::optional<Sent> sending;  // the send being issued, until its interface names its message
    std::uint64_t issuing_injected = 0;  // when the send being issued is injected
    std::unordered_map<std::uint32_t, std::uint64_t> receive_arrivals;  // receive descriptor -> arrival
  };

  // What completed() does for the send at `index` of the node's list, and for a receive (or another
  // initiator's descriptor).
  static void complete_send(NodeModel& model, std::size_t index);
  static void complete_receive(NodeModel& model, Handle handle);

  const Topology& topology_;
  TransferTiming timing_;
  ProcessorParams params_;
  std::vector<NodeModel> nodes_;
  // Messages sent and not yet received, by key(src, dst, message id).
  static std::uint64_t key(int src, int dst, std::uint32_t message_id) {
    return (static_cast<std::uint64_t>(src) << 48) | (static_cast<std::uint64_t>(dst) << 32) | message_id;
  }
  std::unordered_map<std::uint64_t, Sent> in_flight_;
};

}  // namespace meshmp
