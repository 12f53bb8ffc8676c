#pragma once
// Ctrl-C (SIGINT) or SIGTERM (`timeout`, a batch system) in the process that simulates (the user's
// program, with this runtime loaded): during a launch, the signal stops it with a report of every
// resident warp (func/interrupt.h) and the runtime writes --stats-json before exiting with status
// 128 + the signal, as a shell reports a process the signal ended; outside a launch, or at a
// second signal, the signal takes its default action.

namespace lockstep::runtime {

// Installs the handler for SIGINT and SIGTERM, each unless the program has a disposition of its
// own for it already (a program's handler wins; installing twice is harmless).
void install_interrupt_handler();

// The exit status of a run that `signal` interrupted: 128 + the signal (130 for Ctrl-C).
constexpr int interrupted_exit_status(int signal) { return 128 + signal; }

}  // namespace lockstep::runtime
