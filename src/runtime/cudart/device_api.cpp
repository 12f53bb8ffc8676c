// Device, version and function-attribute entry points: one simulated device (DevicePreset).
#include "cudart/process_runtime.h"
#include "runtime/device_attributes.h"
#include "runtime/device_preset.h"

using lockstep::runtime::process_runtime;

extern "C" cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

extern "C" cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess : process_runtime()->record(cudaErrorInvalidDevice);
}

extern "C" cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

// The flags only steer how a real host thread waits for the GPU; they are checked and kept, and
// cudaGetDeviceFlags reports them back.
extern "C" cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  const unsigned known = cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax | cudaDeviceSyncMemops;
  const unsigned schedule = flags & cudaDeviceScheduleMask;
  const bool one_schedule = schedule == cudaDeviceScheduleAuto || schedule == cudaDeviceScheduleSpin ||
                            schedule == cudaDeviceScheduleYield || schedule == cudaDeviceScheduleBlockingSync;
  if ((flags & ~known) != 0 || !one_schedule) return process_runtime()->record(cudaErrorInvalidValue);
  process_runtime()->set_device_flags(flags);
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  if (flags == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  *flags = process_runtime()->device_flags();
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  if (device != 0) return process_runtime()->record(cudaErrorInvalidDevice);
  lockstep::runtime::fill_properties(process_runtime()->preset(), process_runtime()->warp_size(), *prop);
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  if (device != 0) return process_runtime()->record(cudaErrorInvalidDevice);
  const std::optional<int> v =
      lockstep::runtime::device_attribute(process_runtime()->preset(), process_runtime()->warp_size(), attr);
  if (!v) return process_runtime()->record(cudaErrorInvalidValue);
  *value = *v;
  return cudaSuccess;
}

// The linear 1D texture limit is in elements whatever their format, as the device reports it.
extern "C" cudaError_t cudaDeviceGetTexture1DLinearMaxWidth(size_t* maxWidthInElements,
                                                            const cudaChannelFormatDesc* fmtDesc, int device) {
  if (maxWidthInElements == nullptr || fmtDesc == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  int width = 0;
  if (cudaError_t e = cudaDeviceGetAttribute(&width, cudaDevAttrMaxTexture1DLinearWidth, device); e != cudaSuccess)
    return e;
  *maxWidthInElements = static_cast<size_t>(width);
  return cudaSuccess;
}

extern "C" cudaError_t cudaDriverGetVersion(int* version) {
  if (version == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  *version = lockstep::runtime::kCudaVersion;
  return cudaSuccess;
}

extern "C" cudaError_t cudaRuntimeGetVersion(int* version) { return cudaDriverGetVersion(version); }

// Every kernel runs to completion at launch, so synchronizing only reports the sticky error.
extern "C" cudaError_t cudaDeviceSynchronize() {
  if (cudaError_t e = process_runtime()->check_capture_allows("cudaDeviceSynchronize"); e != cudaSuccess) return e;
  return process_runtime()->sticky();
}

extern "C" cudaError_t cudaDeviceReset() {
  process_runtime()->reset();
  return cudaSuccess;
}

extern "C" cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  if (attr == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return lockstep::runtime::guarded([&] { return process_runtime()->kernel_attributes(func, *attr); });
}

// The dynamic shared memory limit is enforced at launch; the other attributes are hints.
extern "C" cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  return lockstep::runtime::guarded([&] { return process_runtime()->set_kernel_attribute(func, attr, value); });
}

extern "C" cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache /*cacheConfig*/) {
  return process_runtime()->knows_kernel(func) ? cudaSuccess : process_runtime()->record(cudaErrorInvalidDeviceFunction);
}

extern "C" cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache /*cacheConfig*/) { return cudaSuccess; }

// Not a cudaError_t function: builds the descriptor a texture/surface API would take.
extern "C" cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}
