#pragma once
// CUDA arrays, texture objects and surface objects. A cudaArray_t is the host address of a
// CudaArray record whose elements live in one device allocation, row-major (x fastest, then y,
// then z or layer) — lockstep's choice; the real layout is opaque to programs. A texture or
// surface object handle is the device address of a func::TextureDescriptor written at creation.
#include <cstdint>
#include <map>
#include <memory>

#include <driver_types.h>
#include <surface_types.h>
#include <texture_types.h>

#include "engine/engine.h"
#include "func/texture_descriptor.h"

namespace lockstep::runtime {

struct CudaArray {
  cudaChannelFormatDesc desc{};
  cudaExtent extent{};      // as allocated (0 for unused dimensions)
  unsigned flags = 0;
  uint32_t element_bytes = 0;
  // depth is 1 for layered and cubemap arrays; a cubemap's layers are its faces (6 per cube)
  uint32_t width = 1, height = 1, depth = 1, layers = 1;
  uint64_t base = 0;        // device allocation
  uint64_t row_bytes() const { return uint64_t{width} * element_bytes; }
  uint64_t rows() const { return uint64_t{height} * depth * layers; }
};

// Where the host side of a 2D copy lives.
struct HostOrDevice {
  const void* pointer = nullptr;
  bool on_device = false;
};

class TextureObjects {
 public:
  // Checks a channel descriptor: 1, 2 or 4 channels of equal size, 8/16/32-bit integers or
  // 16/32-bit floats; else cudaErrorInvalidChannelDescriptor.
  static cudaError_t check_channels(const cudaChannelFormatDesc& desc);

  cudaError_t create_array(Engine& engine, cudaArray_t* array, const cudaChannelFormatDesc& desc,
                           cudaExtent extent, unsigned flags);
  cudaError_t free_array(Engine& engine, cudaArray_const_t array);
  const CudaArray* array(cudaArray_const_t array) const;

  // cudaMemcpy2DToArray / cudaMemcpy2DFromArray: offsets and width in bytes, height in rows.
  cudaError_t copy_to_array(Engine& engine, cudaArray_t dst, uint64_t w_offset, uint64_t h_offset,
                            HostOrDevice src, uint64_t src_pitch, uint64_t width, uint64_t height);
  cudaError_t copy_from_array(Engine& engine, void* dst, bool dst_on_device, uint64_t dst_pitch,
                              cudaArray_const_t src, uint64_t w_offset, uint64_t h_offset,
                              uint64_t width, uint64_t height);

  cudaError_t create_texture(Engine& engine, cudaTextureObject_t* object, const cudaResourceDesc& resource,
                             const cudaTextureDesc& texture);
  cudaError_t destroy_texture(Engine& engine, cudaTextureObject_t object);
  cudaError_t create_surface(Engine& engine, cudaSurfaceObject_t* object, const cudaResourceDesc& resource);
  cudaError_t destroy_surface(Engine& engine, cudaSurfaceObject_t object);
  // The descriptions an object was created from; nullptr when unknown.
  const cudaResourceDesc* texture_resource(cudaTextureObject_t object) const;
  const cudaTextureDesc* texture_description(cudaTextureObject_t object) const;
  const cudaResourceDesc* surface_resource(cudaSurfaceObject_t object) const;

 private:
  // The descriptor fields common to textures and surfaces, from a resource description.
  cudaError_t describe(const cudaResourceDesc& resource, func::TextureDescriptor& d) const;
  uint64_t write_descriptor(Engine& engine, const func::TextureDescriptor& d) const;

  std::map<const void*, std::unique_ptr<CudaArray>> arrays_;
  struct TextureRecord {
    cudaResourceDesc resource{};
    cudaTextureDesc texture{};
  };
  std::map<uint64_t, TextureRecord> textures_;          // by handle
  std::map<uint64_t, cudaResourceDesc> surfaces_;       // by handle
};

}  // namespace lockstep::runtime
