#include "func/interrupt.h"

#include <atomic>
#include <csignal>

namespace lockstep::func {

namespace {

enum State : uint8_t { kIdle, kRunning, kRequested };

// The one global mutable state of lockstep (see interrupt.h): what a signal handler may touch.
std::atomic<uint8_t> g_state{kIdle};
std::atomic<int> g_signal{SIGINT};
static_assert(std::atomic<uint8_t>::is_always_lock_free, "a signal handler may only touch lock-free atomics");
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may only touch lock-free atomics");

}  // namespace

bool request_interrupt(int signal) noexcept {
  // The signal first, so that a run loop that sees the request reads it. A request that finds no
  // launch leaves it behind harmlessly: the handler's default action ends the process.
  g_signal.store(signal);
  uint8_t running = kRunning;
  return g_state.compare_exchange_strong(running, kRequested);
}

int interrupt_signal() noexcept { return g_signal.load(); }

std::string interrupted_detail(int signal) {
  const std::string by = signal == SIGINT    ? "SIGINT (Ctrl-C)"
                         : signal == SIGTERM ? "SIGTERM"
                                             : "signal " + std::to_string(signal);
  return "stopped by " + by + "; the resident warps were here";
}

bool interrupt_requested() noexcept { return g_state.load(std::memory_order_relaxed) == kRequested; }

bool launch_running() noexcept { return g_state.load() == kRunning; }

InterruptScope::InterruptScope() noexcept {
  uint8_t idle = kIdle;
  outer_ = g_state.compare_exchange_strong(idle, kRunning);
}

InterruptScope::~InterruptScope() {
  if (outer_) g_state.store(kIdle);
}

}  // namespace lockstep::func
