#pragma once
// Ctrl-C in the process that simulates (the user's program, with this runtime loaded): during a
// launch, SIGINT stops it with a report of every resident warp (func/interrupt.h) and the runtime
// writes --stats-json before exiting with status 130; outside a launch, or at a second Ctrl-C, the
// signal takes its default action.

namespace lockstep::runtime {

// Installs the handler, unless the program has a SIGINT disposition of its own already (a
// program's handler wins; installing twice is harmless).
void install_interrupt_handler();

// The exit status of an interrupted run: 128 + SIGINT, as a shell reports a Ctrl-C.
inline constexpr int kInterruptedExitStatus = 130;

}  // namespace lockstep::runtime
