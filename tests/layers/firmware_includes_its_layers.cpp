// Must compile: firmware sees itself and the topology. The positive control of the Layers tests.
#include "firmware/algorithm_registry.h"
#include "firmware/node_api.h"
#include "topology/topology.h"

int firmware_layer_check() { return meshmp::Topology::parse("mesh:2x2").num_nodes(); }
