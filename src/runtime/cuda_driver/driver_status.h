#pragma once
// Shared by the driver API stand-in's entry points. The stand-in is a thin layer over the
// process's runtime (libcudart.so.13, lockstep's own): each driver call is the runtime call that
// does the same. CUresult and cudaError_t share their codes for everything these calls return
// (CUDA_ERROR_INVALID_VALUE = cudaErrorInvalidValue = 1, ... CUDA_ERROR_NOT_SUPPORTED = 801).
#include <cuda.h>
#include <cuda_runtime_api.h>

namespace lockstep::driver {

inline CUresult status(cudaError_t e) { return static_cast<CUresult>(e); }

// The one context of the one device: every context handle the stand-in gives out. The runtime
// behind it has a single device and a single context, which every host thread shares.
inline CUcontext device_context() {
  static char context;  // only its address is used
  return reinterpret_cast<CUcontext>(&context);
}

inline bool valid_device(CUdevice device) { return device == 0; }

}  // namespace lockstep::driver
