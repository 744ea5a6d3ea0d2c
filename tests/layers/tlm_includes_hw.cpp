// Must NOT compile: the TLM-2.0 pieces may not see the machine (hw/). Built only by the Layers tests.
#include "tlm/node_memory.h"
#include "hw/network.h"

int tlm_layer_check() { return 0; }
