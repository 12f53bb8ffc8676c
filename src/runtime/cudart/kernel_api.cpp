// Kernel entry points beyond <<<>>>: cudaLaunchKernelExC (what CUB and cudaLaunchKernelEx use)
// and the occupancy calculator.
#include "cudart/process_runtime.h"

using lockstep::runtime::guarded;
using lockstep::runtime::process_runtime;

// Launch attributes (clusters of one CTA, priorities, programmatic serialization...) are
// scheduling hints for a functional engine that runs each launch to completion in order;
// cudaLaunchAttributeCooperative makes it a cooperative launch. A capturing stream records the
// launch as a kernel node holding the attributes a node may hold.
extern "C" cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  if (config == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  if (process_runtime()->capturing(config->stream))  // a kernel node holding the launch's attributes
    return guarded([&] {
      lockstep::runtime::KernelNodeOp op;
      const lockstep::Dim3 grid{config->gridDim.x, config->gridDim.y, config->gridDim.z};
      const lockstep::Dim3 block{config->blockDim.x, config->blockDim.y, config->blockDim.z};
      if (cudaError_t e = process_runtime()->kernel_node(op, func, grid, block, config->dynamicSmemBytes, args, nullptr);
          e != cudaSuccess)
        return e;
      for (unsigned i = 0; config->attrs != nullptr && i < config->numAttrs; ++i)
        if (lockstep::runtime::kernel_node_attribute(config->attrs[i].id))
          op.set_attribute(config->attrs[i].id, config->attrs[i].val);
      return process_runtime()->capture(config->stream, std::move(op));
    });
  for (unsigned i = 0; config->attrs != nullptr && i < config->numAttrs; ++i) {
    if (config->attrs[i].id == cudaLaunchAttributeCooperative && config->attrs[i].val.cooperative != 0)
      return cudaLaunchCooperativeKernel(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                                         config->stream);
  }
  return cudaLaunchKernel(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream);
}

extern "C" cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func, void** args) {
  if (config == nullptr) return cudaLaunchKernelExC(config, func, args);
  cudaLaunchConfig_t on_thread_stream = *config;
  on_thread_stream.stream = lockstep::runtime::per_thread_stream(config->stream);
  return cudaLaunchKernelExC(&on_thread_stream, func, args);
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func,
                                                                               int blockSize, size_t dynamicSMemSize,
                                                                               unsigned int /*flags*/) {
  if (numBlocks == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return guarded([&] { return process_runtime()->occupancy(*numBlocks, func, blockSize, dynamicSMemSize); });
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func,
                                                                     int blockSize, size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                cudaOccupancyDefault);
}

extern "C" cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, const void* func,
                                                                 int numBlocks, int blockSize) {
  if (dynamicSmemSize == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return guarded([&] {
    return process_runtime()->available_dynamic_shared(*dynamicSmemSize, func, numBlocks, blockSize);
  });
}
