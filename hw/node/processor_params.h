// A node's processor parameters (t_s, rho, who pays t_s) and the timing of its transfers that the
// zero-load model needs: plain data, shared by the processor (hw/node/processor.h) and the zero-load observer
// (hw/node/zero_load_observer.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hw/router/router_params.h"
#include "hw/router/routing.h"
#include "tlm/message_transfer.h"

namespace meshmp {

struct ProcessorParams {
  std::uint64_t startup_cycles = 100;  // t_s per message
  double copy_cycles_per_byte = 0.25;  // rho
  // Who pays t_s: the processor, before it writes each send descriptor (one start-up at a time, the
  // default), or the injection channel, before the message's first flit (all-port nodes then start up on
  // every channel at once: 003 §2's n-port communication).
  bool startup_on_channel = false;
};

// What a node's firmware may ask of the machine beyond send and receive: set from the machine's fabric
// (hw/fabric/fabric.h); a router network offers neither.
struct NodeOperations {
  bool messages = true;        // messages between nodes (NodeApi::send, receive)
  bool broadcast = false;      // one message to every other node at once (NodeApi::broadcast)
  bool global_memory = false;  // a memory every node reads and writes (NodeApi::shared_read, shared_write)
};

// What the processor needs to know of the machine: to predict its zero-load cost, the router network's
// routers, port model and routing, or, on 004's shared-resource machines, the fabric's tau + m / b per
// transfer over the node's one channel; and the operations its fabric offers, with the machines that
// offer the ones it lacks (for the firmware's error: "the broadcast bus, bus:K").
struct TransferTiming {
  RouterParams router;
  PortModel port_model = PortModel::OnePort;
  RoutingFunction routing = nullptr;
  std::optional<FabricTiming> fabric;  // set on the shared-resource machines
  int concurrent_transfers = 1;        // k* of the bus or the memory
  NodeOperations operations;
  std::string broadcast_machines, global_memory_machines;
};

}  // namespace meshmp
