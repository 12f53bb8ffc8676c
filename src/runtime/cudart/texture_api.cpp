// CUDA arrays, texture objects and surface objects (cudaCreateChannelDesc is in device_api.cpp).
// Streams run in order here, so the *Async copies are the synchronous ones.
#include "cudart/process_runtime.h"

using lockstep::runtime::guarded;
using lockstep::runtime::process_runtime;

extern "C" cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width,
                                       size_t height, unsigned int flags) {
  return guarded([&] { return process_runtime()->malloc_array(array, desc, cudaExtent{width, height, 0}, flags); });
}

extern "C" cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                                         unsigned int flags) {
  return guarded([&] { return process_runtime()->malloc_array(array, desc, extent, flags); });
}

extern "C" cudaError_t cudaFreeArray(cudaArray_t array) {
  return guarded([&] { return process_runtime()->free_array(array); });
}

extern "C" cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags,
                                        cudaArray_t array) {
  return guarded([&] { return process_runtime()->array_info(desc, extent, flags, array); });
}

extern "C" cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  return guarded([&] {
    if (desc == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
    return process_runtime()->array_info(desc, nullptr, nullptr, const_cast<cudaArray_t>(array));
  });
}

extern "C" cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                           size_t spitch, size_t width, size_t height, cudaMemcpyKind kind) {
  return guarded(
      [&] { return process_runtime()->copy_to_array(dst, wOffset, hOffset, src, spitch, width, height, kind); });
}

extern "C" cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                                size_t spitch, size_t width, size_t height, cudaMemcpyKind kind,
                                                cudaStream_t /*stream*/) {
  return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

extern "C" cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                             size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind) {
  return guarded(
      [&] { return process_runtime()->copy_from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind); });
}

extern "C" cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                  size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind,
                                                  cudaStream_t /*stream*/) {
  return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

namespace {

// Bytes per element of `array`; 0 for an unknown array.
size_t element_bytes(cudaArray_const_t array) {
  cudaChannelFormatDesc desc{};
  if (process_runtime()->array_info(&desc, nullptr, nullptr, const_cast<cudaArray_t>(array)) != cudaSuccess) return 0;
  return static_cast<size_t>(desc.x + desc.y + desc.z + desc.w) / 8;
}

// The deprecated 1D copies address `count` bytes from (wOffset, hOffset) in row-major order:
// within one row, or whole rows from the start of a row.
bool rows_of(cudaArray_const_t array, size_t w_offset, size_t count, size_t& width, size_t& height) {
  cudaExtent extent{};
  if (process_runtime()->array_info(nullptr, &extent, nullptr, const_cast<cudaArray_t>(array)) != cudaSuccess)
    return false;
  const size_t row = extent.width * element_bytes(array);
  if (w_offset + count <= row) {
    width = count;
    height = 1;
    return true;
  }
  if (w_offset != 0 || count % row != 0) return false;
  width = row;
  height = count / row;
  return true;
}

cudaError_t copy_to_array_1d(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                             cudaMemcpyKind kind) {
  return guarded([&] {
    size_t width = 0, height = 0;
    if (!rows_of(dst, wOffset, count, width, height)) return process_runtime()->record(cudaErrorInvalidValue);
    return process_runtime()->copy_to_array(dst, wOffset, hOffset, src, width, width, height, kind);
  });
}

cudaError_t copy_from_array_1d(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                               cudaMemcpyKind kind) {
  return guarded([&] {
    size_t width = 0, height = 0;
    if (!rows_of(src, wOffset, count, width, height)) return process_runtime()->record(cudaErrorInvalidValue);
    return process_runtime()->copy_from_array(dst, width, src, wOffset, hOffset, width, height, kind);
  });
}

// A copy of `height` rows of `width` bytes between two arrays, as cudaMemcpy3D's array-to-array
// copy: offsets and width in bytes must be whole elements, of the same size in both arrays.
cudaError_t copy_array_to_array(cudaArray_t dst, size_t w_dst, size_t h_dst, cudaArray_const_t src, size_t w_src,
                                size_t h_src, size_t width, size_t height, cudaMemcpyKind kind) {
  if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return process_runtime()->record(cudaErrorInvalidMemcpyDirection);
  const size_t e = element_bytes(src);
  if (e == 0 || element_bytes(dst) != e || w_dst % e != 0 || w_src % e != 0 || width % e != 0)
    return process_runtime()->record(cudaErrorInvalidValue);
  cudaMemcpy3DParms p{};
  p.srcArray = const_cast<cudaArray_t>(src);
  p.srcPos = cudaPos{w_src / e, h_src, 0};
  p.dstArray = dst;
  p.dstPos = cudaPos{w_dst / e, h_dst, 0};
  p.extent = cudaExtent{width / e, height, 1};
  p.kind = kind;
  return cudaMemcpy3D(&p);
}

}  // namespace

extern "C" cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                         size_t count, cudaMemcpyKind kind) {
  return copy_to_array_1d(dst, wOffset, hOffset, src, count, kind);
}

extern "C" cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                           size_t count, cudaMemcpyKind kind) {
  return copy_from_array_1d(dst, src, wOffset, hOffset, count, kind);
}

extern "C" cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                              size_t count, cudaMemcpyKind kind, cudaStream_t /*stream*/) {
  return copy_to_array_1d(dst, wOffset, hOffset, src, count, kind);
}

extern "C" cudaError_t cudaMemcpyFromArrayAsync(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                                size_t count, cudaMemcpyKind kind, cudaStream_t /*stream*/) {
  return copy_from_array_1d(dst, src, wOffset, hOffset, count, kind);
}

extern "C" cudaError_t cudaCreateTextureObject(cudaTextureObject_t* pTexObject, const cudaResourceDesc* pResDesc,
                                               const cudaTextureDesc* pTexDesc,
                                               const cudaResourceViewDesc* pResViewDesc) {
  return guarded(
      [&] { return process_runtime()->create_texture_object(pTexObject, pResDesc, pTexDesc, pResViewDesc); });
}

extern "C" cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  return guarded([&] { return process_runtime()->destroy_texture_object(texObject); });
}

extern "C" cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* pResDesc, cudaTextureObject_t texObject) {
  return guarded([&] { return process_runtime()->texture_object_resource(pResDesc, texObject); });
}

extern "C" cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* pTexDesc, cudaTextureObject_t texObject) {
  return guarded([&] { return process_runtime()->texture_object_description(pTexDesc, texObject); });
}

extern "C" cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject, const cudaResourceDesc* pResDesc) {
  return guarded([&] { return process_runtime()->create_surface_object(pSurfObject, pResDesc); });
}

extern "C" cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  return guarded([&] { return process_runtime()->destroy_surface_object(surfObject); });
}

extern "C" cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* pResDesc, cudaSurfaceObject_t surfObject) {
  return guarded([&] { return process_runtime()->surface_object_resource(pResDesc, surfObject); });
}

extern "C" cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                size_t width, size_t height, cudaMemcpyKind kind) {
  return guarded(
      [&] { return copy_array_to_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind); });
}

// The deprecated 1D form: `count` bytes in row-major order, laid out alike in both arrays.
extern "C" cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                              cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                              size_t count, cudaMemcpyKind kind) {
  return guarded([&] {
    size_t width = 0, height = 0, dst_width = 0, dst_height = 0;
    if (!rows_of(src, wOffsetSrc, count, width, height) || !rows_of(dst, wOffsetDst, count, dst_width, dst_height) ||
        width != dst_width)
      return process_runtime()->record(cudaErrorInvalidValue);
    return copy_array_to_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind);
  });
}
