// A request from outside the simulation to stop it: SIGINT or SIGTERM. The command line's signal handler
// records the signal (async-signal-safe); the network's clock checks it every cycle and ends the run, so a
// run stops at the cycle the signal arrived and says so, and the commands that run children stop them.
#pragma once

namespace meshmp {

// Records `signal_number` (the first one wins). Async-signal-safe.
void request_stop(int signal_number) noexcept;
// The signal that asked the program to stop, 0 while none has.
int stop_signal() noexcept;
// "SIGINT", "SIGTERM" or "signal N".
const char* signal_name(int signal_number) noexcept;

}  // namespace meshmp
