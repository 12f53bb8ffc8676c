#include "runtime/interrupt_handler.h"

#include <csignal>

#include "func/interrupt.h"

namespace lockstep::runtime {

namespace {

// Only async-signal-safe work here: the atomic of func::request_interrupt, then, when no launch
// can take the request, the default action through signal() and raise().
extern "C" void on_sigint(int) {
  if (lockstep::func::request_interrupt()) return;
  std::signal(SIGINT, SIG_DFL);
  std::raise(SIGINT);
}

}  // namespace

void install_interrupt_handler() {
  struct sigaction current {};
  if (sigaction(SIGINT, nullptr, &current) != 0) return;
  if (current.sa_handler != SIG_DFL && current.sa_handler != on_sigint) return;  // the program's own
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
}

}  // namespace lockstep::runtime
