#include "runtime/interrupt_handler.h"

#include <csignal>

#include "func/interrupt.h"

namespace lockstep::runtime {

namespace {

// Only async-signal-safe work here: the atomic of func::request_interrupt, then, when no launch
// can take the request, the default action through signal() and raise().
extern "C" void on_interrupt(int signal) {
  if (lockstep::func::request_interrupt(signal)) return;
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

void install_for(int signal) {
  struct sigaction current {};
  if (sigaction(signal, nullptr, &current) != 0) return;
  if (current.sa_handler != SIG_DFL && current.sa_handler != on_interrupt) return;  // the program's own
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(signal, &action, nullptr);
}

}  // namespace

void install_interrupt_handler() {
  install_for(SIGINT);
  install_for(SIGTERM);
}

}  // namespace lockstep::runtime
