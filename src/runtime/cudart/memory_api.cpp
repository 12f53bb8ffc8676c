// Memory entry points. Device pointers are lockstep device addresses; page-locked host memory
// is in host_memory_api.cpp.
#include "cudart/process_runtime.h"

using lockstep::runtime::guarded;
using lockstep::runtime::process_runtime;

extern "C" cudaError_t cudaMalloc(void** devPtr, size_t size) {
  if (cudaError_t e = process_runtime()->check_capture_allows("cudaMalloc"); e != cudaSuccess) return e;
  return guarded([&] { return process_runtime()->malloc(devPtr, size); });
}

extern "C" cudaError_t cudaFree(void* devPtr) {
  if (cudaError_t e = process_runtime()->check_capture_allows("cudaFree"); e != cudaSuccess) return e;
  return guarded([&] { return process_runtime()->free(devPtr); });
}

extern "C" cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  if (cudaError_t e = process_runtime()->check_capture_allows("cudaMemcpy"); e != cudaSuccess) return e;
  return guarded([&] { return process_runtime()->memcpy(dst, src, count, kind); });
}

extern "C" cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                       cudaStream_t stream) {
  return guarded([&] {
    if (process_runtime()->capturing(stream))  // a memcpy node of the stream's capture (capture_api.cpp)
      return process_runtime()->capture(stream, lockstep::runtime::memcpy_1d_op(dst, src, count, kind));
    return process_runtime()->memcpy(dst, src, count, kind);
  });
}

extern "C" cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
  if (cudaError_t e = process_runtime()->check_capture_allows("cudaMemset"); e != cudaSuccess) return e;
  return guarded([&] { return process_runtime()->memset(devPtr, value, count); });
}

extern "C" cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return guarded([&] {
    if (process_runtime()->capturing(stream))  // a memset node of the stream's capture (capture_api.cpp)
      return process_runtime()->capture(
          stream, lockstep::runtime::MemsetNodeOp{{devPtr, 0, static_cast<unsigned>(value) & 0xffu, 1, count, 1}});
    return process_runtime()->memset(devPtr, value, count);
  });
}

extern "C" cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                                          cudaMemcpyKind kind) {
  return guarded([&] { return process_runtime()->copy_to_symbol(symbol, src, count, offset, kind); });
}

extern "C" cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                            cudaMemcpyKind kind) {
  return guarded([&] { return process_runtime()->copy_from_symbol(dst, symbol, count, offset, kind); });
}

extern "C" cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                               cudaMemcpyKind kind, cudaStream_t stream) {
  if (process_runtime()->capturing(stream))  // a memcpy node to the symbol's address (capture_api.cpp)
    return guarded([&] {
      uint64_t address = 0;
      if (cudaError_t e = process_runtime()->symbol_range(symbol, offset, count, address); e != cudaSuccess) return e;
      void* dst = reinterpret_cast<void*>(address);
      return process_runtime()->capture(stream, lockstep::runtime::memcpy_1d_op(dst, src, count, kind));
    });
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

extern "C" cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset,
                                                 cudaMemcpyKind kind, cudaStream_t stream) {
  if (process_runtime()->capturing(stream))  // a memcpy node from the symbol's address (capture_api.cpp)
    return guarded([&] {
      uint64_t address = 0;
      if (cudaError_t e = process_runtime()->symbol_range(symbol, offset, count, address); e != cudaSuccess) return e;
      const void* src = reinterpret_cast<const void*>(address);
      return process_runtime()->capture(stream, lockstep::runtime::memcpy_1d_op(dst, src, count, kind));
    });
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

extern "C" cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol) {
  return guarded([&] {
    uint64_t address = 0, size = 0;
    const cudaError_t e = process_runtime()->symbol(symbol, address, size);
    if (e == cudaSuccess) *devPtr = reinterpret_cast<void*>(address);
    return e;
  });
}

extern "C" cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
  return guarded([&] {
    uint64_t address = 0, bytes = 0;
    const cudaError_t e = process_runtime()->symbol(symbol, address, bytes);
    if (e == cudaSuccess) *size = bytes;
    return e;
  });
}

extern "C" cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  if (free == nullptr || total == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  process_runtime()->memory_info(*free, *total);
  return cudaSuccess;
}
