// What the nodes' network interfaces and the machine see of the network between them, at either level of
// fidelity (network.fidelity): the cycle-level router network (hw/network/network.h: routers stepped cycle by
// cycle, flits on links, credits) or the transaction-level one (hw/network/transaction_network.h: a message as one
// TLM-2.0 transaction, its links reserved along the routers' route). Both take the same topology, router
// parameters, port model and routing function, and report the same statistics; the processors, the
// firmware, the DMA engines, the verifier and the zero-load model are the same code over both.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hw/router/router_activity.h"
#include "hw/router/router_params.h"
#include "hw/router/routing.h"
#include "topology/topology.h"

namespace meshmp {

// network.fidelity: the level the network is modelled at. `Both` is a run of each (meshmp run compares
// them); a machine is built at one of the first two.
enum class NetworkFidelity { Cycle, Transaction, Both };
NetworkFidelity parse_network_fidelity(const std::string& text, const std::string& field);
std::string to_string(NetworkFidelity fidelity);  // "cycle", "tlm", "both"

// Flits one link carried over a run.
struct LinkCount {
  int src;
  int dst;     // -1 for an ejection channel
  int port;    // output port at src
  std::uint64_t flits;
};

class Interconnect {
 public:
  virtual ~Interconnect() = default;

  virtual NetworkFidelity fidelity() const = 0;
  virtual const Topology& topology() const = 0;
  virtual const RouterParams& params() const = 0;
  virtual PortModel port_model() const = 0;
  virtual RoutingFunction routing() const = 0;
  // One-port: one injection (and ejection) channel per node; all-port: one per network direction.
  int num_injection_channels() const { return port_model() == PortModel::AllPort ? topology().num_ports() : 1; }
  virtual std::uint64_t current_cycle() const = 0;

  // Flits that crossed a link between two routers (ejection channels not counted).
  virtual std::uint64_t flit_hops() const = 0;
  // Cycles head flits waited in routers beyond their zero-load pipeline, in total and by the algorithm
  // step their messages were sent in (index = step; missing steps met none).
  virtual std::uint64_t header_blocking_cycles() const = 0;
  virtual const std::vector<std::uint64_t>& header_blocking_by_step() const = 0;
  virtual std::uint64_t body_stall_cycles() const = 0;
  virtual std::vector<LinkCount> link_counts() const = 0;
  // The buffer and crossbar events of `node`'s router since it was built (the power model's activity);
  // nullptr when the network has no routers that count them (the transaction level).
  virtual std::optional<RouterActivity> router_activity(int /*node*/) const { return std::nullopt; }
  // Cycles the network's process ran (the transaction-level network: the cycles it acted at).
  virtual std::uint64_t cycles_stepped() const = 0;
  virtual int host_threads() const { return 1; }

  // Set when the run must end: a deadlock (with blocked channels) or a protocol or firmware error.
  virtual bool failed() const = 0;
  virtual const std::string& failure() const = 0;
  virtual std::uint64_t failure_cycle() const = 0;
  virtual const std::vector<std::string>& blocked_channels() const = 0;
  // Ends the run with an error; what each node's interface still holds is listed.
  virtual void report_failure(const std::string& what) = 0;
  // Called when the network fails; the owner stops the simulation.
  virtual void on_failure(std::function<void()> callback) = 0;
  // True while anything is in flight or queued for the network.
  virtual bool busy() const = 0;
  // Called when the network falls idle.
  virtual void on_idle(std::function<void()> callback) = 0;
};

}  // namespace meshmp
