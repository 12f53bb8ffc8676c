// Kernel handles and parameter layout. CUDA 12 lets a program ask for a kernel's own handle
// (cudaKernel_t, cudaFunction_t) and hand it, cast to const void*, to every API that takes a
// kernel (launches, attributes, occupancy). Here a kernel's handle is its host stub's address,
// so those APIs take the handle as they take the stub.
#include <vector>

#include "cudart/process_runtime.h"

using lockstep::runtime::guarded;
using lockstep::runtime::process_runtime;

namespace {

// The handle of the kernel whose host stub is `stub`, or CUDA's error for an unknown one.
template <class Handle>
cudaError_t kernel_handle(Handle* out, const void* stub) {
  if (out == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  if (!process_runtime()->knows_kernel(stub)) return process_runtime()->record(cudaErrorInvalidDeviceFunction);
  *out = reinterpret_cast<Handle>(const_cast<void*>(stub));
  return cudaSuccess;
}

}  // namespace

extern "C" cudaError_t cudaGetKernel(cudaKernel_t* kernelPtr, const void* entryFuncAddr) {
  return kernel_handle(kernelPtr, entryFuncAddr);
}

extern "C" cudaError_t cudaGetFuncBySymbol(cudaFunction_t* functionPtr, const void* symbolPtr) {
  return kernel_handle(functionPtr, symbolPtr);
}

extern "C" cudaError_t cudaFuncGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset,
                                            size_t* paramSize) {
  if (paramOffset == nullptr || paramSize == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return guarded([&] { return process_runtime()->kernel_parameter(func, paramIndex, *paramOffset, *paramSize); });
}

// One device: its attribute is the kernel's.
extern "C" cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel, cudaFuncAttribute attr, int value,
                                                       int device) {
  if (device != 0) return process_runtime()->record(cudaErrorInvalidDevice);
  return guarded([&] { return process_runtime()->set_kernel_attribute(kernel, attr, value); });
}

// For the driver API stand-in (src/runtime/cuda_driver), which reaches the runtime only through
// what this library exports: cuLaunchKernel's packed `extra` buffer as one argument pointer per
// parameter (Runtime::packed_arguments). *count gets the number of parameters; at most `capacity`
// pointers are written.
extern "C" cudaError_t __lockstep_packed_arguments(const void* func, void** extra, void** args, size_t capacity,
                                                   size_t* count) noexcept {
  return guarded([&] {
    std::vector<void*> unpacked;
    const cudaError_t e = process_runtime()->packed_arguments(func, extra, unpacked);
    if (e != cudaSuccess) return e;
    *count = unpacked.size();
    for (size_t i = 0; i < unpacked.size() && i < capacity; ++i) args[i] = unpacked[i];
    return cudaSuccess;
  });
}
