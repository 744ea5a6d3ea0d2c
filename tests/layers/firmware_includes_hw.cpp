// Must NOT compile: firmware may not see the machine (hw/). Built only by the Layers tests.
#include "firmware/node_api.h"
#include "hw/machine_config.h"

int firmware_layer_check() { return 0; }
