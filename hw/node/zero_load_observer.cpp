// The zero-load model as an observer of the schedule. See zero_load_observer.h.
#include "hw/node/zero_load_observer.h"

#include <algorithm>

#include "hw/network/zero_load_model.h"

namespace meshmp {

ZeroLoadObserver::ZeroLoadObserver(const Topology& topology, const TransferTiming& timing, const ProcessorParams& params)
    : topology_(topology), timing_(timing), params_(params) {
  const std::size_t channels =
      timing.port_model == PortModel::AllPort && !timing.fabric ? static_cast<std::size_t>(topology.num_ports()) : 1;
  nodes_.reserve(static_cast<std::size_t>(topology.num_nodes()));
  for (int n = 0; n < topology.num_nodes(); ++n) nodes_.emplace_back(&entries_).channel_free.assign(channels, 0);
}

void ZeroLoadObserver::begin_step(int node, int step) {
  NodeModel& model = nodes_[static_cast<std::size_t>(node)];
  model.step = step;
  // The previous step's model is closed (clear() would zero every bucket even when there is nothing).
  if (!model.receive_arrivals.empty()) model.receive_arrivals.clear();
}

std::uint64_t ZeroLoadObserver::close_step(int node) {
  NodeModel& model = nodes_[static_cast<std::size_t>(node)];
  const std::uint64_t cost = std::max(model.cursor, model.last_arrival);
  model.cursor = model.last_arrival = 0;
  std::fill(model.channel_free.begin(), model.channel_free.end(), 0);
  return cost;
}

void ZeroLoadObserver::sending(int node, int peer, std::uint32_t length, const std::vector<int>& route) {
  NodeModel& model = nodes_[static_cast<std::size_t>(node)];
  if (!params_.startup_on_channel) model.cursor += params_.startup_cycles;
  if (timing_.fabric) {
    // Every transfer holds the node's one channel for 1 + tau + ceil(m / b) cycles (a cycle of
    // arbitration, then the transfer) and completes, at its receiver too, when it releases it.
    const std::uint64_t start = std::max(model.cursor, model.channel_free[0]) + 1 +
                                (params_.startup_on_channel ? params_.startup_cycles : 0);
    const std::uint64_t arrival = model.channel_free[0] = start + timing_.fabric->transfer_cycles(length);
    model.last_arrival = std::max(model.last_arrival, arrival);
    model.sending = {};  // the fabrics' receives are costed by the fallback
    model.issuing_injected = arrival;
    return;
  }
  const int hops = route.empty() ? topology_.distance(node, peer) : static_cast<int>(route.size());
  std::size_t channel = 0;
  if (model.channel_free.size() > 1 && peer != node)
    channel = static_cast<std::size_t>(route.empty() ? timing_.routing(topology_, node, peer) : route[0]);
  // The descriptor is written at the cursor; the DMA engine starts a cycle later, when its channel is free.
  const std::uint64_t start = std::max(model.cursor + 1, model.channel_free[channel]) +
                              (params_.startup_on_channel ? params_.startup_cycles : 0);
  model.channel_free[channel] = start + message_flits(timing_.router, length);
  const std::uint64_t arrival = start + zero_load_transfer_cycles(timing_.router, hops, length);
  model.last_arrival = std::max(model.last_arrival, arrival);
  model.sending = ZeroLoadStamp{arrival, model.step};
  model.issuing_injected = model.channel_free[channel];
}

void ZeroLoadObserver::issued(int node, Handle handle) {
  NodeModel& model = nodes_[static_cast<std::size_t>(node)];
  model.sending = {};
  model.send_handles.push_back(handle);
  model.send_injected.push_back(model.issuing_injected);
  model.send_step.push_back(model.step);
}

void ZeroLoadObserver::completed(int node, Handle handle) {
  NodeModel& model = nodes_[static_cast<std::size_t>(node)];
  const auto send = std::lower_bound(model.send_handles.begin(), model.send_handles.end(), handle);
  if (send != model.send_handles.end() && *send == handle)
    complete_send(model, static_cast<std::size_t>(send - model.send_handles.begin()));
  else
    complete_receive(model, handle);
}

void ZeroLoadObserver::complete_send(NodeModel& model, std::size_t index) {
  // Counted from its own step's start: a send of an earlier step was charged to that step.
  if (model.send_step[index] == model.step) model.cursor = std::max(model.cursor, model.send_injected[index]);
}

void ZeroLoadObserver::complete_receive(NodeModel& model, Handle handle) {
  const auto received = model.receive_arrivals.find(static_cast<std::uint32_t>(handle));
  if (received == model.receive_arrivals.end()) {
    model.cursor = std::max(model.cursor, model.last_arrival);
    return;
  }
  model.cursor = std::max(model.cursor, received->second);
  model.receive_arrivals.erase(received);
}

void ZeroLoadObserver::completed_all(int node, Handle first, Handle end) {
  // As completed() for each in turn; the sends are in handle order, so one walk finds them all.
  NodeModel& model = nodes_[static_cast<std::size_t>(node)];
  auto send = std::lower_bound(model.send_handles.begin(), model.send_handles.end(), first);
  for (Handle h = first; h < end; ++h) {
    if (send != model.send_handles.end() && *send == h) {
      complete_send(model, static_cast<std::size_t>(send - model.send_handles.begin()));
      ++send;
    } else {
      complete_receive(model, h);
    }
  }
  model.send_handles.clear();
  model.send_injected.clear();
  model.send_step.clear();
}

std::optional<std::uint64_t> ZeroLoadObserver::injected(int node, Handle handle) const {
  const NodeModel& model = nodes_[static_cast<std::size_t>(node)];
  const auto send = std::lower_bound(model.send_handles.begin(), model.send_handles.end(), handle);
  if (send == model.send_handles.end() || *send != handle) return std::nullopt;
  return model.send_injected[static_cast<std::size_t>(send - model.send_handles.begin())];
}

void ZeroLoadObserver::local_work(int node, std::uint64_t cycles) { nodes_[static_cast<std::size_t>(node)].cursor += cycles; }

ZeroLoadStamp ZeroLoadObserver::stamp_sent(int src) {
  NodeModel& model = nodes_[static_cast<std::size_t>(src)];
  const ZeroLoadStamp stamp = model.sending;  // none for another initiator's send: not modelled
  model.sending = {};
  return stamp;
}

void ZeroLoadObserver::message_received(int dst, std::uint32_t receive, const ZeroLoadStamp& stamp) {
  // Costed by its message when the message belongs to the receiver's current step (sender and receiver
  // count from the same step start on a synchronised schedule).
  NodeModel& model = nodes_[static_cast<std::size_t>(dst)];
  if (stamp.stamped() && stamp.step == model.step) model.receive_arrivals[receive] = stamp.arrival;
}

}  // namespace meshmp
