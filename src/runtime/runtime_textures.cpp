// Runtime: CUDA arrays, copies into and out of them, texture and surface objects. The state
// lives in TextureObjects; this file adds CUDA's error semantics (sticky errors, the last
// error) and resolves cudaMemcpyDefault.
#include <exception>

#include "fmt/format.h"
#include "runtime/enum_bits.h"
#include "runtime/runtime.h"

namespace lockstep::runtime {

cudaError_t Runtime::malloc_array(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                                  unsigned flags) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (desc == nullptr) return record(cudaErrorInvalidValue);
  return record(textures_.create_array(engine_, array, *desc, extent, flags));
}

cudaError_t Runtime::free_array(cudaArray_t array) {
  if (sticky_ != cudaSuccess) return sticky_;
  return record(textures_.free_array(engine_, array));
}

cudaError_t Runtime::array_info(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned* flags,
                                cudaArray_t array) {
  if (sticky_ != cudaSuccess) return sticky_;
  const CudaArray* a = textures_.array(array);
  if (a == nullptr) return record(cudaErrorInvalidValue);
  if (desc != nullptr) *desc = a->desc;
  if (extent != nullptr) *extent = a->extent;
  if (flags != nullptr) *flags = a->flags;
  return cudaSuccess;
}

cudaError_t Runtime::copy_to_array(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                                   size_t width, size_t height, cudaMemcpyKind kind) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (width == 0 || height == 0) return cudaSuccess;
  if (kind == cudaMemcpyDefault) kind = is_device_address(reinterpret_cast<uint64_t>(src)) ? cudaMemcpyDeviceToDevice
                                                                                          : cudaMemcpyHostToDevice;
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice)
    return record(cudaErrorInvalidMemcpyDirection);
  try {
    const HostOrDevice from{src, kind == cudaMemcpyDeviceToDevice};
    return record(textures_.copy_to_array(engine_, dst, w_offset, h_offset, from, spitch, width, height));
  } catch (const std::exception& e) {
    print(fmt::format("cudaMemcpy2DToArray: {}", e.what()));
    return record(cudaErrorInvalidValue);
  }
}

cudaError_t Runtime::copy_from_array(void* dst, size_t dpitch, cudaArray_const_t src, size_t w_offset,
                                     size_t h_offset, size_t width, size_t height, cudaMemcpyKind kind) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (width == 0 || height == 0) return cudaSuccess;
  if (kind == cudaMemcpyDefault) kind = is_device_address(reinterpret_cast<uint64_t>(dst)) ? cudaMemcpyDeviceToDevice
                                                                                          : cudaMemcpyDeviceToHost;
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice)
    return record(cudaErrorInvalidMemcpyDirection);
  try {
    return record(textures_.copy_from_array(engine_, dst, kind == cudaMemcpyDeviceToDevice, dpitch, src, w_offset,
                                            h_offset, width, height));
  } catch (const std::exception& e) {
    print(fmt::format("cudaMemcpy2DFromArray: {}", e.what()));
    return record(cudaErrorInvalidValue);
  }
}

cudaError_t Runtime::create_texture_object(cudaTextureObject_t* object, const cudaResourceDesc* resource,
                                           const cudaTextureDesc* texture, const cudaResourceViewDesc* view) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (object == nullptr || resource == nullptr || texture == nullptr) return record(cudaErrorInvalidValue);
  if (raw_enum(resource->resType) == cudaResourceTypeMipmappedArray) {
    print("cudaCreateTextureObject: mipmapped arrays are not supported yet");
    return record(cudaErrorNotSupported);
  }
  if (view != nullptr) {
    print("cudaCreateTextureObject: resource views are not supported yet");
    return record(cudaErrorNotSupported);
  }
  return record(textures_.create_texture(engine_, object, *resource, *texture));
}

cudaError_t Runtime::destroy_texture_object(cudaTextureObject_t object) {
  if (sticky_ != cudaSuccess) return sticky_;
  return record(textures_.destroy_texture(engine_, object));
}

cudaError_t Runtime::texture_object_resource(cudaResourceDesc* resource, cudaTextureObject_t object) {
  if (sticky_ != cudaSuccess) return sticky_;
  const cudaResourceDesc* r = textures_.texture_resource(object);
  if (resource == nullptr || r == nullptr) return record(cudaErrorInvalidValue);
  *resource = *r;
  return cudaSuccess;
}

cudaError_t Runtime::texture_object_description(cudaTextureDesc* texture, cudaTextureObject_t object) {
  if (sticky_ != cudaSuccess) return sticky_;
  const cudaTextureDesc* t = textures_.texture_description(object);
  if (texture == nullptr || t == nullptr) return record(cudaErrorInvalidValue);
  *texture = *t;
  return cudaSuccess;
}

cudaError_t Runtime::create_surface_object(cudaSurfaceObject_t* object, const cudaResourceDesc* resource) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (object == nullptr || resource == nullptr) return record(cudaErrorInvalidValue);
  return record(textures_.create_surface(engine_, object, *resource));
}

cudaError_t Runtime::destroy_surface_object(cudaSurfaceObject_t object) {
  if (sticky_ != cudaSuccess) return sticky_;
  return record(textures_.destroy_surface(engine_, object));
}

cudaError_t Runtime::surface_object_resource(cudaResourceDesc* resource, cudaSurfaceObject_t object) {
  if (sticky_ != cudaSuccess) return sticky_;
  const cudaResourceDesc* r = textures_.surface_resource(object);
  if (resource == nullptr || r == nullptr) return record(cudaErrorInvalidValue);
  *resource = *r;
  return cudaSuccess;
}

}  // namespace lockstep::runtime
