#pragma once
// The device-side descriptor of a texture or surface object. A cudaTextureObject_t or
// cudaSurfaceObject_t handle is the device address of one of these, written into device memory
// by the runtime when the object is created; tex/tld4/txq/suld/sust/suq read it through the
// warp's memory. Plain data with fixed layout, so the runtime and the engine agree on it
// without sharing code.
#include <cstdint>
#include <type_traits>

namespace lockstep::func {

inline constexpr uint32_t kTextureMagic = 0x5845544cu;  // "LTEX" in memory
inline constexpr uint32_t kSurfaceMagic = 0x4652534cu;  // "LSRF" in memory

// What the object reads: linear memory (tex1Dfetch), pitched 2D linear memory, or a CUDA
// array (stored row-major: x fastest, then y, then z, then layer).
enum class ResourceKind : uint8_t { Linear, Pitch2D, Array };
enum class ChannelKind : uint8_t { Signed, Unsigned, Float };
// Same order and values as cudaTextureAddressMode and cudaTextureFilterMode.
enum class AddressMode : uint8_t { Wrap, Clamp, Mirror, Border };
enum class FilterMode : uint8_t { Point, Linear };
// cudaReadModeElementType / cudaReadModeNormalizedFloat.
enum class ReadMode : uint8_t { Element, NormalizedFloat };

struct TextureDescriptor {
  uint32_t magic = 0;                  // kTextureMagic or kSurfaceMagic
  ResourceKind kind = ResourceKind::Linear;
  ChannelKind channel_kind = ChannelKind::Unsigned;
  uint8_t channels = 1;                // 1, 2 or 4
  uint8_t channel_bits = 32;           // 8, 16 or 32 (16 or 32 for Float)
  AddressMode address_mode[3] = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  FilterMode filter = FilterMode::Point;
  ReadMode read_mode = ReadMode::Element;
  uint8_t normalized_coords = 0;       // coordinates in [0, 1) span the whole extent
  uint8_t layered = 0;                 // a layered array: `layers` slices of width x height
  uint8_t cubemap = 0;                 // a cubemap array: layer 6 * cube + face (+x -x +y -y +z -z)
  uint32_t width = 1, height = 1, depth = 1;  // in elements; 1 for unused dimensions
  uint32_t layers = 1;
  uint64_t base = 0;                   // device address of element (0, 0, 0, layer 0)
  uint64_t pitch = 0;                  // bytes from one row to the next
  float border[4] = {0, 0, 0, 0};      // cudaAddressModeBorder colour

  uint32_t element_bytes() const { return uint32_t{channels} * channel_bits / 8; }
  // Bytes from one z slice (or layer) to the next.
  uint64_t slice_pitch() const { return pitch * height; }
};

static_assert(std::is_trivially_copyable_v<TextureDescriptor>);
static_assert(sizeof(TextureDescriptor) == 64);

}  // namespace lockstep::func
