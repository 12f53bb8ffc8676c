// Memory through the driver API stand-in: device pointers (CUdeviceptr) are the runtime's device
// addresses, so every call is the runtime's copy, set or allocation on the same bytes.
#include <cstdint>
#include <vector>

#include "cuda_driver/driver_status.h"

using lockstep::driver::status;

namespace {

void* device(CUdeviceptr p) { return reinterpret_cast<void*>(static_cast<uintptr_t>(p)); }

// cuMemsetD16/D32: `count` elements of `value`, written as one copy of the pattern.
template <class T>
CUresult set_elements(CUdeviceptr dst, T value, size_t count) {
  const std::vector<T> pattern(count, value);
  return status(cudaMemcpy(device(dst), pattern.data(), count * sizeof(T), cudaMemcpyHostToDevice));
}

}  // namespace

extern "C" CUresult cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytesize) {
  if (dptr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (bytesize == 0) return CUDA_ERROR_INVALID_VALUE;  // the driver refuses empty allocations
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytesize);
  *dptr = reinterpret_cast<CUdeviceptr>(p);
  return status(e);
}

extern "C" CUresult cuMemAllocPitch_v2(CUdeviceptr* dptr, size_t* pPitch, size_t WidthInBytes, size_t Height,
                                       unsigned int /*ElementSizeBytes*/) {
  if (dptr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  void* p = nullptr;
  const cudaError_t e = cudaMallocPitch(&p, pPitch, WidthInBytes, Height);
  *dptr = reinterpret_cast<CUdeviceptr>(p);
  return status(e);
}

extern "C" CUresult cuMemAllocManaged(CUdeviceptr* dptr, size_t bytesize, unsigned int flags) {
  if (dptr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  void* p = nullptr;
  const cudaError_t e = cudaMallocManaged(&p, bytesize, flags);
  *dptr = reinterpret_cast<CUdeviceptr>(p);
  return status(e);
}

extern "C" CUresult cuMemFree_v2(CUdeviceptr dptr) { return status(cudaFree(device(dptr))); }

extern "C" CUresult cuMemAllocHost_v2(void** pp, size_t bytesize) { return status(cudaMallocHost(pp, bytesize)); }

extern "C" CUresult cuMemHostAlloc(void** pp, size_t bytesize, unsigned int Flags) {
  return status(cudaHostAlloc(pp, bytesize, Flags));
}

extern "C" CUresult cuMemFreeHost(void* p) { return status(cudaFreeHost(p)); }

extern "C" CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr* pdptr, void* p, unsigned int Flags) {
  if (pdptr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  void* d = nullptr;
  const cudaError_t e = cudaHostGetDevicePointer(&d, p, Flags);
  *pdptr = reinterpret_cast<CUdeviceptr>(d);
  return status(e);
}

extern "C" CUresult cuMemGetInfo_v2(size_t* free, size_t* total) { return status(cudaMemGetInfo(free, total)); }

extern "C" CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount) {
  return status(cudaMemcpy(device(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice));
}

extern "C" CUresult cuMemcpyDtoH_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount) {
  return status(cudaMemcpy(dstHost, device(srcDevice), ByteCount, cudaMemcpyDeviceToHost));
}

extern "C" CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) {
  return status(cudaMemcpy(device(dstDevice), device(srcDevice), ByteCount, cudaMemcpyDeviceToDevice));
}

extern "C" CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
  return status(cudaMemcpy(device(dst), device(src), ByteCount, cudaMemcpyDefault));
}

extern "C" CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount,
                                         CUstream hStream) {
  return status(cudaMemcpyAsync(device(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice, hStream));
}

extern "C" CUresult cuMemcpyDtoHAsync_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream) {
  return status(cudaMemcpyAsync(dstHost, device(srcDevice), ByteCount, cudaMemcpyDeviceToHost, hStream));
}

extern "C" CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                         CUstream hStream) {
  return status(cudaMemcpyAsync(device(dstDevice), device(srcDevice), ByteCount, cudaMemcpyDeviceToDevice, hStream));
}

extern "C" CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream) {
  return status(cudaMemcpyAsync(device(dst), device(src), ByteCount, cudaMemcpyDefault, hStream));
}

extern "C" CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N) {
  return status(cudaMemset(device(dstDevice), uc, N));
}

extern "C" CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N) {
  return set_elements(dstDevice, us, N);
}

extern "C" CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N) {
  return set_elements(dstDevice, ui, N);
}

// Streams run in order at the call, so the asynchronous sets are the synchronous ones.
extern "C" CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) {
  return status(cudaMemsetAsync(device(dstDevice), uc, N, hStream));
}

extern "C" CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream /*hStream*/) {
  return set_elements(dstDevice, ui, N);
}
