#include "cudart/process_runtime.h"

namespace lockstep::runtime {

Runtime& process_runtime() {
  // Built at the first registration (before main), destroyed after the program's atexit
  // handlers, which is when the summary is printed.
  static Runtime runtime(options_from_environment());
  return runtime;
}

}  // namespace lockstep::runtime
