// Registration and launch entry points that nvcc-generated host code calls
// (layout and call order: shared/reference/fatbin.md).
#include "cudart/process_runtime.h"

using lockstep::Dim3;
using lockstep::runtime::LaunchConfig;
using lockstep::runtime::guarded;
using lockstep::runtime::process_runtime;
using lockstep::runtime::per_thread_stream;

namespace {

Dim3 to_dim3(dim3 d) { return Dim3{d.x, d.y, d.z}; }

}  // namespace

extern "C" void** __cudaRegisterFatBinary(void* fatCubin) {
  return process_runtime()->register_fatbin(fatCubin);
}

extern "C" void __cudaRegisterFatBinaryEnd(void** /*fatCubinHandle*/) {}

// Modules stay loaded until the process ends; the Runtime owns them.
extern "C" void __cudaUnregisterFatBinary(void** /*fatCubinHandle*/) {}

extern "C" void __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun,
                                       const char* /*deviceName*/, int /*thread_limit*/, uint3* /*tid*/,
                                       uint3* /*bid*/, dim3* /*bDim*/, dim3* /*gDim*/, int* /*wSize*/) {
  process_runtime()->register_kernel(fatCubinHandle, hostFun, deviceFun);
}

extern "C" void __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* /*deviceAddress*/,
                                  const char* deviceName, int /*ext*/, size_t size, int constant, int /*global*/) {
  process_runtime()->register_variable(fatCubinHandle, hostVar, deviceName, size, constant != 0);
}

// A __managed__ variable: nvcc's host code reaches it through *hostVarPtrAddress, which the
// runtime points at the variable's managed memory right away (runtime_managed.cpp).
extern "C" void __cudaRegisterManagedVar(void** fatCubinHandle, void** hostVarPtrAddress, char* /*deviceAddress*/,
                                         const char* deviceName, int /*ext*/, size_t size, int /*constant*/,
                                         int /*global*/) {
  guarded([&] {
    process_runtime()->register_managed_variable(fatCubinHandle, hostVarPtrAddress, deviceName, size);
    return cudaSuccess;
  });
}

// Called by nvcc's host code before its first use of a managed variable: the module loads so
// that the variables hold their initial values. Returns whether it is ready.
extern "C" char __cudaInitModule(void** fatCubinHandle) {
  char ready = 0;
  guarded([&] {
    ready = process_runtime()->init_module(fatCubinHandle) ? 1 : 0;
    return cudaSuccess;
  });
  return ready;
}

extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, void* stream) {
  process_runtime()->push_config(LaunchConfig{to_dim3(gridDim), to_dim3(blockDim), sharedMem, stream});
  return 0;
}

extern "C" cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem, void* stream) {
  LaunchConfig c;
  if (!process_runtime()->pop_config(c)) return cudaErrorInvalidConfiguration;
  *gridDim = dim3(c.grid.x, c.grid.y, c.grid.z);
  *blockDim = dim3(c.block.x, c.block.y, c.block.z);
  *sharedMem = c.shared;
  *static_cast<void**>(stream) = c.stream;
  return cudaSuccess;
}

// The kernel handle handed to the program is the host stub's address itself.
extern "C" cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* hostFun) {
  return cudaGetKernel(kernel, hostFun);
}

extern "C" cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                                        cudaStream_t stream) {
  return guarded([&] {
    if (process_runtime()->capturing(stream)) {  // a kernel node of the stream's capture (capture_api.cpp)
      lockstep::runtime::KernelNodeOp op;
      const cudaError_t e = process_runtime()->kernel_node(op, func, to_dim3(gridDim), to_dim3(blockDim), sharedMem,
                                                          args, nullptr);
      return e != cudaSuccess ? e : process_runtime()->capture(stream, std::move(op));
    }
    return process_runtime()->launch(func, to_dim3(gridDim), to_dim3(blockDim), args, sharedMem);
  });
}

extern "C" cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                          size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), gridDim, blockDim, args, sharedMem, stream);
}

extern "C" cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                               size_t sharedMem, cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, per_thread_stream(stream));
}
