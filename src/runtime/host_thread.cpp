#include "runtime/host_thread.h"

#include <atomic>

namespace lockstep::runtime {

uint64_t current_host_thread() {
  // The one process-wide counter the numbering needs; a thread reads it once, on its first call.
  static std::atomic<uint64_t> next{1};
  thread_local const uint64_t mine = next.fetch_add(1, std::memory_order_relaxed);
  return mine;
}

}  // namespace lockstep::runtime
