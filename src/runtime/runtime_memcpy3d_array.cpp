// Runtime: cudaMemcpy3D with CUDA arrays (host <-> array, device <-> array, array <-> array).
// CUDA's rules: exactly one of srcArray/srcPtr and of dstArray/dstPtr is set; when an array
// takes part, the extent counts that array's elements (a pointer side's rows are then
// extent.width * element bytes long) and an array's position counts elements, while a
// pointer's position counts bytes in x; two arrays need the same element size. The whole
// region is checked before any byte moves, so a bad call changes nothing. Layered and cubemap
// arrays are addressed like 3D ones: z is the layer (6 * cube + face for cubemaps).
#include <cstdint>

#include "runtime/runtime.h"

namespace lockstep::runtime {
namespace {

// One side of the copy: the address of each row of the region, and whether it is device memory.
struct CopySide {
  uint64_t origin = 0;      // address of the region's first byte
  uint64_t pitch = 0;       // bytes from one row to the next
  uint64_t slice = 0;       // bytes from one z slice to the next
  bool device = false;
  uint64_t row(uint64_t y, uint64_t z) const { return origin + z * slice + y * pitch; }
};

bool fits(size_t pos, size_t count, uint64_t limit) { return pos <= limit && count <= limit - pos; }

// The array side: the region must lie inside the array (z runs over layers for layered arrays).
bool array_side(const CudaArray& a, const cudaPos& pos, const cudaExtent& e, CopySide& side) {
  const uint64_t slices = uint64_t{a.depth} * a.layers;
  if (!fits(pos.x, e.width, a.width) || !fits(pos.y, e.height, a.height) || !fits(pos.z, e.depth, slices))
    return false;
  side.pitch = a.row_bytes();
  side.slice = a.row_bytes() * a.height;
  side.origin = a.base + pos.z * side.slice + pos.y * side.pitch + uint64_t{pos.x} * a.element_bytes;
  side.device = true;
  return true;
}

}  // namespace

cudaError_t Runtime::memcpy_3d_array(const cudaMemcpy3DParms& p) {
  if (sticky_ != cudaSuccess) return sticky_;
  if ((p.srcArray != nullptr && p.srcPtr.ptr != nullptr) || (p.dstArray != nullptr && p.dstPtr.ptr != nullptr))
    return record(cudaErrorInvalidValue);
  const CudaArray* src = p.srcArray != nullptr ? textures_.array(p.srcArray) : nullptr;
  const CudaArray* dst = p.dstArray != nullptr ? textures_.array(p.dstArray) : nullptr;
  if ((p.srcArray != nullptr && src == nullptr) || (p.dstArray != nullptr && dst == nullptr))
    return record(cudaErrorInvalidValue);
  if ((src == nullptr && p.srcPtr.ptr == nullptr) || (dst == nullptr && p.dstPtr.ptr == nullptr))
    return record(cudaErrorInvalidValue);
  if (src != nullptr && dst != nullptr && src->element_bytes != dst->element_bytes)
    return record(cudaErrorInvalidValue);
  const cudaExtent& e = p.extent;
  if (e.width == 0 || e.height == 0 || e.depth == 0) return cudaSuccess;
  const uint64_t element = src != nullptr ? src->element_bytes : dst->element_bytes;
  if (e.width > UINT64_MAX / element) return record(cudaErrorInvalidValue);
  const uint64_t row_bytes = e.width * element;

  CopySide from, to;
  if (src != nullptr && !array_side(*src, p.srcPos, e, from)) return record(cudaErrorInvalidValue);
  if (dst != nullptr && !array_side(*dst, p.dstPos, e, to)) return record(cudaErrorInvalidValue);
  // A pointer side: rows `pitch` bytes apart, slices `ysize` rows apart.
  auto pointer_side = [&](const cudaPitchedPtr& ptr, const cudaPos& pos, CopySide& side) -> cudaError_t {
    if ((e.height > 1 || e.depth > 1) && ptr.pitch < row_bytes) return cudaErrorInvalidPitchValue;
    if (e.depth > 1 && ptr.ysize < e.height) return cudaErrorInvalidValue;
    side.pitch = ptr.pitch;
    side.slice = uint64_t{ptr.pitch} * ptr.ysize;
    side.origin = reinterpret_cast<uint64_t>(ptr.ptr) + pos.z * side.slice + pos.y * side.pitch + pos.x;
    const uint64_t span = (e.depth - 1) * side.slice + (e.height - 1) * side.pitch + row_bytes;
    side.device = is_device_address(side.origin, span);
    return cudaSuccess;
  };
  const cudaError_t src_ok = src == nullptr ? pointer_side(p.srcPtr, p.srcPos, from) : cudaSuccess;
  if (src_ok != cudaSuccess) return record(src_ok);
  const cudaError_t dst_ok = dst == nullptr ? pointer_side(p.dstPtr, p.dstPos, to) : cudaSuccess;
  if (dst_ok != cudaSuccess) return record(dst_ok);

  // The kind must agree with the sides: an array is device memory.
  cudaMemcpyKind kind = p.kind;
  if (kind == cudaMemcpyDefault)
    kind = to.device ? (from.device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice) : cudaMemcpyDeviceToHost;
  const bool kind_src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  const bool kind_dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  if ((kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice) ||
      (src != nullptr && !kind_src_device) || (dst != nullptr && !kind_dst_device))
    return record(cudaErrorInvalidMemcpyDirection);
  // A device pointer side must be device memory throughout.
  if ((kind_src_device && !from.device) || (kind_dst_device && !to.device)) return record(cudaErrorInvalidValue);

  for (uint64_t z = 0; z < e.depth; ++z)
    for (uint64_t y = 0; y < e.height; ++y) {
      void* d = reinterpret_cast<void*>(to.row(y, z));
      const void* s = reinterpret_cast<const void*>(from.row(y, z));
      if (cudaError_t r = memcpy(d, s, row_bytes, kind); r != cudaSuccess) return r;
    }
  return cudaSuccess;
}

}  // namespace lockstep::runtime
