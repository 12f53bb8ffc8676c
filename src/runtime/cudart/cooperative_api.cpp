// Cooperative launches: cudaLaunchCooperativeKernel and its per-thread-stream spelling. Every
// block of the grid runs resident, so cooperative_groups::this_grid().sync() works.
#include "cudart/process_runtime.h"

using lockstep::runtime::guarded;
using lockstep::runtime::process_runtime;
using lockstep::runtime::per_thread_stream;

extern "C" cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                                   size_t sharedMem, cudaStream_t stream) {
  if (process_runtime()->capturing(stream)) {  // a kernel node with the cooperative attribute (kernel_api.cpp)
    cudaLaunchAttribute cooperative{};
    cooperative.id = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = gridDim;
    config.blockDim = blockDim;
    config.dynamicSmemBytes = sharedMem;
    config.stream = stream;
    config.attrs = &cooperative;
    config.numAttrs = 1;
    return cudaLaunchKernelExC(&config, func, args);
  }
  return guarded([&] {
    return process_runtime()->launch_cooperative(func, lockstep::Dim3{gridDim.x, gridDim.y, gridDim.z},
                                                lockstep::Dim3{blockDim.x, blockDim.y, blockDim.z}, args,
                                                sharedMem);
  });
}

extern "C" cudaError_t cudaLaunchCooperativeKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                                        size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem, per_thread_stream(stream));
}
