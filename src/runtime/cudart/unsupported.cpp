#include "cudart/unsupported.h"

#include "cudart/process_runtime.h"

namespace lockstep::runtime {

int unsupported_call(const char* function) noexcept {
  guarded([&] {
    process_runtime()->report_unsupported(function);
    return cudaErrorNotSupported;
  });
  return cudaErrorNotSupported;
}

}  // namespace lockstep::runtime
