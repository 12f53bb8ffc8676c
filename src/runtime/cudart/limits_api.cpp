// Device limits and the small device-wide queries and settings that have one obvious answer for
// a single simulated device.
#include "cudart/process_runtime.h"

using lockstep::runtime::guarded;
using lockstep::runtime::process_runtime;

extern "C" cudaError_t cudaDeviceGetLimit(size_t* pValue, cudaLimit limit) {
  if (pValue == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return guarded([&] { return process_runtime()->record(process_runtime()->limit(limit, *pValue)); });
}

extern "C" cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  return guarded([&] { return process_runtime()->set_limit(limit, value); });
}

// The profiler markers only delimit what a profiler records; lockstep records every launch.
extern "C" cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
extern "C" cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

extern "C" cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
  if (device == nullptr || prop == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  *device = 0;  // the only device
  return cudaSuccess;
}

extern "C" cudaError_t cudaInitDevice(int device, unsigned int /*deviceFlags*/, unsigned int /*flags*/) {
  return device == 0 ? cudaSuccess : process_runtime()->record(cudaErrorInvalidDevice);
}

extern "C" cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config) {
  if (config == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  *config = cudaFuncCachePreferNone;
  return cudaSuccess;
}

namespace {

bool valid_bank_config(cudaSharedMemConfig config) {
  return config >= cudaSharedMemBankSizeDefault && config <= cudaSharedMemBankSizeEightByte;
}

}  // namespace

// Shared memory banks are four bytes wide on every GPU since Maxwell; CUDA accepts and ignores
// the setting there, and so does lockstep.
extern "C" cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config) {
  if (config == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  *config = cudaSharedMemBankSizeFourByte;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  return valid_bank_config(config) ? cudaSuccess : process_runtime()->record(cudaErrorInvalidValue);
}

extern "C" cudaError_t cudaFuncSetSharedMemConfig(const void* func, cudaSharedMemConfig config) {
  if (!process_runtime()->knows_kernel(func)) return process_runtime()->record(cudaErrorInvalidDeviceFunction);
  return valid_bank_config(config) ? cudaSuccess : process_runtime()->record(cudaErrorInvalidValue);
}

// One device: it has no peers.
extern "C" cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  if (canAccessPeer == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  if (device != 0 || peerDevice != 0) return process_runtime()->record(cudaErrorInvalidDevice);
  *canAccessPeer = 0;
  return cudaSuccess;
}

extern "C" cudaError_t cudaFuncGetName(const char** name, const void* func) {
  if (name == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  const char* found = process_runtime()->kernel_name(func);
  if (found == nullptr) return process_runtime()->record(cudaErrorInvalidDeviceFunction);
  *name = found;
  return cudaSuccess;
}
