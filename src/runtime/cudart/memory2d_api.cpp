// Pitched linear memory entry points: cudaMallocPitch, cudaMemcpy2D, cudaMemset2D and their 3D
// forms (runtime_memory2d.cpp; cudaMemcpy3D with CUDA arrays in runtime_memcpy3d_array.cpp).
// The 2D copies into and out of CUDA arrays are in texture_api.cpp.
// Every asynchronous form runs at the call, like all lockstep work.
#include "cudart/process_runtime.h"

using lockstep::runtime::guarded;
using lockstep::runtime::process_runtime;
using lockstep::runtime::per_thread_stream;

namespace {

cudaError_t check_stream(cudaStream_t stream) {
  return process_runtime()->is_stream(stream) ? cudaSuccess : process_runtime()->record(cudaErrorInvalidResourceHandle);
}

}  // namespace

extern "C" cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  return guarded([&] { return process_runtime()->malloc_pitch(devPtr, pitch, width, height); });
}

extern "C" cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                    size_t height, cudaMemcpyKind kind) {
  return guarded([&] { return process_runtime()->memcpy_2d(dst, dpitch, src, spitch, width, height, kind); });
}

extern "C" cudaError_t cudaMemcpy2D_ptds(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                         size_t height, cudaMemcpyKind kind) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

extern "C" cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                         size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  if (cudaError_t e = check_stream(stream); e != cudaSuccess) return e;
  if (process_runtime()->capturing(stream)) {  // a memcpy node of the stream's capture (capture_api.cpp)
    lockstep::runtime::MemcpyNodeOp op;
    op.params.srcPtr = cudaPitchedPtr{const_cast<void*>(src), spitch, width, height};
    op.params.dstPtr = cudaPitchedPtr{dst, dpitch, width, height};
    op.params.extent = cudaExtent{width, height, 1};
    op.params.kind = kind;
    return guarded([&] { return process_runtime()->capture(stream, std::move(op)); });
  }
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

extern "C" cudaError_t cudaMemcpy2DAsync_ptsz(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                              size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, per_thread_stream(stream));
}

extern "C" cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height) {
  return guarded([&] { return process_runtime()->memset_2d(devPtr, pitch, value, width, height); });
}

extern "C" cudaError_t cudaMemset2D_ptds(void* devPtr, size_t pitch, int value, size_t width, size_t height) {
  return cudaMemset2D(devPtr, pitch, value, width, height);
}

extern "C" cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                                         cudaStream_t stream) {
  if (cudaError_t e = check_stream(stream); e != cudaSuccess) return e;
  if (process_runtime()->capturing(stream))  // a memset node of the stream's capture (capture_api.cpp)
    return guarded([&] {
      const cudaMemsetParams m{devPtr, pitch, static_cast<unsigned>(value) & 0xffu, 1, width, height};
      return process_runtime()->capture(stream, lockstep::runtime::MemsetNodeOp{m});
    });
  return cudaMemset2D(devPtr, pitch, value, width, height);
}

extern "C" cudaError_t cudaMemset2DAsync_ptsz(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                                              cudaStream_t stream) {
  return cudaMemset2DAsync(devPtr, pitch, value, width, height, per_thread_stream(stream));
}

extern "C" cudaError_t cudaMalloc3D(cudaPitchedPtr* pitchedDevPtr, cudaExtent extent) {
  return guarded([&] { return process_runtime()->malloc_3d(pitchedDevPtr, extent); });
}

extern "C" cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  if (p == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return guarded([&] { return process_runtime()->memcpy_3d(*p); });
}

extern "C" cudaError_t cudaMemcpy3D_ptds(const cudaMemcpy3DParms* p) { return cudaMemcpy3D(p); }

extern "C" cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  if (cudaError_t e = check_stream(stream); e != cudaSuccess) return e;
  // A memcpy node (capture_api.cpp); it holds the parameters whole, CUDA arrays included.
  if (p != nullptr && process_runtime()->capturing(stream))
    return guarded([&] { return process_runtime()->capture(stream, lockstep::runtime::MemcpyNodeOp{*p}); });
  return cudaMemcpy3D(p);
}

extern "C" cudaError_t cudaMemcpy3DAsync_ptsz(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  return cudaMemcpy3DAsync(p, per_thread_stream(stream));
}

extern "C" cudaError_t cudaMemset3D(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent) {
  return guarded([&] { return process_runtime()->memset_3d(pitchedDevPtr, value, extent); });
}

extern "C" cudaError_t cudaMemset3D_ptds(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent) {
  return cudaMemset3D(pitchedDevPtr, value, extent);
}

extern "C" cudaError_t cudaMemset3DAsync(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent,
                                         cudaStream_t stream) {
  if (cudaError_t e = check_stream(stream); e != cudaSuccess) return e;
  if (process_runtime()->capturing(stream)) {  // a memset node (capture_api.cpp): one slice only
    if (extent.depth > 1) {
      process_runtime()->report_unsupported("cudaMemset3DAsync of several slices during stream capture");
      return cudaErrorNotSupported;
    }
    const cudaMemsetParams m{pitchedDevPtr.ptr, pitchedDevPtr.pitch, static_cast<unsigned>(value) & 0xffu, 1,
                             extent.width, extent.height};
    return guarded([&] { return process_runtime()->capture(stream, lockstep::runtime::MemsetNodeOp{m}); });
  }
  return cudaMemset3D(pitchedDevPtr, value, extent);
}

extern "C" cudaError_t cudaMemset3DAsync_ptsz(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent,
                                              cudaStream_t stream) {
  return cudaMemset3DAsync(pitchedDevPtr, value, extent, per_thread_stream(stream));
}
