#include "func/interrupt.h"

#include <atomic>

namespace lockstep::func {

namespace {

enum State : uint8_t { kIdle, kRunning, kRequested };

// The one global mutable state of lockstep (see interrupt.h): what a SIGINT handler may touch.
std::atomic<uint8_t> g_state{kIdle};
static_assert(std::atomic<uint8_t>::is_always_lock_free, "a signal handler may only touch lock-free atomics");

}  // namespace

bool request_interrupt() noexcept {
  uint8_t running = kRunning;
  return g_state.compare_exchange_strong(running, kRequested);
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
