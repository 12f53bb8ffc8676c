#pragma once
// Texture sampling as the CUDA programming guide's "Texture Fetching" appendix describes it:
// address modes on texel indices, point sampling, and linear filtering with weights in 9-bit
// fixed point (8 fractional bits). Shared by tex (texture_sample.cpp) and tld4 (texture_gather.cpp).
#include <cstdint>

#include "func/ops/texture_common.h"

namespace lockstep::func::texture {

// What the instruction's destination type asks for: f32 values, or 32-bit integers.
enum class ResultKind : uint8_t { Float, Integer };

// One lane's coordinates, as the instruction supplied them.
struct Coordinates {
  bool integer = false;     // .s32 coordinates: texel indices, never filtered
  float f[3] = {0, 0, 0};
  int32_t i[3] = {0, 0, 0};
  uint32_t layer = 0;
};

struct Rgba {
  uint32_t bits[4] = {0, 0, 0, 0};  // f32 bits (Float) or integers (Integer)
};

class Sampler {
 public:
  Sampler(Warp& w, const TextureDescriptor& d, ResultKind kind, uint32_t lane)
      : w_(w), d_(d), kind_(kind), lane_(lane) {}

  // tex: point sampling, or linear filtering for float results of a linear-filter texture.
  Rgba sample(const Coordinates& c, uint32_t dims);
  // tld4: one channel of the four texels a bilinear filter at c would use, in the order
  // (i, j+1), (i+1, j+1), (i+1, j), (i, j): counter-clockwise from the lower left.
  Rgba gather(const Coordinates& c, uint32_t channel);

 private:
  // A texel index in dimension `dim` after the address mode; false when it falls on the border.
  bool resolve(int64_t index, uint32_t dim, uint32_t& out) const;
  // The texel at integer indices (x, y, z) as result values (border colour when outside).
  Rgba texel(const int64_t index[3], uint32_t layer);
  float texel_coordinate(const Coordinates& c, uint32_t dim) const;
  uint32_t extent(uint32_t dim) const;

  Warp& w_;
  const TextureDescriptor& d_;
  ResultKind kind_;
  uint32_t lane_;
};

}  // namespace lockstep::func::texture
