#include "runtime/texture_objects.h"

#include "runtime/enum_bits.h"

#include <exception>
#include <vector>

namespace lockstep::runtime {
namespace {

uint32_t channel_count(const cudaChannelFormatDesc& d) {
  return (d.x != 0) + (d.y != 0) + (d.z != 0) + (d.w != 0);
}

func::ChannelKind channel_kind(const cudaChannelFormatKind& f) {
  const int kind = raw_enum(f);
  return kind == cudaChannelFormatKindSigned     ? func::ChannelKind::Signed
         : kind == cudaChannelFormatKindUnsigned ? func::ChannelKind::Unsigned
                                                 : func::ChannelKind::Float;
}

uint32_t dimension(size_t n) { return n == 0 ? 1u : static_cast<uint32_t>(n); }

constexpr unsigned kKnownArrayFlags =
    cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | cudaArrayTextureGather;

// CUDA's shapes: a cubemap has six square faces {w, w, 6}; a layered cubemap {w, w, 6 * n}.
bool valid_cubemap_extent(const cudaExtent& e, bool layered) {
  if (e.height != e.width || e.depth == 0) return false;
  return layered ? e.depth % 6 == 0 : e.depth == 6;
}

}  // namespace

cudaError_t TextureObjects::check_channels(const cudaChannelFormatDesc& d) {
  const int bits = d.x;
  const bool prefix = d.x != 0 && (d.z == 0 || d.y != 0) && (d.w == 0 || d.z != 0);
  const uint32_t n = channel_count(d);
  if (!prefix || n == 3) return cudaErrorInvalidChannelDescriptor;
  for (int b : {d.y, d.z, d.w})
    if (b != 0 && b != bits) return cudaErrorInvalidChannelDescriptor;
  switch (raw_enum(d.f)) {
    case cudaChannelFormatKindSigned:
    case cudaChannelFormatKindUnsigned:
      return bits == 8 || bits == 16 || bits == 32 ? cudaSuccess : cudaErrorInvalidChannelDescriptor;
    case cudaChannelFormatKindFloat:
      return bits == 16 || bits == 32 ? cudaSuccess : cudaErrorInvalidChannelDescriptor;
    default:  // None, NV12, the block-compressed and packed formats
      return cudaErrorInvalidChannelDescriptor;
  }
}

cudaError_t TextureObjects::create_array(Engine& engine, cudaArray_t* array, const cudaChannelFormatDesc& desc,
                                         cudaExtent extent, unsigned flags) {
  if (array == nullptr) return cudaErrorInvalidValue;
  if (cudaError_t e = check_channels(desc); e != cudaSuccess) return e;
  if ((flags & ~kKnownArrayFlags) != 0 || extent.width == 0) return cudaErrorInvalidValue;
  const bool layered = (flags & cudaArrayLayered) != 0;
  const bool cubemap = (flags & cudaArrayCubemap) != 0;
  if (layered && extent.depth == 0) return cudaErrorInvalidValue;
  if (extent.height == 0 && extent.depth != 0 && !layered) return cudaErrorInvalidValue;
  if (cubemap && !valid_cubemap_extent(extent, layered)) return cudaErrorInvalidValue;
  auto a = std::make_unique<CudaArray>();
  a->desc = desc;
  a->extent = extent;
  a->flags = flags;
  a->element_bytes = channel_count(desc) * static_cast<uint32_t>(desc.x) / 8;
  a->width = dimension(extent.width);
  a->height = dimension(extent.height);
  // A cubemap's faces are layers (6 per cube), read as 2D slices like a layered array's.
  if (layered || cubemap) a->layers = dimension(extent.depth);
  else a->depth = dimension(extent.depth);
  a->base = engine.malloc(a->row_bytes() * a->rows());
  *array = reinterpret_cast<cudaArray_t>(a.get());
  arrays_[a.get()] = std::move(a);
  return cudaSuccess;
}

cudaError_t TextureObjects::free_array(Engine& engine, cudaArray_const_t array) {
  if (array == nullptr) return cudaSuccess;
  auto it = arrays_.find(array);
  if (it == arrays_.end()) return cudaErrorInvalidValue;
  engine.free(it->second->base);
  arrays_.erase(it);
  return cudaSuccess;
}

const CudaArray* TextureObjects::array(cudaArray_const_t array) const {
  auto it = arrays_.find(array);
  return it == arrays_.end() ? nullptr : it->second.get();
}

cudaError_t TextureObjects::copy_to_array(Engine& engine, cudaArray_t dst, uint64_t w_offset, uint64_t h_offset,
                                          HostOrDevice src, uint64_t src_pitch, uint64_t width,
                                          uint64_t height) {
  const CudaArray* a = array(dst);
  if (a == nullptr || src.pointer == nullptr) return cudaErrorInvalidValue;
  if (height > 1 && src_pitch < width) return cudaErrorInvalidPitchValue;
  if (w_offset > a->row_bytes() || width > a->row_bytes() - w_offset || h_offset > a->rows() ||
      height > a->rows() - h_offset)
    return cudaErrorInvalidValue;
  std::vector<uint8_t> row(width);
  const uint64_t src_address = reinterpret_cast<uint64_t>(src.pointer);
  for (uint64_t r = 0; r < height; ++r) {
    const uint64_t at = a->base + (h_offset + r) * a->row_bytes() + w_offset;
    if (src.on_device) {
      engine.copy_to_host(row.data(), src_address + r * src_pitch, width);
      engine.copy_to_device(at, row.data(), width);
    } else {
      engine.copy_to_device(at, static_cast<const uint8_t*>(src.pointer) + r * src_pitch, width);
    }
  }
  return cudaSuccess;
}

cudaError_t TextureObjects::copy_from_array(Engine& engine, void* dst, bool dst_on_device, uint64_t dst_pitch,
                                            cudaArray_const_t src, uint64_t w_offset, uint64_t h_offset,
                                            uint64_t width, uint64_t height) {
  const CudaArray* a = array(src);
  if (a == nullptr || dst == nullptr) return cudaErrorInvalidValue;
  if (height > 1 && dst_pitch < width) return cudaErrorInvalidPitchValue;
  if (w_offset > a->row_bytes() || width > a->row_bytes() - w_offset || h_offset > a->rows() ||
      height > a->rows() - h_offset)
    return cudaErrorInvalidValue;
  std::vector<uint8_t> row(width);
  const uint64_t dst_address = reinterpret_cast<uint64_t>(dst);
  for (uint64_t r = 0; r < height; ++r) {
    const uint64_t at = a->base + (h_offset + r) * a->row_bytes() + w_offset;
    if (dst_on_device) {
      engine.copy_to_host(row.data(), at, width);
      engine.copy_to_device(dst_address + r * dst_pitch, row.data(), width);
    } else {
      engine.copy_to_host(static_cast<uint8_t*>(dst) + r * dst_pitch, at, width);
    }
  }
  return cudaSuccess;
}

cudaError_t TextureObjects::describe(const cudaResourceDesc& resource, func::TextureDescriptor& d) const {
  cudaChannelFormatDesc format{};
  switch (raw_enum(resource.resType)) {
    case cudaResourceTypeArray: {
      const CudaArray* a = array(resource.res.array.array);
      if (a == nullptr) return cudaErrorInvalidValue;
      format = a->desc;
      d.kind = func::ResourceKind::Array;
      d.width = a->width;
      d.height = a->height;
      d.depth = a->depth;
      d.layers = a->layers;
      d.layered = (a->flags & cudaArrayLayered) != 0;
      d.cubemap = (a->flags & cudaArrayCubemap) != 0;
      d.base = a->base;
      d.pitch = a->row_bytes();
      break;
    }
    case cudaResourceTypeLinear: {
      const auto& l = resource.res.linear;
      format = l.desc;
      if (cudaError_t e = check_channels(format); e != cudaSuccess) return e;
      const uint32_t element = channel_count(format) * static_cast<uint32_t>(format.x) / 8;
      if (l.devPtr == nullptr || l.sizeInBytes < element) return cudaErrorInvalidValue;
      d.kind = func::ResourceKind::Linear;
      d.width = static_cast<uint32_t>(l.sizeInBytes / element);
      d.base = reinterpret_cast<uint64_t>(l.devPtr);
      d.pitch = uint64_t{d.width} * element;
      break;
    }
    case cudaResourceTypePitch2D: {
      const auto& p = resource.res.pitch2D;
      format = p.desc;
      if (cudaError_t e = check_channels(format); e != cudaSuccess) return e;
      const uint32_t element = channel_count(format) * static_cast<uint32_t>(format.x) / 8;
      if (p.devPtr == nullptr || p.width == 0 || p.height == 0 || p.pitchInBytes < p.width * element ||
          p.pitchInBytes % 32 != 0)  // texturePitchAlignment
        return cudaErrorInvalidValue;
      d.kind = func::ResourceKind::Pitch2D;
      d.width = static_cast<uint32_t>(p.width);
      d.height = static_cast<uint32_t>(p.height);
      d.base = reinterpret_cast<uint64_t>(p.devPtr);
      d.pitch = p.pitchInBytes;
      break;
    }
    default:
      return cudaErrorNotSupported;  // mipmapped arrays: the caller names them
  }
  d.channels = static_cast<uint8_t>(channel_count(format));
  d.channel_bits = static_cast<uint8_t>(format.x);
  d.channel_kind = channel_kind(format.f);
  return cudaSuccess;
}

uint64_t TextureObjects::write_descriptor(Engine& engine, const func::TextureDescriptor& d) const {
  const uint64_t at = engine.malloc(sizeof d);
  engine.copy_to_device(at, &d, sizeof d);
  return at;
}

cudaError_t TextureObjects::create_texture(Engine& engine, cudaTextureObject_t* object,
                                           const cudaResourceDesc& resource, const cudaTextureDesc& texture) {
  func::TextureDescriptor d;
  d.magic = func::kTextureMagic;
  if (cudaError_t e = describe(resource, d); e != cudaSuccess) return e;
  for (int i = 0; i < 3; ++i) {
    const int mode = raw_enum(texture.addressMode[i]);
    if (mode < cudaAddressModeWrap || mode > cudaAddressModeBorder) return cudaErrorInvalidValue;
    d.address_mode[i] = static_cast<func::AddressMode>(mode);
  }
  const int filter = raw_enum(texture.filterMode), read = raw_enum(texture.readMode);
  if (filter != cudaFilterModePoint && filter != cudaFilterModeLinear) return cudaErrorInvalidValue;
  if (read != cudaReadModeElementType && read != cudaReadModeNormalizedFloat) return cudaErrorInvalidValue;
  const bool integer = d.channel_kind != func::ChannelKind::Float;
  const bool normalized_read = texture.readMode == cudaReadModeNormalizedFloat && integer;
  // Normalized-float reads exist for 8- and 16-bit integers; linear filtering needs float results.
  if (normalized_read && d.channel_bits == 32) return cudaErrorInvalidValue;
  if (texture.filterMode == cudaFilterModeLinear && integer && !normalized_read) return cudaErrorInvalidValue;
  d.filter = texture.filterMode == cudaFilterModeLinear ? func::FilterMode::Linear : func::FilterMode::Point;
  d.read_mode = normalized_read ? func::ReadMode::NormalizedFloat : func::ReadMode::Element;
  d.normalized_coords = texture.normalizedCoords != 0;
  for (int i = 0; i < 4; ++i) d.border[i] = texture.borderColor[i];
  const uint64_t handle = write_descriptor(engine, d);
  textures_[handle] = {resource, texture};
  *object = handle;
  return cudaSuccess;
}

cudaError_t TextureObjects::destroy_texture(Engine& engine, cudaTextureObject_t object) {
  if (object == 0) return cudaSuccess;
  auto it = textures_.find(object);
  if (it == textures_.end()) return cudaErrorInvalidValue;
  engine.free(object);
  textures_.erase(it);
  return cudaSuccess;
}

cudaError_t TextureObjects::create_surface(Engine& engine, cudaSurfaceObject_t* object,
                                           const cudaResourceDesc& resource) {
  if (raw_enum(resource.resType) != cudaResourceTypeArray) return cudaErrorInvalidValue;
  const CudaArray* a = array(resource.res.array.array);
  if (a == nullptr || (a->flags & cudaArraySurfaceLoadStore) == 0) return cudaErrorInvalidValue;
  func::TextureDescriptor d;
  d.magic = func::kSurfaceMagic;
  if (cudaError_t e = describe(resource, d); e != cudaSuccess) return e;
  const uint64_t handle = write_descriptor(engine, d);
  surfaces_[handle] = resource;
  *object = handle;
  return cudaSuccess;
}

cudaError_t TextureObjects::destroy_surface(Engine& engine, cudaSurfaceObject_t object) {
  if (object == 0) return cudaSuccess;
  auto it = surfaces_.find(object);
  if (it == surfaces_.end()) return cudaErrorInvalidValue;
  engine.free(object);
  surfaces_.erase(it);
  return cudaSuccess;
}

const cudaResourceDesc* TextureObjects::texture_resource(cudaTextureObject_t object) const {
  auto it = textures_.find(object);
  return it == textures_.end() ? nullptr : &it->second.resource;
}

const cudaTextureDesc* TextureObjects::texture_description(cudaTextureObject_t object) const {
  auto it = textures_.find(object);
  return it == textures_.end() ? nullptr : &it->second.texture;
}

const cudaResourceDesc* TextureObjects::surface_resource(cudaSurfaceObject_t object) const {
  auto it = surfaces_.find(object);
  return it == surfaces_.end() ? nullptr : &it->second;
}

}  // namespace lockstep::runtime
