#include "cudart/process_runtime.h"

namespace lockstep::runtime {

RuntimeHandle process_runtime() {
  // Built at the first registration (before main), destroyed after the program's atexit
  // handlers, which is when the summary is printed. The lock is built first, so it outlives
  // the runtime.
  static std::recursive_mutex mutex;
  static Runtime runtime(options_from_environment());
  return RuntimeHandle(runtime, mutex);
}

}  // namespace lockstep::runtime
