// Paper 004 §2 (F)'s switch connected machine: Lawrie's Omega network as a TLM-2.0 fabric. See
// omega_switch.h for the wiring, routing, arbitration and timing.
#include "tlm/omega_switch.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>

namespace meshmp {

// A transfer waiting for, or holding, its links. Lives in its caller's b_transport frame.
struct OmegaSwitch::Request {
  int source = 0;
  int destination = 0;
  std::uint64_t length = 0;
  std::uint32_t tag = 0;
  std::uint32_t step = 0;
  std::uint64_t sequence = 0;
  std::uint64_t arrival = 0;        // tie-break of last resort
  std::uint64_t request_cycle = 0;  // first considered at edge request_cycle + 1
  sc_core::sc_time request_time;
  std::vector<int> links;           // stage * K + line
  bool granted = false;
  std::uint64_t grant_edge = 0;
  sc_core::sc_event granted_event;
};

namespace {

bool valid_node_count(int nodes) { return nodes >= 2 && (nodes & (nodes - 1)) == 0; }

}  // namespace

int OmegaSwitch::stage_count(int nodes) {
  if (!valid_node_count(nodes))
    throw std::invalid_argument("omega switch: the number of nodes must be a power of two >= 2 (got " +
                                std::to_string(nodes) + ")");
  int n = 0;
  while ((1 << n) < nodes) ++n;
  return n;
}

int OmegaSwitch::shuffle(int nodes, int line) {
  const int n = stage_count(nodes);
  return ((line << 1) | (line >> (n - 1))) & (nodes - 1);
}

std::vector<OmegaLink> OmegaSwitch::path(int nodes, int source, int destination) {
  const int n = stage_count(nodes);
  if (source < 0 || source >= nodes || destination < 0 || destination >= nodes)
    throw std::invalid_argument("omega switch: a path from node " + std::to_string(source) + " to node " +
                                std::to_string(destination) + " on " + std::to_string(nodes) +
                                " nodes: both must be nodes 0.." + std::to_string(nodes - 1));
  std::vector<OmegaLink> links;
  links.reserve(static_cast<std::size_t>(n));
  int line = source;
  for (int s = 0; s < n; ++s) {
    line = shuffle(nodes, line);
    const int output = (destination >> (n - 1 - s)) & 1;  // 0: upper (2j), 1: lower (2j + 1)
    line = (line & ~1) | output;
    links.push_back(OmegaLink{s, line});
  }
  return links;
}

bool OmegaSwitch::conflict_free(int nodes, const std::vector<int>& destination_of) {
  const int n = stage_count(nodes);
  std::vector<bool> used(static_cast<std::size_t>(n) * static_cast<std::size_t>(nodes), false);
  for (int source = 0; source < static_cast<int>(destination_of.size()); ++source) {
    if (destination_of[source] < 0) continue;
    for (const OmegaLink& link : path(nodes, source, destination_of[source])) {
      const std::size_t id = static_cast<std::size_t>(link.stage) * nodes + link.line;
      if (used[id]) return false;
      used[id] = true;
    }
  }
  return true;
}

int OmegaSwitch::arbitration_rank(int nodes, int last_granted, int source) {
  return (source - last_granted - 1 + 2 * nodes) % nodes;
}

std::vector<int> OmegaSwitch::pass_schedule(int nodes, const std::vector<int>& destination_of) {
  const int n = stage_count(nodes);
  if (static_cast<int>(destination_of.size()) > nodes)
    throw std::invalid_argument("omega switch: pass_schedule given more sources than nodes");
  std::vector<int> pass(destination_of.size(), -1);
  std::vector<int> remaining;
  for (int source = 0; source < static_cast<int>(destination_of.size()); ++source)
    if (destination_of[source] >= 0) remaining.push_back(source);
  int last_granted = nodes - 1;
  for (int p = 0; !remaining.empty(); ++p) {
    // Every transfer granted in the previous pass releases its links at the same edge, so each pass starts
    // with all links free and considers the rest in the arbiter's order.
    std::sort(remaining.begin(), remaining.end(), [&](int a, int b) {
      return arbitration_rank(nodes, last_granted, a) < arbitration_rank(nodes, last_granted, b);
    });
    std::vector<bool> used(static_cast<std::size_t>(n) * static_cast<std::size_t>(nodes), false);
    std::vector<int> waiting;
    int granted_last = -1;
    for (int source : remaining) {
      const std::vector<OmegaLink> links = path(nodes, source, destination_of[source]);
      bool free = true;
      for (const OmegaLink& link : links) free = free && !used[static_cast<std::size_t>(link.stage) * nodes + link.line];
      if (!free) {
        waiting.push_back(source);
        continue;
      }
      for (const OmegaLink& link : links) used[static_cast<std::size_t>(link.stage) * nodes + link.line] = true;
      pass[source] = p;
      granted_last = source;
    }
    last_granted = granted_last;  // the first candidate of a pass always finds every link free
    remaining.swap(waiting);
  }
  return pass;
}

OmegaSwitch::OmegaSwitch(sc_core::sc_module_name name, int nodes, FabricTiming timing, sc_core::sc_time cycle)
    : sc_core::sc_module(name),
      nodes_in("nodes_in"),
      nodes_out("nodes_out"),
      nodes_(nodes),
      stages_(stage_count(nodes)),
      timing_(timing),
      cycle_(cycle),
      link_free_from_(static_cast<std::size_t>(stages_) * static_cast<std::size_t>(nodes), 0),
      sender_free_from_(static_cast<std::size_t>(nodes), 0),
      last_granted_(nodes - 1) {
  if (cycle_ <= sc_core::SC_ZERO_TIME)
    throw std::invalid_argument("omega switch: the cycle must be longer than zero");
  if (timing_.bytes_per_cycle == 0)
    throw std::invalid_argument("omega switch: timing.bytes_per_cycle must be at least 1");
  nodes_in.register_b_transport(this, &OmegaSwitch::b_transport);
  nodes_in.register_get_direct_mem_ptr(this, &OmegaSwitch::get_direct_mem_ptr);
  SC_HAS_PROCESS(OmegaSwitch);
  SC_THREAD(arbiter);
}

void OmegaSwitch::end_of_elaboration() {
  const int in = static_cast<int>(nodes_in.size());
  const int out = static_cast<int>(nodes_out.size());
  if (in != nodes_ || out != nodes_) {
    const std::string message = std::string(name()) + ": an omega switch of " + std::to_string(nodes_) +
                                " nodes needs " + std::to_string(nodes_) +
                                " bindings of nodes_in and of nodes_out, one per node in node order; it has " +
                                std::to_string(in) + " and " + std::to_string(out);
    SC_REPORT_ERROR("meshmp/omega_switch", message.c_str());
  }
}

bool OmegaSwitch::get_direct_mem_ptr(int, tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.allow_none();
  return false;
}

std::uint64_t OmegaSwitch::cycle_of(const sc_core::sc_time& time) const {
  return static_cast<std::uint64_t>(time.value() / cycle_.value());
}

sc_core::sc_time OmegaSwitch::edge_time(std::uint64_t edge) const {
  return sc_core::sc_time::from_value(edge * cycle_.value());
}

void OmegaSwitch::refuse(tlm::tlm_generic_payload& trans, tlm::tlm_response_status status,
                         MessageTransfer* transfer, const std::string& why) {
  trans.set_response_status(status);
  if (transfer) transfer->error = std::string(name()) + ": " + why;
  ++statistics_.refused;
}

MessageTransfer* OmegaSwitch::checked_transfer(int index, tlm::tlm_generic_payload& trans) {
  MessageTransfer* transfer = nullptr;
  trans.get_extension(transfer);
  const std::string node = "node " + std::to_string(index);
  if (!transfer) {
    refuse(trans, tlm::TLM_GENERIC_ERROR_RESPONSE, nullptr, "");
    return nullptr;
  }
  transfer->error.clear();
  if (!trans.is_write()) {
    refuse(trans, tlm::TLM_COMMAND_ERROR_RESPONSE, transfer,
           "a transfer from " + node + " is not a write command (a message is written to its receiver)");
    return nullptr;
  }
  if (trans.get_byte_enable_ptr() || trans.get_byte_enable_length() != 0) {
    refuse(trans, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, transfer,
           "a transfer from " + node + " has byte enables (a message moves whole)");
    return nullptr;
  }
  if (trans.get_streaming_width() != trans.get_data_length()) {
    refuse(trans, tlm::TLM_BURST_ERROR_RESPONSE, transfer,
           "a transfer from " + node + " has streaming width " + std::to_string(trans.get_streaming_width()) +
               ", not its length " + std::to_string(trans.get_data_length()));
    return nullptr;
  }
  if (trans.get_address() != 0) {
    refuse(trans, tlm::TLM_ADDRESS_ERROR_RESPONSE, transfer,
           "a transfer from " + node + " has address " + std::to_string(trans.get_address()) +
               ", not 0 (the receiver decides where the bytes land)");
    return nullptr;
  }
  if (transfer->source != index) {
    refuse(trans, tlm::TLM_GENERIC_ERROR_RESPONSE, transfer,
           "a transfer arriving on " + node + "'s binding names source " + std::to_string(transfer->source));
    return nullptr;
  }
  if (transfer->destinations.size() != 1) {
    std::string listed;
    for (int d : transfer->destinations) listed += (listed.empty() ? "" : ", ") + std::to_string(d);
    refuse(trans, tlm::TLM_GENERIC_ERROR_RESPONSE, transfer,
           "a transfer from " + node + " names " + std::to_string(transfer->destinations.size()) +
               " destinations (" + listed +
               "): the omega switch has no hardware broadcast, a transfer names exactly one destination");
    return nullptr;
  }
  const int destination = transfer->destinations[0];
  if (destination < 0 || destination >= nodes_) {
    refuse(trans, tlm::TLM_ADDRESS_ERROR_RESPONSE, transfer,
           "a transfer from " + node + " names destination " + std::to_string(destination) +
               ", not a node 0.." + std::to_string(nodes_ - 1));
    return nullptr;
  }
  return transfer;
}

void OmegaSwitch::b_transport(int index, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  if (delay > sc_core::SC_ZERO_TIME) wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  MessageTransfer* transfer = checked_transfer(index, trans);
  if (!transfer) return;
  const int destination = transfer->destinations[0];

  Request request;
  request.source = index;
  request.destination = destination;
  request.length = trans.get_data_length();
  request.tag = transfer->tag;
  request.step = transfer->step;
  request.sequence = transfer->sequence;
  request.arrival = arrivals_++;
  request.request_time = sc_core::sc_time_stamp();
  request.request_cycle = cycle_of(request.request_time);
  for (const OmegaLink& link : path(nodes_, index, destination)) request.links.push_back(link.stage * nodes_ + link.line);
  pending_.push_back(&request);
  request_event_.notify(sc_core::SC_ZERO_TIME);
  while (!request.granted) wait(request.granted_event);

  const sc_core::sc_time delivery = edge_time(request.grant_edge + timing_.transfer_cycles(request.length));
  if (delivery > sc_core::sc_time_stamp()) wait(delivery - sc_core::sc_time_stamp());

  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time receiver_delay = sc_core::SC_ZERO_TIME;
  nodes_out[destination]->b_transport(trans, receiver_delay);
  if (receiver_delay > sc_core::SC_ZERO_TIME) wait(receiver_delay);
  if (trans.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    transfer->error = std::string(name()) + ": receiving node " + std::to_string(destination) +
                      " did not answer the delivery";
  }
}

void OmegaSwitch::arbiter() {
  for (;;) {
    if (pending_.empty()) {
      wait(request_event_);
      continue;
    }
    // The first edge at which some pending request could be granted: nothing is granted before it (links
    // are taken only at arbitrations), so the edges in between need no arbitration.
    const std::uint64_t now_edge = (sc_core::sc_time_stamp().value() + cycle_.value() - 1) / cycle_.value();
    std::uint64_t next = std::numeric_limits<std::uint64_t>::max();
    for (const Request* r : pending_) {
      std::uint64_t e = std::max({r->request_cycle + 1, last_edge_ + 1, now_edge, sender_free_from_[r->source]});
      for (int link : r->links) e = std::max(e, link_free_from_[link]);
      next = std::min(next, e);
    }
    const sc_core::sc_time at = edge_time(next);
    if (at > sc_core::sc_time_stamp()) {
      wait(at - sc_core::sc_time_stamp(), request_event_);  // a new request may come first: look again
      continue;
    }
    arbitrate(next);
  }
}

void OmegaSwitch::arbitrate(std::uint64_t edge) {
  last_edge_ = edge;
  std::vector<Request*> candidates;
  std::vector<Request*> later;  // made during this edge's own cycle or after: the next edges'
  for (Request* r : pending_) (r->request_cycle < edge ? candidates : later).push_back(r);
  const int last = last_granted_;
  const int k = nodes_;
  std::sort(candidates.begin(), candidates.end(), [last, k](const Request* a, const Request* b) {
    return std::make_tuple(arbitration_rank(k, last, a->source), a->request_time, a->destination, a->tag,
                           a->sequence, a->arrival) <
           std::make_tuple(arbitration_rank(k, last, b->source), b->request_time, b->destination, b->tag,
                           b->sequence, b->arrival);
  });

  // Transfers still holding their links at this edge (delivered at a later edge, or granted here).
  active_.erase(std::remove_if(active_.begin(), active_.end(), [edge](const auto& a) { return a.second <= edge; }),
                active_.end());
  bool granted_any = false;
  for (Request* r : candidates) {
    bool free = sender_free_from_[r->source] <= edge;
    for (int link : r->links) free = free && link_free_from_[link] <= edge;
    if (!free) {
      later.push_back(r);
      continue;
    }
    const std::uint64_t hold = timing_.transfer_cycles(r->length);
    for (int link : r->links) link_free_from_[link] = edge + hold + 1;
    sender_free_from_[r->source] = edge + hold + 1;
    r->granted = true;
    r->grant_edge = edge;
    r->granted_event.notify(sc_core::SC_ZERO_TIME);
    active_.emplace_back(edge, edge + hold);
    granted_any = true;
    last_granted_ = r->source;

    const std::uint64_t waited = edge - (r->request_cycle + 1);
    OmegaStepStatistics& step = statistics_.steps[r->step];
    for (auto* counts : {&statistics_.transfers, &step.transfers}) ++*counts;
    for (auto* counts : {&statistics_.bytes, &step.bytes}) *counts += r->length;
    if (waited > 0)
      for (auto* counts : {&statistics_.conflicting_transfers, &step.conflicting_transfers}) ++*counts;
    for (auto* counts : {&statistics_.wait_cycles, &step.wait_cycles}) *counts += waited;
    auto last_grant = step_last_grant_.find(r->step);
    if (last_grant == step_last_grant_.end() || last_grant->second != edge) {
      ++step.passes;
      step_last_grant_[r->step] = edge;
    }
  }
  if (granted_any) {
    ++statistics_.passes;
    statistics_.peak_concurrent = std::max<std::uint64_t>(statistics_.peak_concurrent, active_.size());
  }
  // Keep the pending list in arrival order (the arbiter sorts its candidates anyway).
  std::sort(later.begin(), later.end(), [](const Request* a, const Request* b) { return a->arrival < b->arrival; });
  pending_.swap(later);
}

}  // namespace meshmp
