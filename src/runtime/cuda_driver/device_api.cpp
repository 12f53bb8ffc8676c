// Initialisation, devices, contexts and error strings of the driver API stand-in. There is one
// device and one context (driver_status.h): creating, retaining, pushing or setting a context
// hands out that context, and the current context is always it.
#include <cstring>

#include "cuda_driver/driver_status.h"

using lockstep::driver::device_context;
using lockstep::driver::status;
using lockstep::driver::valid_device;

extern "C" CUresult cuInit(unsigned int Flags) { return Flags == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }

extern "C" CUresult cuDriverGetVersion(int* driverVersion) { return status(cudaDriverGetVersion(driverVersion)); }

extern "C" CUresult cuDeviceGetCount(int* count) { return status(cudaGetDeviceCount(count)); }

extern "C" CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

extern "C" CUresult cuDeviceGetName(char* name, int len, CUdevice dev) {
  if (name == nullptr || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  cudaDeviceProp prop{};
  if (cudaError_t e = cudaGetDeviceProperties(&prop, dev); e != cudaSuccess) return status(e);
  std::strncpy(name, prop.name, static_cast<size_t>(len) - 1);
  name[len - 1] = '\0';
  return CUDA_SUCCESS;
}

// CUdevice_attribute and cudaDeviceAttr number the attributes alike.
extern "C" CUresult cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev) {
  return status(cudaDeviceGetAttribute(pi, static_cast<cudaDeviceAttr>(attrib), dev));
}

extern "C" CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice dev) {
  if (bytes == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaDeviceProp prop{};
  if (cudaError_t e = cudaGetDeviceProperties(&prop, dev); e != cudaSuccess) return status(e);
  *bytes = prop.totalGlobalMem;
  return CUDA_SUCCESS;
}

extern "C" CUresult cuDeviceComputeCapability(int* major, int* minor, CUdevice dev) {
  if (major == nullptr || minor == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (cudaError_t e = cudaDeviceGetAttribute(major, cudaDevAttrComputeCapabilityMajor, dev); e != cudaSuccess)
    return status(e);
  return status(cudaDeviceGetAttribute(minor, cudaDevAttrComputeCapabilityMinor, dev));
}

extern "C" CUresult cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice dev) {
  if (uuid == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaDeviceProp prop{};
  if (cudaError_t e = cudaGetDeviceProperties(&prop, dev); e != cudaSuccess) return status(e);
  static_assert(sizeof(uuid->bytes) == sizeof(prop.uuid.bytes));
  std::memcpy(uuid->bytes, prop.uuid.bytes, sizeof uuid->bytes);
  return CUDA_SUCCESS;
}

// ---- contexts: the one context ----

namespace {

CUresult hand_out_context(CUcontext* context, CUdevice dev) {
  if (context == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  *context = device_context();
  return CUDA_SUCCESS;
}

CUresult known_context(CUcontext context) {
  return context == device_context() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

}  // namespace

extern "C" CUresult cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) { return hand_out_context(pctx, dev); }

extern "C" CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
  return valid_device(dev) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

extern "C" CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev) {
  return valid_device(dev) ? status(cudaDeviceReset()) : CUDA_ERROR_INVALID_DEVICE;
}

extern "C" CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int* flags, int* active) {
  if (flags == nullptr || active == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  if (cudaError_t e = cudaGetDeviceFlags(flags); e != cudaSuccess) return status(e);
  *flags &= ~unsigned{cudaDeviceMapHost};  // the runtime's flag, not a context flag
  *active = 1;
  return CUDA_SUCCESS;
}

extern "C" CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) {
  return valid_device(dev) ? status(cudaSetDeviceFlags(flags)) : CUDA_ERROR_INVALID_DEVICE;
}

extern "C" CUresult cuCtxCreate_v2(CUcontext* pctx, unsigned int /*flags*/, CUdevice dev) {
  return hand_out_context(pctx, dev);
}

extern "C" CUresult cuCtxCreate_v4(CUcontext* pctx, CUctxCreateParams* /*ctxCreateParams*/, unsigned int flags,
                                   CUdevice dev) {
  return cuCtxCreate_v2(pctx, flags, dev);
}

extern "C" CUresult cuCtxDestroy_v2(CUcontext ctx) { return known_context(ctx); }

extern "C" CUresult cuCtxGetCurrent(CUcontext* pctx) {
  if (pctx == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *pctx = device_context();
  return CUDA_SUCCESS;
}

extern "C" CUresult cuCtxSetCurrent(CUcontext ctx) { return ctx == nullptr ? CUDA_SUCCESS : known_context(ctx); }

extern "C" CUresult cuCtxPushCurrent_v2(CUcontext ctx) { return known_context(ctx); }

extern "C" CUresult cuCtxPopCurrent_v2(CUcontext* pctx) {
  if (pctx != nullptr) *pctx = device_context();
  return CUDA_SUCCESS;
}

extern "C" CUresult cuCtxGetDevice(CUdevice* device) {
  if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *device = 0;
  return CUDA_SUCCESS;
}

extern "C" CUresult cuCtxSynchronize() { return status(cudaDeviceSynchronize()); }

extern "C" CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int* version) {
  if (version == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (ctx != nullptr && ctx != device_context()) return CUDA_ERROR_INVALID_CONTEXT;
  *version = 3020;  // what every context created by a current driver reports
  return CUDA_SUCCESS;
}

extern "C" CUresult cuCtxSetCacheConfig(CUfunc_cache /*config*/) { return CUDA_SUCCESS; }

extern "C" CUresult cuCtxGetLimit(size_t* pvalue, CUlimit limit) {
  return status(cudaDeviceGetLimit(pvalue, static_cast<cudaLimit>(limit)));
}

extern "C" CUresult cuCtxSetLimit(CUlimit limit, size_t value) {
  return status(cudaDeviceSetLimit(static_cast<cudaLimit>(limit), value));
}

// ---- errors ----

namespace {

struct DriverError {
  int code;
  const char* name;
};
constexpr DriverError kDriverErrors[] = {
#include "driver_error_names.inc"
};

}  // namespace

// Driver names (CUDA_ERROR_INVALID_VALUE); CUDA_ERROR_INVALID_VALUE for a code CUresult lacks.
extern "C" CUresult cuGetErrorName(CUresult error, const char** pStr) {
  if (pStr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  for (const DriverError& e : kDriverErrors) {
    if (e.code == static_cast<int>(error)) {
      *pStr = e.name;
      return CUDA_SUCCESS;
    }
  }
  *pStr = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

// The runtime's description of the same code.
extern "C" CUresult cuGetErrorString(CUresult error, const char** pStr) {
  if (pStr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *pStr = cudaGetErrorString(static_cast<cudaError_t>(error));
  return CUDA_SUCCESS;
}
