// The per-thread-default-stream spellings of the runtime's entry points: a program built with
// nvcc --default-stream per-thread (or CUDA_API_PER_THREAD_DEFAULT_STREAM) calls these instead.
// Its stream 0 is then the calling thread's default stream, cudaStreamPerThread. Streams run in
// order at the call here, so the two default streams differ only in what they may do (a
// per-thread stream can be captured) and in what they report (cudaStreamGetId). The other
// _ptsz/_ptds forms sit beside their entry points.
#include "cudart/process_runtime.h"

using lockstep::runtime::per_thread_stream;

extern "C" cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                     unsigned int flags) {
  return cudaEventRecordWithFlags(event, per_thread_stream(stream), flags);
}

extern "C" cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) {
  return cudaEventRecord(event, per_thread_stream(stream));
}

extern "C" cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim,
                                             void** args, size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, per_thread_stream(stream));
}

extern "C" cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void* dst, size_t dpitch,
                                                       cudaArray_const_t src, size_t wOffset,
                                                       size_t hOffset, size_t width, size_t height,
                                                       enum cudaMemcpyKind kind,
                                                       cudaStream_t stream) {
  return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, kind,
                                    per_thread_stream(stream));
}

extern "C" cudaError_t cudaMemcpy2DFromArray_ptds(void* dst, size_t dpitch, cudaArray_const_t src,
                                                  size_t wOffset, size_t hOffset, size_t width,
                                                  size_t height, enum cudaMemcpyKind kind) {
  return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

extern "C" cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
                                                     size_t hOffset, const void* src, size_t spitch,
                                                     size_t width, size_t height,
                                                     enum cudaMemcpyKind kind,
                                                     cudaStream_t stream) {
  return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, kind,
                                  per_thread_stream(stream));
}

extern "C" cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                const void* src, size_t spitch, size_t width,
                                                size_t height, enum cudaMemcpyKind kind) {
  return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

extern "C" cudaError_t cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t count,
                                            enum cudaMemcpyKind kind, cudaStream_t stream) {
  return cudaMemcpyAsync(dst, src, count, kind, per_thread_stream(stream));
}

extern "C" cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void* dst, const void* symbol, size_t count,
                                                      size_t offset, enum cudaMemcpyKind kind,
                                                      cudaStream_t stream) {
  return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, per_thread_stream(stream));
}

extern "C" cudaError_t cudaMemcpyFromSymbol_ptds(void* dst, const void* symbol, size_t count,
                                                 size_t offset, enum cudaMemcpyKind kind) {
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

extern "C" cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src,
                                                    size_t count, size_t offset,
                                                    enum cudaMemcpyKind kind, cudaStream_t stream) {
  return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, per_thread_stream(stream));
}

extern "C" cudaError_t cudaMemcpyToSymbol_ptds(const void* symbol, const void* src, size_t count,
                                               size_t offset, enum cudaMemcpyKind kind) {
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

extern "C" cudaError_t cudaMemcpy_ptds(void* dst, const void* src, size_t count,
                                       enum cudaMemcpyKind kind) {
  return cudaMemcpy(dst, src, count, kind);
}

extern "C" cudaError_t cudaMemsetAsync_ptsz(void* devPtr, int value, size_t count,
                                            cudaStream_t stream) {
  return cudaMemsetAsync(devPtr, value, count, per_thread_stream(stream));
}

extern "C" cudaError_t cudaMemset_ptds(void* devPtr, int value, size_t count) {
  return cudaMemset(devPtr, value, count);
}

extern "C" cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void* devPtr,
                                                     size_t length, unsigned int flags) {
  return cudaStreamAttachMemAsync(per_thread_stream(stream), devPtr, length, flags);
}

extern "C" cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src) {
  return cudaStreamCopyAttributes(per_thread_stream(dst), per_thread_stream(src));
}

extern "C" cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                                                   cudaStreamAttrValue* value_out) {
  return cudaStreamGetAttribute(per_thread_stream(hStream), attr, value_out);
}

extern "C" cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int* device) {
  return cudaStreamGetDevice(per_thread_stream(hStream), device);
}

extern "C" cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long* streamId) {
  return cudaStreamGetId(per_thread_stream(hStream), streamId);
}

extern "C" cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream) {
  return cudaStreamQuery(per_thread_stream(stream));
}

extern "C" cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                                                   const cudaStreamAttrValue* value) {
  return cudaStreamSetAttribute(per_thread_stream(hStream), attr, value);
}

extern "C" cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) {
  return cudaStreamSynchronize(per_thread_stream(stream));
}

extern "C" cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                                unsigned int flags) {
  return cudaStreamWaitEvent(per_thread_stream(stream), event, flags);
}

// The deprecated 1D array copies keep their per-thread spellings too (they forward to the
// deprecated entry points themselves, texture_api.cpp).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

extern "C" cudaError_t cudaMemcpyFromArrayAsync_ptsz(void* dst, cudaArray_const_t src,
                                                     size_t wOffset, size_t hOffset, size_t count,
                                                     enum cudaMemcpyKind kind,
                                                     cudaStream_t stream) {
  return cudaMemcpyFromArrayAsync(dst, src, wOffset, hOffset, count, kind, per_thread_stream(stream));
}

extern "C" cudaError_t cudaMemcpyFromArray_ptds(void* dst, cudaArray_const_t src, size_t wOffset,
                                                size_t hOffset, size_t count,
                                                enum cudaMemcpyKind kind) {
  return cudaMemcpyFromArray(dst, src, wOffset, hOffset, count, kind);
}

extern "C" cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                   const void* src, size_t count,
                                                   enum cudaMemcpyKind kind, cudaStream_t stream) {
  return cudaMemcpyToArrayAsync(dst, wOffset, hOffset, src, count, kind, per_thread_stream(stream));
}

extern "C" cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                              const void* src, size_t count,
                                              enum cudaMemcpyKind kind) {
  return cudaMemcpyToArray(dst, wOffset, hOffset, src, count, kind);
}

extern "C" cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                   cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                   size_t count, cudaMemcpyKind kind) {
  return cudaMemcpyArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind);
}

#pragma GCC diagnostic pop

extern "C" cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                     cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                     size_t width, size_t height, cudaMemcpyKind kind) {
  return cudaMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind);
}
