#pragma once
// Ctrl-C (or SIGTERM, as `timeout` sends) during a launch: the signal's handler asks the running
// launch to stop, and the run loops
// (func/wave_runner, sim/launch_watchdog) poll at their watchdog points and
// fail the launch with an "interrupted" report of every resident warp, the deadlock report's
// format. The request lives in the one piece of global mutable state lockstep has: a signal
// handler cannot reach anything else (it may only touch a lock-free atomic), and a signal is
// process-wide anyway.
#include <csignal>
#include <cstdint>
#include <string>

namespace lockstep::func {

// For a SIGINT or SIGTERM handler, `signal` being the one it caught: async-signal-safe (lock-free
// atomic operations). True when a launch is running; it stops at its next poll. False when none
// is, or one was asked already: the handler should then let the signal take its default action
// (a second Ctrl-C still kills).
bool request_interrupt(int signal = SIGINT) noexcept;

// The signal of the last request that stopped a launch (for the report's words and the exit
// status; SIGINT before any).
int interrupt_signal() noexcept;

// The detail of an interrupted launch's report, the same in both modes: "stopped by SIGINT
// (Ctrl-C); the resident warps were here", SIGTERM, or the signal's number.
std::string interrupted_detail(int signal);

// For the run loops: a relaxed load, cheap enough to call every cycle.
bool interrupt_requested() noexcept;

// Whether a launch is running and has not been asked to stop (for tests that send a signal).
bool launch_running() noexcept;

// Marks a launch as running for its lifetime, so that request_interrupt() stops it; at the end a
// request it did not see is dropped (the launch finished first).
class InterruptScope {
 public:
  InterruptScope() noexcept;
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  bool outer_;  // false for a scope inside another (a child grid): the outer one ends the launch
};

}  // namespace lockstep::func
