// Runtime: pitched (2D and 3D) linear memory. A pitched allocation is an ordinary allocation
// whose rows start kPitchAlignment bytes apart (cudaMallocPitch on current GPUs pads rows to
// 512 bytes); copies and memsets walk the rows and reuse the 1D paths, after checking the whole
// region first so that a bad call changes nothing.
#include <climits>

#include "runtime/runtime.h"

namespace lockstep::runtime {

namespace {

uint64_t address_of(const void* p) { return reinterpret_cast<uint64_t>(p); }

// The largest pitch a copy accepts (cudaDeviceProp::memPitch).
constexpr size_t kMaxPitch = INT_MAX;

size_t padded_pitch(size_t width) {
  return (width + Runtime::kPitchAlignment - 1) / Runtime::kPitchAlignment * Runtime::kPitchAlignment;
}

// Bytes from the first row's start to the last row's end.
uint64_t span(size_t pitch, size_t width, size_t height) { return uint64_t{pitch} * (height - 1) + width; }

}  // namespace

cudaError_t Runtime::malloc_pitch(void** pointer, size_t* pitch, size_t width, size_t height) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (pointer == nullptr || pitch == nullptr) return record(cudaErrorInvalidValue);
  const size_t padded = padded_pitch(width);
  if (height != 0 && padded > SIZE_MAX / height) return record(cudaErrorMemoryAllocation);
  const cudaError_t e = malloc(pointer, padded * height);
  if (e == cudaSuccess) *pitch = padded;
  return e;
}

cudaError_t Runtime::memcpy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                               size_t height, cudaMemcpyKind kind) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (dpitch < width || spitch < width || dpitch > kMaxPitch || spitch > kMaxPitch)
    return record(cudaErrorInvalidPitchValue);
  if (width == 0 || height == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr) return record(cudaErrorInvalidValue);
  const uint64_t d = address_of(dst), s = address_of(src);
  const uint64_t dst_span = span(dpitch, width, height), src_span = span(spitch, width, height);
  const bool dst_device = is_device_address(d, dst_span), src_device = is_device_address(s, src_span);
  if (kind == cudaMemcpyDefault)
    kind = dst_device ? (src_device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                      : (src_device ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
  if (kind != cudaMemcpyHostToHost && kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToHost &&
      kind != cudaMemcpyDeviceToDevice)
    return record(cudaErrorInvalidMemcpyDirection);
  const bool needs_dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool needs_src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if ((needs_dst_device && !dst_device) || (needs_src_device && !src_device)) return record(cudaErrorInvalidValue);
  auto* dst_bytes = static_cast<char*>(dst);
  const auto* src_bytes = static_cast<const char*>(src);
  for (size_t row = 0; row < height; ++row)
    if (cudaError_t e = memcpy(dst_bytes + row * dpitch, src_bytes + row * spitch, width, kind); e != cudaSuccess)
      return e;
  return cudaSuccess;
}

cudaError_t Runtime::memset_2d(void* dst, size_t pitch, int value, size_t width, size_t height) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (width == 0 || height == 0) return cudaSuccess;
  if ((height > 1 && pitch < width) || !is_device_address(address_of(dst), span(pitch, width, height)))
    return record(cudaErrorInvalidValue);
  auto* bytes = static_cast<char*>(dst);
  for (size_t row = 0; row < height; ++row)
    if (cudaError_t e = memset(bytes + row * pitch, value, width); e != cudaSuccess) return e;
  return cudaSuccess;
}

cudaError_t Runtime::malloc_3d(cudaPitchedPtr* pointer, cudaExtent extent) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (pointer == nullptr) return record(cudaErrorInvalidValue);
  const size_t padded = padded_pitch(extent.width);
  const size_t rows = extent.height * extent.depth;
  if (extent.depth != 0 && extent.height > SIZE_MAX / extent.depth) return record(cudaErrorMemoryAllocation);
  if (rows != 0 && padded > SIZE_MAX / rows) return record(cudaErrorMemoryAllocation);
  void* p = nullptr;
  if (cudaError_t e = malloc(&p, padded * rows); e != cudaSuccess) return e;
  *pointer = cudaPitchedPtr{p, padded, extent.width, extent.height};
  return cudaSuccess;
}

cudaError_t Runtime::memcpy_3d(const cudaMemcpy3DParms& p) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (p.srcArray != nullptr || p.dstArray != nullptr) return memcpy_3d_array(p);
  const cudaExtent& e = p.extent;
  if (e.width == 0 || e.height == 0 || e.depth == 0) return cudaSuccess;
  if (p.srcPtr.ptr == nullptr || p.dstPtr.ptr == nullptr) return record(cudaErrorInvalidValue);
  // Slices of a 3D region are ysize rows apart; a region of several slices needs them.
  if (e.depth > 1 && (p.srcPtr.ysize < e.height || p.dstPtr.ysize < e.height)) return record(cudaErrorInvalidValue);
  auto slice = [](const cudaPitchedPtr& ptr, const cudaPos& pos, size_t z) {
    return static_cast<char*>(ptr.ptr) + ((pos.z + z) * ptr.ysize + pos.y) * ptr.pitch + pos.x;
  };
  for (size_t z = 0; z < e.depth; ++z) {
    const cudaError_t r = memcpy_2d(slice(p.dstPtr, p.dstPos, z), p.dstPtr.pitch, slice(p.srcPtr, p.srcPos, z),
                                    p.srcPtr.pitch, e.width, e.height, p.kind);
    if (r != cudaSuccess) return r;
  }
  return cudaSuccess;
}

cudaError_t Runtime::memset_3d(cudaPitchedPtr pointer, int value, cudaExtent extent) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (extent.width == 0 || extent.height == 0 || extent.depth == 0) return cudaSuccess;
  if (extent.depth > 1 && pointer.ysize < extent.height) return record(cudaErrorInvalidValue);
  for (size_t z = 0; z < extent.depth; ++z) {
    char* slice = static_cast<char*>(pointer.ptr) + z * pointer.ysize * pointer.pitch;
    if (cudaError_t r = memset_2d(slice, pointer.pitch, value, extent.width, extent.height); r != cudaSuccess)
      return r;
  }
  return cudaSuccess;
}

}  // namespace lockstep::runtime
